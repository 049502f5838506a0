/**
 * Health for orchestrators and load balancers (issue 16 item 3):
 * - `GET /health/live`: the process is up and its event loop turns (always 200 while it answers);
 *   a liveness probe that fails means "restart me".
 * - `GET /health/ready`: this instance can take traffic: it is serving (not starting, not
 *   draining after SIGTERM), its documents are loaded (at least one site), and the database in use
 *   (SQLite, or the PostgreSQL pool of DATABASE_URL) answers a `select 1` within PROBE_TIMEOUT_MS.
 *   Otherwise 503 NOT_READY with the failing check, and `Retry-After`.
 * Both are `no-store` and never touch a punter's data.
 */
import type { Request, Response } from 'express'
import { sql } from 'kysely'
import type { ServerDeps } from '../deps'
import { openapi, type PathItem } from '../http/openapi-registry'
import { sendError, sendOk } from '../http/envelope'

export const NOT_READY = 'NOT_READY'
const RETRY_AFTER_SECONDS = 5

/** A database that takes longer than this to answer `select 1` is not ready (a pool waiting on a dead host). */
export const PROBE_TIMEOUT_MS = 1_000

type HealthDeps = Pick<ServerDeps, 'db' | 'data' | 'documents' | 'lifecycle'>

/** The first check that fails, or undefined when the instance is ready. */
export async function readinessProblem(deps: HealthDeps): Promise<{ check: string; detail: string } | undefined> {
  const phase = deps.lifecycle?.phase() ?? 'serving'
  if (phase !== 'serving') return { check: 'lifecycle', detail: phase }
  if (deps.documents.sites().length === 0) return { check: 'documents', detail: 'no site loaded' }
  if (deps.data.engine === 'sqlite' && !deps.db.open) return { check: 'database', detail: 'closed' }
  const failed = await probeDatabase(deps.data)
  return failed === undefined ? undefined : { check: 'database', detail: failed }
}

/** `select 1` on the engine in use; undefined when it answered in time, else the error's code (or "timeout"). */
export async function probeDatabase(data: ServerDeps['data'], timeoutMs = PROBE_TIMEOUT_MS): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<string>((done) => {
    timer = setTimeout(() => done('timeout'), timeoutMs)
  })
  const probe = sql`select 1`.execute(data.db).then(
    () => undefined,
    (error: unknown) => String((error as { code?: unknown }).code ?? 'error'),
  )
  try {
    return await Promise.race([probe, timeout])
  } finally {
    clearTimeout(timer)
  }
}

export function liveRoute(_req: Request, res: Response): void {
  res.setHeader('Cache-Control', 'no-store')
  sendOk(res, { live: true, uptimeSeconds: Math.round(process.uptime()) })
}

export function readyRoute(deps: HealthDeps) {
  return async (_req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store')
    const problem = await readinessProblem(deps)
    if (problem) {
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS))
      return sendError(res, 503, NOT_READY, problem)
    }
    sendOk(res, { ready: true, documents: deps.documents.list().length, sites: deps.documents.sites().length })
  }
}

export const healthOpenApi: Record<string, PathItem> = {
  '/health/live': { get: { summary: 'Liveness: the process is up (200 while it answers at all)' } },
  '/health/ready': {
    get: {
      summary: 'Readiness: serving (not starting or draining), documents loaded, the database in use (SQLite or PostgreSQL) answers select 1 within 1 s; else 503 NOT_READY',
      responses: { 503: openapi.error('Not ready: starting, draining after SIGTERM, no documents, or the database does not answer', [NOT_READY]) },
    },
  },
}
