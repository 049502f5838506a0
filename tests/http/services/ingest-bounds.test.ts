/**
 * Issue 30 item 2: the ingest is bounded and attributable. A record carries a punter only from the
 * authenticated session that sent it — a `user_id` a client names is never attributed, and a
 * guest's records are its device's, marked anonymous in support's view. Quotas per client
 * (address + device) and per site answer 429 with Retry-After until their window ends; a flood
 * cannot grow storage past the budget (the oldest rows go first: measured on the tables themselves,
 * not on the server's own count); rows past their retention are deleted by the sweep on the
 * injected clock. Runs on SQLite, and on PostgreSQL in the PostgreSQL pass.
 */
import { randomBytes } from 'node:crypto'
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_ADMINS } from '../../../server/admin/accounts'
import { ingestSweepOf } from '../../../server/services/ingest-sweep'
import { REPLAY_CONTENT_TYPE } from '../../../server/services/replay'
import { addresses, apiCaller, type Call } from '../../support/api'
import { SCHEMAS_DIR, startTestServer, type TestServer } from '../../support/server'
import { signIn, type AdminClient } from '../admin/support'

const SUPPORT = DEMO_ADMINS.find((a) => a.role === 'support')!
const DAY = 24 * 3600_000
const KEY = 'parlay-web-1'
const start = Date.UTC(2026, 5, 1, 12, 0)

/** A copy of the documents whose default remote config carries `ingest` (and Russia's `russia`). */
function documentsWith(ingest: Record<string, unknown> | undefined, russia?: Record<string, unknown>): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'parlay-ingest-')), 'schemas')
  cpSync(SCHEMAS_DIR, dir, { recursive: true })
  const edit = (file: string, value: Record<string, unknown> | undefined) => {
    if (!value) return
    const doc = JSON.parse(readFileSync(join(dir, file), 'utf8'))
    doc.config.INGEST = value
    writeFileSync(join(dir, file), JSON.stringify(doc, null, 2))
  }
  edit('remote-config/app.json', ingest)
  edit('jurisdictions/russia/remote-config.json', russia)
  return dir
}

interface Clocked {
  server: TestServer
  clock: { now: number }
  call: Call
}

async function clockedServer(documentsDir?: string): Promise<Clocked> {
  const clock = { now: start }
  const server = await startTestServer({ now: () => clock.now, ...(documentsDir ? { documentsDir } : {}) })
  return { server, clock, call: apiCaller(server.url, addresses(77)) }
}

const snapshot = (n: number, padding = '') => ({ type: 2, timestamp: start + n, data: { node: { type: 0, childNodes: [] }, padding } })
const replayBody = (n: number, padding = '') => gzipSync(JSON.stringify({ version: 1, events: [snapshot(n, padding)] }))

function postReplay(c: Clocked, device: string, session: number, body: Buffer, headers: Record<string, string> = {}, extraQuery = '') {
  return c.call('POST', `/replay/api/1/batch?device_id=${device}&session_id=${session}&type=replay${extraQuery}`, { raw: body as unknown as string, headers: { 'content-type': REPLAY_CONTENT_TYPE, ...headers } })
}

const tableRows = async (server: TestServer, table: 'replay_batches' | 'analytics_events') =>
  Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(server.deps.data.db)).rows[0].n)

describe('attribution: the punter comes from the session only', () => {
  let c: Clocked
  let support: AdminClient
  beforeAll(async () => {
    c = await clockedServer()
    support = await signIn(c.server, SUPPORT)
  }, 90_000)
  afterAll(() => c?.server.dispose())

  const loginHash = async (login: string) => (await c.call('POST', 'auth/v2/login', { body: { login, password: 'parlay-demo-1' } })).json.payload.punterHash as string
  const punterId = async (email: string) => String((await c.server.deps.data.db.selectFrom('punters').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id)

  it('a guest naming a punter (replay query user_id, analytics user_id) is stored anonymous, and support\'s view says so', async () => {
    const victim = await punterId('vip@demo.parlay.test')
    expect((await postReplay(c, 'device-forger-01', 1, replayBody(1), {}, `&user_id=${victim}`)).status).toBe(200)
    const upload = await c.call('POST', '/analytics/api/2/httpapi', { body: { api_key: KEY, events: [{ event_type: 'deposit', device_id: 'device-forger-01', user_id: victim, time: 1, session_id: 1 }] } })
    expect(upload.status).toBe(200)
    const replays = (await support.get('/admin/api/services/replays')).json().payload as Array<{ deviceId: string; userIds: string[]; anonymous: boolean }>
    expect(replays.find((r) => r.deviceId === 'device-forger-01')).toMatchObject({ userIds: [], anonymous: true })
    const events = (await support.get('/admin/api/services/events?deviceId=device-forger-01')).json().payload as Array<{ userId: string | null; anonymous: boolean }>
    expect(events).toEqual([expect.objectContaining({ userId: null, anonymous: true })])
  })

  it('a logged-in punter\'s records carry the session\'s punter, whatever user_id they name', async () => {
    const hash = await loginHash('opened@demo.parlay.test')
    const own = await punterId('opened@demo.parlay.test')
    const other = await punterId('vip@demo.parlay.test')
    expect((await postReplay(c, 'device-punter-01', 2, replayBody(2), { 'punter-session-hash': hash }, `&user_id=${other}`)).status).toBe(200)
    const body = { api_key: KEY, events: [{ event_type: 'bet', device_id: 'device-punter-01', user_id: other, time: 1, session_id: 2 }] }
    expect((await c.call('POST', '/analytics/api/2/httpapi', { body, hash })).status).toBe(200)
    const envelope = ['{}', '{"type":"event"}', JSON.stringify({ exception: { values: [{ type: 'Error', value: 'boom in a punter session' }] }, user: { id: other } })].join('\n')
    expect((await c.call('POST', '/errors/api/1/envelope', { raw: envelope, hash, headers: { 'content-type': 'application/x-sentry-envelope' } })).status).toBe(200)
    const replays = (await support.get('/admin/api/services/replays')).json().payload as Array<{ deviceId: string; userIds: string[]; anonymous: boolean }>
    expect(replays.find((r) => r.deviceId === 'device-punter-01')).toMatchObject({ userIds: [own], anonymous: false })
    const events = (await support.get('/admin/api/services/events?deviceId=device-punter-01')).json().payload as Array<{ userId: string }>
    expect(events.map((e) => e.userId)).toEqual([own])
    const errors = (await support.get('/admin/api/services/errors')).json().payload as Array<{ message: string; userId: string | null }>
    expect(errors.find((e) => e.message === 'boom in a punter session')?.userId).toBe(own)
  })

  it('the bounds (remote config INGEST) are server-only: no browser is served them', async () => {
    for (const path of ['/api/remote-config', '/api/documents/remote-config/app']) {
      const served = await c.call('GET', path)
      expect(served.status).toBe(200)
      expect(served.text).toContain('AMPLITUDE_KEY')
      expect(served.text).not.toContain('INGEST')
    }
  })

  it('retention (defaults): the sweep deletes replays past 30 days and events past 90 on the injected clock; younger rows stay', async () => {
    const before = { replays: await tableRows(c.server, 'replay_batches'), events: await tableRows(c.server, 'analytics_events') }
    expect(before.replays).toBeGreaterThan(0)
    c.clock.now = start + 30 * DAY - 1000
    expect((await postReplay(c, 'device-young-01', 3, replayBody(3))).status).toBe(200)
    const sweep = ingestSweepOf(c.server.deps)!
    c.clock.now = start + 30 * DAY + 1000
    expect((await sweep.sweep()).replays).toBe(before.replays)
    expect(await tableRows(c.server, 'replay_batches')).toBe(1)
    expect(await tableRows(c.server, 'analytics_events')).toBe(before.events)
    c.clock.now = start + 90 * DAY + 1000
    expect((await sweep.sweep()).events).toBe(before.events)
    expect(await tableRows(c.server, 'analytics_events')).toBe(0)
  })
})

describe('quotas per client and per site', () => {
  let c: Clocked
  beforeAll(async () => {
    c = await clockedServer(documentsWith({ WINDOW_SECONDS: 60, CLIENT_REQUESTS: 5, CLIENT_BYTES: 1_500_000, SITE_REQUESTS: 1000 }, { SITE_REQUESTS: 3 }))
  }, 90_000)
  afterAll(() => c?.server.dispose())

  it('past five requests of one address and device in the window: 429 with Retry-After to the window\'s end; another device is its own client; the next window takes it again', async () => {
    const ip = '10.77.200.1'
    for (let i = 0; i < 5; i++) expect((await postReplay(c, 'device-quota-01', 10, replayBody(i), { 'x-forwarded-for': ip })).status).toBe(200)
    c.clock.now += 20_000
    const refused = await postReplay(c, 'device-quota-01', 10, replayBody(6), { 'x-forwarded-for': ip })
    expect(refused.status).toBe(429)
    expect(refused.json).toMatchObject({ status: 'ERROR', errorCode: 'TOO_MANY_REQUESTS', payload: { quota: 'client' } })
    expect(Number(refused.headers.get('retry-after'))).toBe(40)
    expect((await postReplay(c, 'device-quota-02', 10, replayBody(7), { 'x-forwarded-for': ip })).status).toBe(200)
    const upload = await c.call('POST', '/analytics/api/2/httpapi', { ip, body: { api_key: KEY, events: [{ event_type: 'x', device_id: 'device-quota-01', time: 1, session_id: 1 }] } })
    expect([upload.status, upload.headers.get('retry-after')]).toEqual([429, '40'])
    c.clock.now += 40_000
    expect((await postReplay(c, 'device-quota-01', 10, replayBody(8), { 'x-forwarded-for': ip })).status).toBe(200)
  })

  it('past a client\'s bytes in the window: 429 (a refused request adds nothing)', async () => {
    const ip = '10.77.201.1'
    const big = replayBody(1, randomBytes(700_000).toString('base64').slice(0, 900_000))
    expect(big.length).toBeGreaterThan(600_000)
    expect((await postReplay(c, 'device-bytes-01', 11, big, { 'x-forwarded-for': ip })).status).toBe(200)
    expect((await postReplay(c, 'device-bytes-01', 11, big, { 'x-forwarded-for': ip })).status).toBe(200)
    expect((await postReplay(c, 'device-bytes-01', 11, big, { 'x-forwarded-for': ip })).json.payload).toEqual({ quota: 'client', retryAfterSeconds: expect.any(Number) })
  })

  it('a site past its own quota (Russia: 3 requests) refuses every client there with 429, while other sites take theirs', async () => {
    const envelope = ['{}', '{"type":"event"}', JSON.stringify({ message: 'from russia' })].join('\n')
    const report = (site: string) => c.call('POST', '/errors/api/1/envelope', { raw: envelope, site, headers: { 'content-type': 'application/x-sentry-envelope' } })
    for (let i = 0; i < 3; i++) expect((await report('russia')).status).toBe(200)
    const refused = await report('russia')
    expect([refused.status, refused.json.payload.quota]).toEqual([429, 'site'])
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await report('spain')).status).toBe(200)
  })
})

describe('the storage budget', () => {
  let c: Clocked
  const BUDGET = 1_000_000
  beforeAll(async () => {
    c = await clockedServer(documentsWith({ CLIENT_REQUESTS: 100_000, CLIENT_BYTES: 1_000_000_000, SITE_REQUESTS: 100_000, SITE_BYTES: 1_000_000_000, STORAGE_BUDGET_BYTES: BUDGET, RETENTION_DAYS: { REPLAYS: 7 } }))
  }, 90_000)
  afterAll(() => c?.server.dispose())

  /** What the tables hold, measured on them: every body's length and every row (the server's own count is not the oracle). */
  async function measured(): Promise<{ bytes: number; rows: number }> {
    const db = c.server.deps.data.db
    const replays = (await sql<{ b: number; n: number }>`select coalesce(sum(length(body) + length(device_id)), 0) as b, count(*) as n from replay_batches`.execute(db)).rows[0]
    const events = (await sql<{ b: number; n: number }>`select coalesce(sum(length(properties) + length(event_type) + length(device_id)), 0) as b, count(*) as n from analytics_events`.execute(db)).rows[0]
    return { bytes: Number(replays.b) + Number(events.b), rows: Number(replays.n) + Number(events.n) }
  }

  it('a flood of 60 incompressible batches and event uploads from loopback never holds more than the budget; the newest stay, the oldest went first', async () => {
    const sent: number[] = []
    for (let i = 0; i < 60; i++) {
      c.clock.now += 1000
      const res = await postReplay(c, `device-flood-${String(i).padStart(3, '0')}`, 100 + i, replayBody(i, randomBytes(60_000).toString('base64')), { 'x-forwarded-for': '127.0.0.1' })
      expect(res.status).toBe(200)
      sent.push(res.json.payload.stored)
      const events = Array.from({ length: 20 }, (_, k) => ({ event_type: 'flood', device_id: `device-flood-${i}`, time: k, session_id: i, event_properties: { filler: 'x'.repeat(500) } }))
      expect((await c.call('POST', '/analytics/api/2/httpapi', { ip: '127.0.0.1', body: { api_key: KEY, events } })).status).toBe(200)
      const now = await measured()
      expect(now.bytes + now.rows * 64).toBeLessThanOrEqual(BUDGET)
    }
    const kept = (await c.server.deps.data.db.selectFrom('replay_batches').select('id').orderBy('id').execute()).map((r) => Number(r.id))
    expect(kept.length).toBeGreaterThan(5)
    expect(kept.length).toBeLessThan(sent.length)
    // oldest first: what is left is the newest batches, none older than one evicted
    expect(kept).toEqual(sent.slice(-kept.length))
  }, 120_000)

  it('the retention set in remote config (replays 7 days) is what the sweep keeps', async () => {
    const rows = await tableRows(c.server, 'replay_batches')
    expect(rows).toBeGreaterThan(0)
    c.clock.now += 7 * DAY + 60_000
    expect((await ingestSweepOf(c.server.deps)!.sweep()).replays).toBe(rows)
    expect(await tableRows(c.server, 'replay_batches')).toBe(0)
  })
})
