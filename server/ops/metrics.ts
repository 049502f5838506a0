/**
 * Prometheus metrics (prom-client, issue 16 item 3) at `GET /metrics`, text format 0.0.4:
 * request rate and latency per ROUTE TEMPLATE (`/mobile-gate/api/v1/punter/:id`, never the raw
 * path, so label values stay bounded whatever URLs clients send), open sockets, the database in
 * use (PostgreSQL: the pool's total, idle and waiting connections; SQLite: its one connection, file
 * and WAL size; both: a probe query's time, storage errors) and the process defaults (CPU, memory,
 * event-loop lag, GC).
 *
 * Who may read it: a scraper on the same host (the TCP peer is loopback and no proxy forwarded the
 * request: `req.ip` is loopback), or a request carrying a live admin session cookie. Anyone else
 * gets 404 NOT_FOUND, as if the path did not exist. Each server has its own registry, so several
 * servers in one process (the tests) never mix their counts.
 */
import type { Request, Response } from 'express'
import { statSync } from 'node:fs'
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import { sessionFor } from '../admin/accounts'
import type { ServerDeps } from '../deps'
import { HTTP_ERRORS, sendError } from '../http/envelope'
import { openapi, type PathItem } from '../http/openapi-registry'
import { probeDatabase } from './health'
import { answeredRoute } from './route-template'
import type { Metrics } from './metrics-types'

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1'])
const ADMIN_COOKIE = 'parlay_admin'

export type { Metrics } from './metrics-types'

function adminCookie(req: Request): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=')
    if (name === ADMIN_COOKIE) return value.join('=')
  }
  return undefined
}

/** Loopback peer with nothing forwarded, or a live admin session. */
export async function mayReadMetrics(req: Request, deps: Pick<ServerDeps, 'data' | 'now'>): Promise<boolean> {
  if (LOOPBACK.has(req.ip ?? '') && req.headers['x-forwarded-for'] === undefined) return true
  try {
    return !!(await sessionFor(deps.data, adminCookie(req), deps.now()))
  } catch {
    return false
  }
}

function fileSize(file: string): number {
  try {
    return statSync(file).size
  } catch {
    return 0
  }
}

export function createMetrics(deps: Pick<ServerDeps, 'db' | 'data' | 'now' | 'config'>): Metrics {
  const registry = new Registry()
  // The process defaults (GC observers, event-loop monitor) start at the first scrape, so servers
  // nobody scrapes (most tests start dozens in one process) never install them.
  let defaults = false
  const requests = new Counter({ name: 'parlay_http_requests_total', help: 'HTTP requests answered, by method, route template and status', labelNames: ['method', 'route', 'status'], registers: [registry] })
  const latency = new Histogram({
    name: 'parlay_http_request_duration_seconds',
    help: 'Time from request to the last byte of the answer, by method and route template',
    labelNames: ['method', 'route'],
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  })
  let sockets = () => 0
  new Gauge({ name: 'parlay_socket_connections', help: 'Open real-time sockets (events and punter)', registers: [registry], collect() { this.set(sockets()) } })
  const storageErrors = new Counter({ name: 'parlay_db_storage_errors_total', help: 'Requests answered 503 because the database could not serve them, by SQLite code or PostgreSQL SQLSTATE', labelNames: ['code'], registers: [registry] })
  databaseGauges(registry, deps)
  new Gauge({
    name: 'parlay_db_probe_seconds',
    help: 'Time a select 1 on the database in use took at the last scrape (-1: it did not answer within 1 s)',
    registers: [registry],
    async collect() {
      const started = process.hrtime.bigint()
      const failed = await probeDatabase(deps.data)
      this.set(failed === undefined ? Number(process.hrtime.bigint() - started) / 1e9 : -1)
    },
  })

  return {
    registry,
    middleware(req, res, next) {
      const stop = latency.startTimer()
      res.once('finish', () => {
        const route = answeredRoute(req, res)
        requests.inc({ method: req.method, route, status: String(res.statusCode) })
        stop({ method: req.method, route })
      })
      next()
    },
    async route(req, res) {
      res.setHeader('Cache-Control', 'no-store')
      if (!(await mayReadMetrics(req, deps))) return sendError(res, 404, HTTP_ERRORS.notFound)
      if (!defaults) collectDefaultMetrics({ register: registry })
      defaults = true
      res.type(registry.contentType).send(await registry.metrics())
    },
    watchSockets(count) {
      sockets = count
    },
    storageError(code) {
      storageErrors.inc({ code })
    },
  }
}

/** The connection gauges of the engine in use: the PostgreSQL pool, or the SQLite file and its WAL. */
function databaseGauges(registry: Registry, deps: Pick<ServerDeps, 'db' | 'data' | 'config'>): void {
  const pool = deps.data.poolStats?.bind(deps.data)
  if (pool) {
    new Gauge({ name: 'parlay_db_connections_open', help: 'Open connections of the PostgreSQL pool (busy and idle)', registers: [registry], collect() { this.set(pool().total) } })
    new Gauge({ name: 'parlay_db_pool_idle_connections', help: 'Idle connections of the PostgreSQL pool', registers: [registry], collect() { this.set(pool().idle) } })
    new Gauge({ name: 'parlay_db_pool_waiting_requests', help: 'Queries waiting for a PostgreSQL pool connection (all are busy)', registers: [registry], collect() { this.set(pool().waiting) } })
    return
  }
  const file = deps.config.dataDir === ':memory:' ? undefined : `${deps.config.dataDir}/parlay.db`
  new Gauge({ name: 'parlay_db_connections_open', help: 'Open database connections (the embedded SQLite store holds one)', registers: [registry], collect() { this.set(deps.db.open ? 1 : 0) } })
  new Gauge({ name: 'parlay_db_file_bytes', help: 'Size of the SQLite database file', registers: [registry], collect() { this.set(file ? fileSize(file) : 0) } })
  new Gauge({ name: 'parlay_db_wal_bytes', help: 'Size of the SQLite write-ahead log (grows between checkpoints)', registers: [registry], collect() { this.set(file ? fileSize(`${file}-wal`) : 0) } })
}

export const metricsOpenApi: Record<string, PathItem> = {
  '/metrics': {
    get: {
      summary: 'Prometheus metrics (text format): from loopback with nothing forwarded, or with an admin session cookie; anyone else 404',
      responses: { 200: openapi.raw('Prometheus text exposition format 0.0.4', 'text/plain') },
    },
  },
}
