/**
 * The Express application: security headers, strict body parsing, the documents API, every
 * server module, the SPA, and one error handler that never leaks a stack trace.
 */
import compression from 'compression'
import express, { type NextFunction, type Request, type Response } from 'express'
import expressStaticGzip from 'express-static-gzip'
import helmet from 'helmet'
import { recordServerError } from './services/errors'
import { CONTENT_SECURITY_POLICY } from './http/csp'
import { existsSync } from 'node:fs'
import { join, sep } from 'node:path'
import type { ServerDeps } from './deps'
import { createDocumentsRouter, servesPage } from './documents/router'
import { candidateScope } from './documents/candidate'
import { countPublishErrors } from './store/publish-watch'
import { HTTP_ERRORS, sendError, sendOk } from './http/envelope'
import { createErrorPages } from './http/error-pages'
import { createPageRenderer, type RenderedPage } from './http/boot'
import { checkClientHeaders } from './http/site'
import { createReadiness } from './http/readiness'
import { refusePrototypeKeys } from './http/validate'
import { clientGate } from './http/client-gate'
import { isStorageUnavailable } from './db/database'
import { AuditLogError } from './store/audit'
import { modules } from './modules'
import { createPreviewPunterRouter } from './admin/preview-punter'
import { labelModuleLayers, layerCount } from './auth/openapi'
import { liveRoute, readyRoute } from './ops/health'
import { createMetrics } from './ops/metrics'
import { logRequests, requestLog } from './ops/request-log'

/** Content Security Policy: no 'unsafe-eval', no inline script, nothing from other origins (server/http/csp.ts). */
export { CONTENT_SECURITY_POLICY }

/**
 * Headers that mean something only on a document (or a worker script): the CSP, framing, opener,
 * referrer, HSTS and feature policies. A hashed script, style or image never becomes a document
 * (served with nosniff and its own type), so they are dropped there: about 800 bytes of headers
 * on every asset request a phone makes (issue 10: bytes before the first paint). What protects a
 * subresource stays: X-Content-Type-Options, Cross-Origin-Resource-Policy, the request id.
 * sw.js and the pages are not under assets/ and keep every header.
 */
const DOCUMENT_ONLY_HEADERS = [
  'Content-Security-Policy',
  'Cross-Origin-Opener-Policy',
  'Origin-Agent-Cluster',
  'Referrer-Policy',
  'Strict-Transport-Security',
  'X-DNS-Prefetch-Control',
  'X-Download-Options',
  'X-Frame-Options',
  'X-Permitted-Cross-Domain-Policies',
  'X-XSS-Protection',
  'Permissions-Policy',
]

export async function createApp(deps: ServerDeps): Promise<express.Application> {
  const app = express()
  app.disable('x-powered-by')
  app.set('trust proxy', 'loopback')
  app.set('etag', false)
  // the publish gate's own requests see the set with the change in place (server/documents/candidate.ts)
  app.use(candidateScope)
  // Every request: a request id, one log line, counted and timed per route template (server/ops).
  const metrics = (deps.metrics ??= createMetrics(deps))
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
  // files go out precompressed (below), which this middleware leaves alone.
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
  app.use(['/api', '/mobile-gate', '/client-gate', '/uniweb-gate', '/admin/api', '/experiments', '/dev', '/casino-gate', '/live-casino-gate'], (_req, res) =>
    sendError(res, 404, HTTP_ERRORS.notFound),
  )

  // Page paths get error pages as HTML, API paths keep the envelope (server/http/error-pages.ts):
  // 400 for a URL whose percent-encoding is broken, 405 for a method other than GET/HEAD.
  const errorPages = createErrorPages(deps.config.distDir)
  app.use(errorPages.malformedPath)

  // The client's files, precompressed at build (brotli and gzip beside each file) and picked by
  // Accept-Encoding; hashed assets are immutable, everything else (sw.js, index.html) revalidates.
  const distDir = deps.config.distDir
  const hashedAssets = join(distDir, 'assets') + sep
  const favicon = join(distDir, 'favicon.svg')
  app.get('/favicon.ico', (_req, res, next) => {
    if (!existsSync(favicon)) return next()
    res.setHeader('Cache-Control', 'public, max-age=86400')
    res.type('image/svg+xml').sendFile(favicon)
  })
  // the build's hidden source maps are for the admin error view only, never for punters
  app.use((req, res, next) => (/\.map$/i.test(req.path) ? sendError(res, 404, HTTP_ERRORS.notFound) : next()))
  // Hashed assets: a name is never reused for other bytes, so they carry no validators (ETag,
  // Last-Modified: an immutable file is never revalidated) and no Accept-Ranges (a script is
  // never fetched in parts) — about 100 bytes less on each script and style of every first load.
  app.use(
    '/assets',
    expressStaticGzip(hashedAssets, {
      enableBrotli: true,
      orderPreference: ['br', 'gzip'],
      index: false,
      serveStatic: {
        index: false,
        etag: false,
        lastModified: false,
        acceptRanges: false,
        setHeaders(res) {
          res.setHeader('Cache-Control', 'public, max-age=31536000, immutable')
          for (const name of DOCUMENT_ONLY_HEADERS) res.removeHeader(name)
        },
      },
    }),
  )
  app.use(
    expressStaticGzip(distDir, {
      enableBrotli: true,
      orderPreference: ['br', 'gzip'],
      index: false,
      serveStatic: { index: false, setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache') },
    }),
  )

  // Every page: the client's HTML with the route's boot data inlined (server/http/boot.ts), an
  // ETag over the whole page, revalidated on every load.
  const pages = createPageRenderer(deps)
  app.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return errorPages.send(res, 405)
    pages.render(req).then((page) => sendPage(req, res, page), next)
  })
  const sendPage = (req: Request, res: Response, page: RenderedPage | undefined) => {
    if (!page) return sendError(res, 503, 'CLIENT_NOT_BUILT')
    // The SPA renders every page; the status still tells crawlers and tests whether the path exists.
    const known = servesPage(deps, req) && !page.notFound
    res.setHeader('Cache-Control', 'no-cache')
    res.setHeader('Vary', 'Host, Accept-Language, Cookie')
    res.setHeader('ETag', page.etag)
    if (page.timing) res.setHeader('Server-Timing', page.timing)
    // a first visit's experiment id and groups (server/experiments/visitor-groups.ts)
    if (page.cookie) res.append('Set-Cookie', page.cookie)
    const match = req.headers['if-none-match']
    if (known && match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === page.etag)) return void res.status(304).end()
    res.status(known ? 200 : 404).type('html').send(page.html)
  }

  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const err = error as { type?: string; status?: number; message?: string }
    if (res.headersSent) return
    if (err.type === 'entity.parse.failed') return sendError(res, 400, HTTP_ERRORS.malformedJson)
    if (err.type === 'entity.too.large') return sendError(res, 413, HTTP_ERRORS.payloadTooLarge)
    if (err.type === 'encoding.unsupported' || err.type === 'charset.unsupported') return sendError(res, 415, HTTP_ERRORS.unsupportedMediaType)
    if (typeof err.status === 'number' && err.status >= 400 && err.status < 500) return sendError(res, err.status, 'BAD_REQUEST')
    if (isStorageUnavailable(error)) {
      metrics.storageError(String((error as { code?: unknown }).code))
      return readiness.storageFailed(req, res, error)
    }
    // the audit log was shortened under this server: it writes nothing more that needs an entry (server/store/audit.ts)
    if (error instanceof AuditLogError) {
      deps.log.error('audit.append.refused', { method: req.method, path: req.path, error: err.message })
      res.setHeader('Retry-After', '60')
      return sendError(res, 503, 'AUDIT_LOG_UNVERIFIED')
    }
    const requestId = recordServerError(deps, req, error)
    requestLog(res, deps.log).error('request.failed', { method: req.method, path: req.path, error: err.message, requestId })
    res.setHeader('X-Request-Id', requestId)
    sendError(res, 500, HTTP_ERRORS.internal)
  })
  return app
}
