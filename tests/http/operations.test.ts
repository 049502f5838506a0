/**
 * Issue 16 item 3 (operations): health for orchestrators (/health/live, /health/ready), a request
 * id on every answer, structured logs that carry the site and a hashed punter but no secret, and
 * Prometheus metrics per route template that only loopback or an admin may read; a database
 * fault is a 503 in the envelope.
 */
import Database from 'better-sqlite3'
import pg from 'pg'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findPunterByLogin } from '../../server/punters/repository'
import { hashPunterId } from '../../server/log'
import { onPostgres, rawRequest, startTestServer, type TestServer } from '../support/server'
import { DEMO_PASSWORD, startAuthServer, type AuthTestServer } from './auth/support'
import { OPERATOR, signIn } from './admin/support'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

describe('health: liveness says the process is up, readiness says it can take traffic', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  }, 120_000)
  afterAll(async () => server?.dispose())

  it('GET /health/live answers 200 in the envelope, not cached', async () => {
    const res = await rawRequest(server.port, { path: '/health/live' })
    expect(res.status).toBe(200)
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.json()).toMatchObject({ status: 'OK', payload: { live: true } })
  })

  it('GET /health/ready answers 200 when serving, with documents loaded and the database answering', async () => {
    const res = await rawRequest(server.port, { path: '/health/ready' })
    expect(res.status).toBe(200)
    expect(res.json().payload).toMatchObject({ ready: true })
    expect(res.json().payload.documents).toBeGreaterThan(0)
  })

  it('both are in the OpenAPI document', async () => {
    const paths = (await rawRequest(server.port, { path: '/api/openapi.json' })).json().paths
    expect(paths['/health/live'].get.summary).toMatch(/Liveness/)
    expect(paths['/health/ready'].get.responses['503']).toBeDefined()
    expect(paths['/metrics'].get.summary).toMatch(/Prometheus/)
  })

  it('readiness is 503 NOT_READY while draining; liveness stays 200', async () => {
    server.deps.lifecycle!.draining()
    const ready = await rawRequest(server.port, { path: '/health/ready' })
    expect(ready.status).toBe(503)
    expect(ready.json()).toEqual({ status: 'ERROR', errorCode: 'NOT_READY', payload: { check: 'lifecycle', detail: 'draining' } })
    expect(ready.headers['retry-after']).toBe('5')
    expect((await rawRequest(server.port, { path: '/health/live' })).status).toBe(200)
  })

  // SQLite's fault, injected; PostgreSQL's (the cluster stopped) is in tests/http/tails-engines.test.ts
  it.skipIf(onPostgres)('readiness is 503 NOT_READY naming the database when it does not answer', async () => {
    // every connection to the file fails (the writer, and the reader reads run on: server/db/sqlite-driver.ts)
    const prepare = Database.prototype.prepare
    Database.prototype.prepare = (() => {
      throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' })
    }) as typeof prepare
    try {
      // a fresh lifecycle that is serving, so only the database check can fail
      server.deps.lifecycle = { phase: () => 'serving', serving: () => undefined, draining: () => undefined }
      const ready = await rawRequest(server.port, { path: '/health/ready' })
      expect(ready.status).toBe(503)
      expect(ready.json().payload).toEqual({ check: 'database', detail: 'SQLITE_IOERR' })
    } finally {
      Database.prototype.prepare = prepare
    }
  })
})

describe('request ids, structured logs and metrics', () => {
  let server: AuthTestServer
  beforeAll(async () => {
    server = await startAuthServer()
  }, 120_000)
  afterAll(async () => server?.dispose())

  it('a well-formed incoming X-Request-Id is echoed; a malformed or missing one is replaced by a fresh UUID', async () => {
    const given = await rawRequest(server.port, { path: '/ping.json', headers: { 'x-request-id': 'lb-7f3a.2026:trace-01' } })
    expect(given.headers['x-request-id']).toBe('lb-7f3a.2026:trace-01')
    const malformed = await rawRequest(server.port, { path: '/ping.json', headers: { 'x-request-id': 'bad id <script>' } })
    expect(malformed.headers['x-request-id']).toMatch(UUID)
    const missing = await rawRequest(server.port, { path: '/ping.json' })
    expect(missing.headers['x-request-id']).toMatch(UUID)
    expect(missing.headers['x-request-id']).not.toBe(malformed.headers['x-request-id'])
  })

  it('a login is logged with its request id, site, route template and the punter hashed — never the password, tokens or session hash', async () => {
    server.logLines.length = 0
    const wrong = 'Wr0ng-Secret-Pa55word'
    await server.login('Opened', wrong)
    const ok = await server.login('Opened', DEMO_PASSWORD, {}, '198.51.100.23')
    const session = ok.json.payload
    const timeout = await server.call('GET', 'auth/punter-session/expiration-timeout', { headers: { 'punter-session-hash': session.punterHash, authorization: `Bearer ${session.accessToken}` } })
    expect(timeout.status).toBe(200)
    const log = server.logLines.join('\n')
    for (const secret of [DEMO_PASSWORD, wrong, session.accessToken, session.refreshToken, session.punterHash]) expect(log).not.toContain(secret)
    const lines = server.logLines.map((line) => JSON.parse(line) as Record<string, unknown>)
    const login = lines.find((l) => l.event === 'http.request' && l.requestId === ok.headers.get('x-request-id'))
    expect(login).toMatchObject({ level: 'info', site: 'curacao', method: 'POST', route: '/mobile-gate/api/v1/auth/v2/login', status: 200 })
    expect(lines.every((l) => !('punterId' in l))).toBe(true)
    const { id } = (await findPunterByLogin(server.deps.data, 'curacao', 'nickname', 'Opened'))!
    const withSession = lines.find((l) => l.event === 'http.request' && l.requestId === timeout.headers.get('x-request-id'))
    expect(withSession).toMatchObject({ route: '/mobile-gate/api/v1/auth/punter-session/expiration-timeout', punter: hashPunterId(id) })
    expect(JSON.stringify(withSession)).not.toContain(`:${id},`)
  })

  it('GET /metrics from loopback: request counts and latency per route template, sockets, database, process', async () => {
    await server.call('GET', 'auth/captcha/challenge')
    await rawRequest(server.port, { path: '/api/documents/screen/no-such-screen-4711' })
    const res = await rawRequest(server.port, { path: '/metrics' })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/plain/)
    expect(res.body).toMatch(/parlay_http_requests_total\{method="GET",route="\/mobile-gate\/api\/v1\/auth\/captcha\/challenge",status="200"\} \d+/)
    expect(res.body).toMatch(/parlay_http_request_duration_seconds_bucket\{le="[0-9.]+",method="GET",route="\/mobile-gate\/api\/v1\/auth\/captcha\/challenge"\}/)
    // labels are templates: the id a client sent is never a label value
    expect(res.body).toContain('route="/api/documents/:kind/:id"')
    expect(res.body).not.toContain('no-such-screen-4711')
    // the database in use: SQLite's one connection, file and WAL, or the PostgreSQL pool (PARLAY_TEST_DATABASE=postgres)
    const database = server.deps.data.engine === 'sqlite' ? ['parlay_db_connections_open 1', 'parlay_db_file_bytes', 'parlay_db_wal_bytes'] : ['parlay_db_connections_open', 'parlay_db_pool_idle_connections', 'parlay_db_pool_waiting_requests']
    for (const name of ['parlay_socket_connections 0', ...database, 'parlay_db_probe_seconds', 'process_cpu_seconds_total', 'nodejs_eventloop_lag_seconds'])
      expect(res.body).toContain(name)
  })

  it('GET /metrics through a proxy (a forwarded client) is 404 without an admin session, 200 with one', async () => {
    const forwarded = { 'x-forwarded-for': '203.0.113.9' }
    const refused = await rawRequest(server.port, { path: '/metrics', headers: forwarded })
    expect(refused.status).toBe(404)
    expect(refused.json()).toEqual({ status: 'ERROR', errorCode: 'NOT_FOUND' })
    const operator = await signIn(server, OPERATOR)
    const allowed = await rawRequest(server.port, { path: '/metrics', headers: { ...forwarded, cookie: operator.cookie } })
    expect(allowed.status).toBe(200)
    expect(allowed.body).toContain('parlay_http_requests_total')
    const forged = await rawRequest(server.port, { path: '/metrics', headers: { ...forwarded, cookie: 'parlay_admin=not-a-session' } })
    expect(forged.status).toBe(404)
  })
})

/** The demo punter's login, the write both lock tests block. */
const demoLogin = (server: TestServer) =>
  rawRequest(server.port, {
    method: 'POST',
    path: '/mobile-gate/api/v1/auth/v2/login',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: 'opened@demo.parlay.test', password: DEMO_PASSWORD }),
  })

/** While another connection holds the lock, a login answers 503 STORAGE_UNAVAILABLE with
 * Retry-After and no stack; the metrics count the engine's code; once released, the login works. */
async function expectLockedLoginThenServed(server: TestServer, code: string, lock: { hold(): unknown; release(): unknown }) {
  try {
    await lock.hold()
    const locked = await demoLogin(server)
    expect(locked.status).toBe(503)
    expect(locked.json()).toEqual({ status: 'ERROR', errorCode: 'STORAGE_UNAVAILABLE' })
    expect(locked.headers['retry-after']).toBeDefined()
    expect(locked.body).not.toMatch(/\bat \S+:\d+/)
  } finally {
    await lock.release()
  }
  const metrics = await rawRequest(server.port, { path: '/metrics' })
  expect(metrics.body).toContain(`parlay_db_storage_errors_total{code="${code}"} 1`)
  expect((await demoLogin(server)).status).toBe(200)
}

// SQLite's whole-file write lock, so the SQLite pass only; PostgreSQL's counterpart (a lock held past
// lock_timeout) follows it. PostgreSQL's database fault (the cluster stopped: 503, then served again)
// is in tests/http/tails-engines.test.ts and tests/http/auth/counters-engines.test.ts.
describe.skipIf(onPostgres)('a database fault (SQLITE_BUSY: another writer holds the lock) is a 503 in the envelope, never a 500', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  }, 120_000)
  afterAll(async () => server?.dispose())

  it('a login while the store is locked answers 503 STORAGE_UNAVAILABLE with Retry-After; metrics count it; it works again once the lock is gone', async () => {
    server.deps.db.pragma('busy_timeout = 50') // the production 5 s, shortened so the test does not wait
    const other = new Database(join(server.deps.config.dataDir, 'parlay.db'))
    await expectLockedLoginThenServed(server, 'SQLITE_BUSY', {
      hold: () => void other.exec('BEGIN EXCLUSIVE'),
      release: () => {
        other.exec('ROLLBACK')
        other.close()
      },
    })
  })
})

// PostgreSQL's counterpart of SQLITE_BUSY: a statement that waits for a lock longer than lock_timeout
// (5 s in production, as SQLite's busy_timeout) fails with 55P03 and the request answers 503, so a
// stuck transaction elsewhere never makes a punter's request hang without limit.
describe.runIf(onPostgres)('a lock held past lock_timeout (55P03) is a 503 in the envelope, never a hang or a 500', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ lockTimeoutMs: 100 }) // the production 5 s, shortened so the test does not wait
  }, 120_000)
  afterAll(async () => server?.dispose())

  it('a login while another transaction holds the sessions table answers 503 STORAGE_UNAVAILABLE with Retry-After; metrics count 55P03; it works again once the lock is gone', async () => {
    const other = new pg.Client({ connectionString: server.databaseUrl })
    await other.connect()
    await expectLockedLoginThenServed(server, '55P03', {
      hold: async () => {
        await other.query('BEGIN')
        await other.query('LOCK TABLE auth_sessions IN ACCESS EXCLUSIVE MODE')
      },
      release: async () => {
        await other.query('ROLLBACK')
        await other.end()
      },
    })
  })
})
