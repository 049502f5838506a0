/**
 * Storage failures must not look healthy (issue 11 item 12). `/ping.json` says the process is up;
 * `/ready.json` says whether it can do its job: 503 `STORAGE_UNAVAILABLE` while the database
 * cannot take a write (a rolled-back probe insert fails: read-only file, lost lock, I/O error),
 * or while a request hit such an error in the last few seconds (a full disk only shows when a
 * write really commits). A request that fails that way answers 503 with the same code instead of
 * a generic 500, and says when to retry.
 */
import type { Request, Response } from 'express'
import type { DataLayer } from '../db/data-layer'
import type { ServerDeps } from '../deps'
import { HTTP_ERRORS, sendError, sendOk } from './envelope'

/** How long a failed write keeps the server "not ready" after it happened. */
export const STORAGE_FAILURE_MEMORY_MS = 10_000
const RETRY_AFTER_SECONDS = 10

const ROLLBACK = Symbol('rollback')

/**
 * The write probe: an insert in a transaction that is always rolled back (nothing is stored), on
 * the engine that holds the data, so a read-only file or database, a lost lock or an I/O error shows
 * here. On PostgreSQL the SQLite file under data/ holds nothing (probing it said "ready" while the
 * database was a read-only hot standby). Answers null when writable, else the error's code.
 */
async function probeWrite(data: DataLayer): Promise<string | null> {
  try {
    await data.transaction(async (tx) => {
      await tx.insertInto('migrations').values({ name: '~ready-probe', applied_at: 0 }).execute()
      throw ROLLBACK
    })
    return null
  } catch (error) {
    if (error === ROLLBACK) return null
    return String((error as { code?: unknown }).code ?? (data.engine === 'postgres' ? 'POSTGRES_ERROR' : 'SQLITE_ERROR'))
  }
}

/** The storage error's own message for the log, without credentials a connection string could carry. */
export function storageMessage(error: unknown): string {
  return String((error as { message?: unknown } | null)?.message ?? error)
    .replace(/\/\/[^/\s@]*@/g, '//[redacted]@')
    .replace(/password=\S+/gi, 'password=[redacted]')
    .slice(0, 300)
}

export function createReadiness(deps: Pick<ServerDeps, 'db' | 'data' | 'now' | 'log'>) {
  let lastFailure: { at: number; code: string } | undefined

  const recentFailure = () => (lastFailure && deps.now() - lastFailure.at < STORAGE_FAILURE_MEMORY_MS ? lastFailure : undefined)

  return {
    async route(_req: Request, res: Response) {
      res.setHeader('Cache-Control', 'no-store')
      const probe = await probeWrite(deps.data)
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
      // `fault`, not `code`: the log blanks any field whose name says "code" (server/log.ts)
      deps.log.error('storage.unavailable', { method: req.method, path: req.path, fault: code, error: storageMessage(error) })
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS))
      sendError(res, 503, HTTP_ERRORS.storageUnavailable)
    },
  }
}
