/**
 * What a server's metrics offer the rest of the server. Its own file so deps.ts (which holds a
 * server's parts) and metrics.ts (which reads ServerDeps to make them) do not import each other.
 */
import type { NextFunction, Request, Response } from 'express'
import type { Registry } from 'prom-client'

export interface Metrics {
  registry: Registry
  /** Counts and times every request by method, route template and status. */
  middleware(req: Request, res: Response, next: NextFunction): void
  /** GET /metrics. */
  route(req: Request, res: Response): Promise<void>
  /** The socket server's open-connection count, read at each scrape. */
  watchSockets(count: () => number): void
  /** A request failed because the store could not serve it (SQLITE_BUSY, IOERR, …). */
  storageError(code: string): void
}
