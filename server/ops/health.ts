/**
 * Health for orchestrators and load balancers (issue 16 item 3):
 * - `GET /health/live`: the process is up and its event loop turns (always 200 while it answers);
 *   a liveness probe that fails means "restart me".
 * - `GET /health/ready`: this instance can take traffic: it is serving (not starting, not
 *   draining after SIGTERM), its documents are loaded (at least one site), and the database
 *   answers a query. Otherwise 503 NOT_READY with the failing check, and `Retry-After`.
 * Both are `no-store` and never touch a punter's data.
 */
import type { Request, Response } from 'express'
import type { ServerDeps } from '../deps'
import { registerOpenApiPaths, openapi } from '../http/openapi-registry'
import { sendError, sendOk } from '../http/envelope'

export const NOT_READY = 'NOT_READY'
const RETRY_AFTER_SECONDS = 5

type HealthDeps = Pick<ServerDeps, 'db' | 'documents' | 'lifecycle'>

/** The first check that fails, or undefined when the instance is ready. */
export function readinessProblem(deps: HealthDeps): { check: string; detail: string } | undefined {
  const phase = deps.lifecycle?.phase() ?? 'serving'
  if (phase !== 'serving') return { check: 'lifecycle', detail: phase }
  if (deps.documents.sites().length === 0) return { check: 'documents', detail: 'no site loaded' }
  try {
    if (!deps.db.open) return { check: 'database', detail: 'closed' }
    deps.db.prepare('SELECT 1').get()
  } catch (error) {
    return { check: 'database', detail: String((error as { code?: unknown }).code ?? 'error') }
  }
  return undefined
}

export function liveRoute(_req: Request, res: Response): void {
  res.setHeader('Cache-Control', 'no-store')
  sendOk(res, { live: true, uptimeSeconds: Math.round(process.uptime()) })
}

export function readyRoute(deps: HealthDeps) {
  return (_req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store')
    const problem = readinessProblem(deps)
    if (problem) {
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS))
      return sendError(res, 503, NOT_READY, problem)
    }
    sendOk(res, { ready: true, documents: deps.documents.list().length, sites: deps.documents.sites().length })
  }
}

registerOpenApiPaths({
  '/health/live': { get: { summary: 'Liveness: the process is up (200 while it answers at all)' } },
  '/health/ready': {
    get: {
      summary: 'Readiness: serving (not starting or draining), documents loaded, database answers; else 503 NOT_READY',
      responses: { 503: openapi.error('Not ready: starting, draining after SIGTERM, no documents, or the database does not answer', [NOT_READY]) },
    },
  },
})
