/**
 * The small stores of issue 16's last group (messages, regulation, engagement and promotions,
 * analytics/errors/replays, health and metrics probes) run the same rules on both engines: SQLite
 * (no DATABASE_URL) and a throw-away PostgreSQL cluster (tests/support/postgres.ts, through the
 * test-only seam `convertedStoresOnPostgresForTests`: stores not converted yet stay on the server's
 * temp SQLite). One rule per store group, the one that matters when several instances share a
 * database; the full HTTP suites of each store also run with PARLAY_TEST_DATABASE=postgres.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addresses, apiCaller, DEMO_PASSWORD, type Call } from '../support/api'
import { POSTGRES_MISSING, postgresBinaries, startPostgres, type ThrowawayPostgres } from '../support/postgres'
import { rawRequest, startTestServer, type TestServer } from '../support/server'

const havePostgres = postgresBinaries() !== undefined
if (!havePostgres) console.warn(POSTGRES_MISSING)

let cluster: ThrowawayPostgres | undefined
beforeAll(async () => {
  if (havePostgres) cluster = await startPostgres()
}, 120_000) // a cluster copied from the template; initdb once per machine
afterAll(() => cluster?.dispose())

interface EngineServer extends TestServer {
  clock: { now: number }
  call: Call
  login(login: string): Promise<string>
}

const freshIp = addresses(231)

/** A server whose converted stores run on `engine` (PostgreSQL: a fresh database of the cluster). */
async function serverOn(engine: 'sqlite' | 'postgres'): Promise<EngineServer> {
  const clock = { now: Date.UTC(2026, 0, 15, 12) }
  const postgres = engine === 'postgres' ? { databaseUrl: await cluster!.createDatabase(), convertedStoresOnPostgresForTests: true } : {}
  const server = await startTestServer({ now: () => clock.now, simulators: true, ...postgres })
  const call = apiCaller(server.url, freshIp)
  return {
    ...server,
    clock,
    call,
    async login(login) {
      const res = await call('POST', 'auth/v2/login', { body: { login, password: DEMO_PASSWORD } })
      if (res.status !== 200) throw new Error(`login ${login}: ${res.status} ${JSON.stringify(res.json)}`)
      return res.json.payload.punterHash as string
    },
  }
}

describe.each([
  ['sqlite', true],
  ['postgres', havePostgres],
] as const)('the stores of the last group on %s (issue 16)', (engine, runs) => {
  let server: EngineServer
  beforeAll(async () => {
    if (runs) server = await serverOn(engine)
  }, 90_000)
  afterAll(async () => server?.dispose())

  it.runIf(runs)('readiness answers 200 with the database in use answering; metrics describe that database', async () => {
    expect(server.deps.data.engine).toBe(engine)
    expect((await rawRequest(server.port, { path: '/health/ready' })).status).toBe(200)
    const metrics = (await rawRequest(server.port, { path: '/metrics' })).body
    expect(metrics).toMatch(/^parlay_db_probe_seconds 0\.\d+/m)
    if (engine === 'postgres') {
      expect(metrics).toMatch(/^parlay_db_connections_open [1-9]\d*$/m)
      expect(metrics).toMatch(/^parlay_db_pool_idle_connections \d+$/m)
      expect(metrics).toMatch(/^parlay_db_pool_waiting_requests 0$/m)
      expect(metrics).not.toContain('parlay_db_wal_bytes')
    } else {
      expect(metrics).toMatch(/^parlay_db_connections_open 1$/m)
      expect(metrics).toMatch(/^parlay_db_wal_bytes \d+$/m)
      expect(metrics).not.toContain('parlay_db_pool_idle_connections')
    }
  })
})

describe.runIf(havePostgres)('health on PostgreSQL when the database goes away (issue 16 item 3)', () => {
  let server: EngineServer
  beforeAll(async () => {
    server = await serverOn('postgres')
  }, 90_000)
  afterAll(async () => server?.dispose())

  it('the PostgreSQL cluster stopped: readiness answers 503 NOT_READY naming the database, liveness stays 200, the metrics probe says -1; started again: ready without a restart', async () => {
    cluster!.stopServer()
    try {
      const ready = await rawRequest(server.port, { path: '/health/ready' })
      expect(ready.status).toBe(503)
      expect(ready.json()).toMatchObject({ status: 'ERROR', errorCode: 'NOT_READY', payload: { check: 'database' } })
      expect(ready.headers['retry-after']).toBe('5')
      expect((await rawRequest(server.port, { path: '/health/live' })).status).toBe(200)
      expect((await rawRequest(server.port, { path: '/metrics' })).body).toMatch(/^parlay_db_probe_seconds -1$/m)
    } finally {
      cluster!.startServer()
    }
    await expect.poll(async () => (await rawRequest(server.port, { path: '/health/ready' })).status, { timeout: 15_000 }).toBe(200)
  }, 60_000)
})
