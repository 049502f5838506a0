/**
 * The small stores of issue 16's last group (messages, regulation, engagement and promotions,
 * analytics/errors/replays, health and metrics probes) run the same rules on both engines: SQLite
 * (no DATABASE_URL) and a throw-away PostgreSQL cluster (tests/support/postgres.ts). One rule per store group, the one that matters when several instances share a
 * database; the full HTTP suites of each store also run with PARLAY_TEST_DATABASE=postgres.
 */
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPLAY_CONTENT_TYPE } from '../../server/services/replay'
import { OPERATOR, signIn } from './admin/support'
import { addresses, apiCaller, DEMO_PASSWORD, type Call } from '../support/api'
import { engines, type Engine } from '../support/postgres'
import { rawRequest, startTestServer, type TestServer } from '../support/server'

const { havePostgres, each: ENGINES, cluster, on: onEngine } = engines()

interface EngineServer extends TestServer {
  clock: { now: number }
  call: Call
  login(login: string): Promise<string>
}

const freshIp = addresses(231)

/** A server whose converted stores run on `engine` (PostgreSQL: a fresh database of the cluster). */
async function serverOn(engine: Engine): Promise<EngineServer> {
  const clock = { now: Date.UTC(2026, 0, 15, 12) }
  const server = await startTestServer({ now: () => clock.now, simulators: true, ...(await onEngine(engine)) })
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

describe.each(ENGINES)('the stores of the last group on %s (issue 16)', (engine, runs) => {
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

  it.runIf(runs)('a message is read once: marked read from two devices at once, it is counted once and the unread count falls by one', async () => {
    const hash = await server.login('opened@demo.parlay.test')
    const before = (await server.call('GET', 'punter/message/inbox-statistics', { hash })).json.payload
    expect(before).toEqual({ totalMessagesCount: 23, unreadMessagesCount: 3 })
    const page = (await server.call('GET', 'punter/message/inbox-page?pageSize=1', { hash })).json.payload
    const id = page.content[0].punterMessageId as number
    const marks = await Promise.all([1, 2].map(() => server.call('PUT', 'punter/message/mark-read/web', { hash, body: { ids: [id] } })))
    expect(marks.map((m) => m.json.payload.marked).sort()).toEqual([0, 1])
    expect((await server.call('GET', 'punter/message/inbox-statistics', { hash })).json.payload).toEqual({ totalMessagesCount: 23, unreadMessagesCount: 2 })
    expect((await server.call('GET', 'heartbeat', { hash })).json.payload.inboxStatistics).toEqual({ totalMessagesCount: 23, unreadMessagesCount: 2 })
  })

  it.runIf(runs)('a replay batch is stored and listed: two batches of one session make one session of 3 events, replayed in order', async () => {
    const batch = (types: number[]) => gzipSync(JSON.stringify({ version: 1, events: types.map((type, n) => ({ type, timestamp: server.clock.now + n, data: {} })) }))
    const post = (body: Buffer) =>
      fetch(`${server.url}/replay/api/1/batch?device_id=device-engines-01&session_id=7&type=replay`, { method: 'POST', headers: { 'content-type': REPLAY_CONTENT_TYPE }, body: new Uint8Array(body) })
    expect((await post(batch([4, 2]))).status).toBe(200)
    expect((await post(batch([3]))).status).toBe(200)
    const operator = await signIn(server, OPERATOR)
    const sessions = (await operator.get('/admin/api/services/replays')).json().payload
    expect(sessions.find((s: { deviceId: string }) => s.deviceId === 'device-engines-01')).toMatchObject({ sessionId: 7, batches: 2, events: 3 })
    const replay = (await operator.get('/admin/api/services/replays/device-engines-01/7')).json().payload
    expect(replay.events.map((e: { type: number }) => e.type)).toEqual([4, 2, 3])
  })

  it.runIf(runs)('a quiz answer counts once: two answers sent at once, one is taken and the other refused QUIZ_ALREADY_ANSWERED; its result stays pending until the event is settled', async () => {
    const hash = await server.login('vip@demo.parlay.test')
    const answers = await Promise.all(['home', 'away'].map((answerId) => server.call('POST', 'bonus/quiz/punter/answer', { hash, body: { quizId: 'derby-winner', answerId } })))
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409])
    expect(answers.find((a) => a.status === 409)!.json.errorCode).toBe('QUIZ_ALREADY_ANSWERED')
    const taken = answers.find((a) => a.status === 200)!.json.payload.answerId
    const derby = ((await server.call('GET', 'bonus/quiz/punter/active', { hash })).json.payload as { id: string; answered: unknown }[]).find((q) => q.id === 'derby-winner')
    expect(derby?.answered).toEqual({ answerId: taken, result: 'pending' })
    expect((await server.call('GET', 'bonus/quiz/punter/quiz-account', { hash })).json.payload.availableTickets).toBe(0)
  })

  it.runIf(runs)('a promo code is redeemed once per punter: sent twice at once, one is taken and the campaign shows the punter taking part', async () => {
    const hash = await server.login('10000001')
    const inputs = await Promise.all([1, 2].map(() => server.call('POST', 'bonus/punter/promo-code/input', { hash, body: { promoCode: 'casino25' } })))
    expect(inputs.map((r) => r.status).sort()).toEqual([200, 409])
    expect(inputs.find((r) => r.status !== 200)!.json.errorCode).toBe('PROMO_CODE_ALREADY_USED')
    const campaigns = (await server.call('GET', 'bonus/ticket/active-campaigns', { hash })).json.payload as { id: string; participating: boolean }[]
    expect(campaigns[0]).toMatchObject({ id: 'casino-welcome-package', participating: true })
    expect(campaigns.filter((c) => c.participating)).toHaveLength(1)
  })

  it.runIf(runs)('the loyalty rules once accepted stay accepted, and the rest of the loyalty account is unchanged', async () => {
    const hash = await server.login('vip@demo.parlay.test')
    const before = (await server.call('GET', 'loyalty/account', { hash })).json.payload
    const accepted = (await server.call('POST', 'loyalty/rules/accept', { hash })).json.payload
    expect(accepted).toEqual({ ...before, needRequestRulesAcceptance: false })
    expect((await server.call('GET', 'loyalty/account', { hash })).json.payload).toEqual(accepted)
  })
})

describe.runIf(havePostgres)('health on PostgreSQL when the database goes away (issue 16 item 3)', () => {
  let server: EngineServer
  beforeAll(async () => {
    server = await serverOn('postgres')
  }, 90_000)
  afterAll(async () => server?.dispose())

  it('the PostgreSQL cluster stopped: readiness answers 503 NOT_READY naming the database, liveness stays 200, the metrics probe says -1; started again: ready without a restart', async () => {
    cluster().stopServer()
    try {
      const ready = await rawRequest(server.port, { path: '/health/ready' })
      expect(ready.status).toBe(503)
      expect(ready.json()).toMatchObject({ status: 'ERROR', errorCode: 'NOT_READY', payload: { check: 'database' } })
      expect(ready.headers['retry-after']).toBe('5')
      expect((await rawRequest(server.port, { path: '/health/live' })).status).toBe(200)
      expect((await rawRequest(server.port, { path: '/metrics' })).body).toMatch(/^parlay_db_probe_seconds -1$/m)
    } finally {
      cluster().startServer()
    }
    await expect.poll(async () => (await rawRequest(server.port, { path: '/health/ready' })).status, { timeout: 15_000 }).toBe(200)
  }, 60_000)
})
