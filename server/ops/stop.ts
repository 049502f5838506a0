/**
 * How a running server stops (server/main.ts's RunningServer): `close` at once (tests), `drain`
 * gracefully (SIGTERM): readiness answers 503, no new connections, sockets get "going away", the
 * requests in flight finish (at most the grace time), then the shared parts, the PostgreSQL pool
 * and the database close, in that order.
 */
import type { Server } from 'node:http'
import { closeDatabase, type Db } from '../db/database'
import type { DataLayer } from '../db/data-layer'
import type { DocumentService } from '../documents/service'
import type { RealtimeServer } from '../realtime/server'
import type { Lifecycle } from './lifecycle'

/** How long a graceful stop waits for requests in flight before cutting their connections. */
export const DRAIN_GRACE_MS = 10_000

export interface StoppableParts {
  server: Server
  realtime: Pick<RealtimeServer, 'close'>
  documents: Pick<DocumentService, 'close'>
  lifecycle: Lifecycle
  /** The bus, the published-documents sync, the event relay and the captcha double. */
  stopSharing(): Promise<void>
  data: DataLayer
  db: Db
}

export interface StopControls {
  close(): Promise<void>
  drain(graceMs?: number): Promise<void>
}

export function stopControls({ server, realtime, documents, lifecycle, stopSharing, data, db }: StoppableParts): StopControls {
  return {
    async close() {
      lifecycle.draining()
      await realtime.close()
      documents.close()
      server.closeAllConnections?.()
      await new Promise<void>((done) => server.close(() => done()))
      await stopSharing()
      await data.close()
      closeDatabase(db)
    },
    async drain(graceMs = DRAIN_GRACE_MS) {
      lifecycle.draining() // readiness answers 503 from here on
      // no new connections; sockets get "going away" (1001) so their clients reconnect elsewhere
      const closed = new Promise<void>((done) => server.close(() => done()))
      await realtime.close()
      documents.close()
      // Keep-alive connections between requests are closed as soon as they fall idle.
      const idle = setInterval(() => server.closeIdleConnections?.(), 50)
      const deadline = setTimeout(() => server.closeAllConnections?.(), graceMs)
      server.closeIdleConnections?.()
      await closed
      clearInterval(idle)
      clearTimeout(deadline)
      await stopSharing() // the Redis connections quit
      await data.close() // the PostgreSQL pool ends
      closeDatabase(db)
    },
  }
}
