/**
 * Storage failures must not look healthy (issue 11 item 12). `/ping.json` says the process is up;
 * `/ready.json` says whether it can do its job: 503 `STORAGE_UNAVAILABLE` while the database
 * cannot take a write (a rolled-back probe insert fails: read-only file, lost lock, I/O error),
 * or while a request hit such an error in the last few seconds (a full disk only shows when a
 * write really commits). A request that fails that way answers 503 with the same code instead of
 * a generic 500, and says when to retry.
 */
import type { Request, Response } from 'express'
import { writeProbe } from '../db/database'
import type { ServerDeps } from '../deps'
import { HTTP_ERRORS, sendError, sendOk } from './envelope'

/** How long a failed write keeps the server "not ready" after it happened. */
export const STORAGE_FAILURE_MEMORY_MS = 10_000
const RETRY_AFTER_SECONDS = 10

export function createReadiness(deps: Pick<ServerDeps, 'db' | 'now' | 'log'>) {
  let lastFailure: { at: number; code: string } | undefined

  const recentFailure = () => (lastFailure && deps.now() - lastFailure.at < STORAGE_FAILURE_MEMORY_MS ? lastFailure : undefined)

  return {
    route(_req: Request, res: Response) {
      res.setHeader('Cache-Control', 'no-store')
      const probe = writeProbe(deps.db)
      const failure = probe ?? recentFailure()?.code
      if (failure) {
        res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS))
        return sendError(res, 503, HTTP_ERRORS.storageUnavailable, { database: 'unavailable', reason: failure })
      }
      sendOk(res, { database: 'ok' })
    },
    /** The error handler's answer to a storage error: 503 in the envelope, remembered for /ready.json. */
    storageFailed(req: Request, res: Response, error: unknown) {
      const code = String((error as { code?: unknown }).code)
      lastFailure = { at: deps.now(), code }
      deps.log.error('storage.unavailable', { method: req.method, path: req.path, sqlite: code })
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS))
      sendError(res, 503, HTTP_ERRORS.storageUnavailable)
    },
  }
}
