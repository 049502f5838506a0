/**
 * The Express application: security headers, strict body parsing, the documents API, every
 * server module, the SPA, and one error handler that never leaks a stack trace. createApp reads
 * top to bottom in the order requests meet each step; that order is behaviour (the CSP and
 * compression before any answer, body limits before the modules, the error envelope last).
 */
import compression from 'compression'
import express from 'express'
import helmet from 'helmet'
import { CONTENT_SECURITY_POLICY } from './http/csp'
import type { ServerDeps } from './deps'
import { createDocumentsRouter } from './documents/router'
import { candidateScope } from './documents/candidate'
import { countPublishErrors } from './store/publish-watch'
import { HTTP_ERRORS, sendError, sendOk } from './http/envelope'
import { createErrorPages } from './http/error-pages'
import { checkClientHeaders } from './http/site'
import { createReadiness } from './http/readiness'
import { refusePrototypeKeys } from './http/validate'
import { clientGate } from './http/client-gate'
import { serveClientFiles } from './http/client-files'
import { servePages } from './http/page-route'
import { errorEnvelope } from './http/error-envelope'
import { modules } from './modules'
import { createPreviewPunterRouter } from './admin/preview-punter'
import { labelModuleLayers, layerCount } from './auth/openapi'
import { liveRoute, readyRoute } from './ops/health'
import { createMetrics, type Metrics } from './ops/metrics'
import { logRequests } from './ops/request-log'

/** Content Security Policy: no 'unsafe-eval', no inline script, nothing from other origins (server/http/csp.ts). */
export { CONTENT_SECURITY_POLICY }

/** API prefixes: anything not mounted under them is an API 404 in the envelope, never the SPA. */
const API_PREFIXES = ['/api', '/mobile-gate', '/client-gate', '/uniweb-gate', '/admin/api', '/experiments', '/dev', '/casino-gate', '/live-casino-gate']

export async function createApp(deps: ServerDeps): Promise<express.Application> {
  const app = express()
  app.disable('x-powered-by')
  app.set('trust proxy', 'loopback')
  app.set('etag', false)
  const metrics = (deps.metrics ??= createMetrics(deps))
  useRequestSteps(app, deps, metrics)
  const readiness = mountProbes(app, deps, metrics)
  await mountModules(app, deps)
  // Page paths get error pages as HTML, API paths keep the envelope (server/http/error-pages.ts):
  // 400 for a URL whose percent-encoding is broken, 405 for a method other than GET/HEAD.
  const errorPages = createErrorPages(deps.config.distDir)
  app.use(errorPages.malformedPath)
  serveClientFiles(app, deps.config.distDir)
  servePages(app, deps, errorPages)
  app.use(errorEnvelope(deps, metrics, readiness))
  return app
}

/** What every request passes first, in this order: its scope, log and metrics, the security headers, compression, the body limits and the client's headers. */
function useRequestSteps(app: express.Application, deps: ServerDeps, metrics: Metrics): void {
  // the publish gate's own requests see the set with the change in place (server/documents/candidate.ts)
  app.use(candidateScope)
  // Every request: a request id, one log line, counted and timed per route template (server/ops).
  app.use(logRequests(deps))
  // 5xx on the pages of a fresh publish count toward its automatic rollback (server/store/publish-watch.ts)
  app.use(countPublishErrors(deps))
  app.use(metrics.middleware)
  app.use(
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: { maxAge: 31536000, includeSubDomains: true },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    }),
  )
  // HTML and JSON answers compressed on the fly (br or gzip by Accept-Encoding); the client's
  // files go out precompressed (server/http/client-files.ts), which this middleware leaves alone.
  app.use(compression())
  app.use((_req, res, next) => {
    res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()')
    next()
  })
  app.use(express.json({ limit: '64kb', type: ['application/json', 'application/*+json'], strict: true }))
  app.use(express.text({ limit: '8kb', type: 'text/plain' }))
  app.use(refusePrototypeKeys)
  // the client gate answers the mobile gate's calls (server/http/client-gate.ts)
  app.use(clientGate)
  app.use(checkClientHeaders(deps))
}

/** The probes: ping, readiness (load balancers), liveness and readiness (orchestrators), Prometheus metrics. */
function mountProbes(app: express.Application, deps: ServerDeps, metrics: Metrics) {
  app.get('/ping.json', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, { version: deps.config.version, time: deps.now() })
  })
  // Readiness (load balancers): 503 while the database cannot take a write (server/http/readiness.ts).
  const readiness = createReadiness(deps)
  app.get('/ready.json', (req, res, next) => void readiness.route(req, res).catch(next))
  // Orchestrators: liveness, readiness (503 while starting or draining), Prometheus metrics.
  app.get('/health/live', liveRoute)
  app.get('/health/ready', readyRoute(deps))
  app.get('/metrics', metrics.route)
  return readiness
}

/** The admin's preview, the documents API and every server module (server/modules.ts), each tagged for the OpenAPI document; then the API 404. */
async function mountModules(app: express.Application, deps: ServerDeps): Promise<void> {
  // an admin's preview as a demo punter only reads, whatever the module (server/admin/preview-punter.ts)
  app.use(createPreviewPunterRouter(deps))
  labelModuleLayers(app, 0, 'meta')
  app.use(createDocumentsRouter(deps))
  labelModuleLayers(app, layerCount(app) - 1, 'documents')
  for (const module of modules) {
    const from = layerCount(app)
    await module.mount(app, deps)
    labelModuleLayers(app, from, module.name) // the module's tag in the OpenAPI document
  }
  // Anything else under an API prefix is an API 404 in the envelope, never the SPA; so is /dev
  // (the development extras' prefix) whenever they are not mounted, whatever the method.
  app.use(API_PREFIXES, (_req, res) => sendError(res, 404, HTTP_ERRORS.notFound))
}
