/**
 * Session replay and the support-staff role over HTTP (issue 18): the replay ingest takes gzip
 * batches of at most 1,000,000 bytes unpacked (spec §9) as `{version, events}` with device_id,
 * session_id and type (spec §7), refuses bad ones with a 4xx, and is off where remote config has
 * replay off; support reads events, errors, recognitions and replays (each read audited) but can
 * edit, submit, approve, publish nothing; a site's remote config can switch error reports off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { SCHEMAS_DIR, startTestServer, type TestServer } from '../../support/server'
import { OPERATOR, signIn, type AdminClient } from '../admin/support'
import { DEMO_ADMINS } from '../../../server/admin/accounts'
import { REPLAY_CONTENT_TYPE, REPLAY_PLAIN_TYPE } from '../../../server/services/replay'
import { ingestSweepOf } from '../../../server/services/ingest-sweep'

const SUPPORT = DEMO_ADMINS.find((a) => a.role === 'support')!
let server: TestServer
let operator: AdminClient
let support: AdminClient
let clock = Date.UTC(2026, 0, 15, 12, 0)

beforeAll(async () => {
  // Russia's copy of the remote config turns error reports off for that site only
  const documentsDir = join(mkdtempSync(join(tmpdir(), 'parlay-services2-')), 'schemas')
  cpSync(SCHEMAS_DIR, documentsDir, { recursive: true })
  const russia = join(documentsDir, 'jurisdictions', 'russia', 'remote-config.json')
  const config = JSON.parse(readFileSync(russia, 'utf8'))
  config.config.ERROR_REPORTING_ENABLED = false
  writeFileSync(russia, JSON.stringify(config, null, 2))
  server = await startTestServer({ documentsDir, now: () => clock })
  operator = await signIn(server, OPERATOR)
  support = await signIn(server, SUPPORT)
})
afterAll(async () => server?.dispose())

const batch = (events: unknown[]) => gzipSync(JSON.stringify({ version: 1, events }))
const snapshot = (n: number) => ({ type: 2, timestamp: 1_768_478_400_000 + n, data: { node: { type: 0, childNodes: [] }, initialOffset: { top: 0, left: 0 } } })

function postReplay(body: Buffer, query = 'device_id=device-replay-01&session_id=1768478400000&type=replay', headers: Record<string, string> = {}) {
  return fetch(`${server.url}/replay/api/1/batch?${query}`, { method: 'POST', headers: { 'content-type': REPLAY_CONTENT_TYPE, ...headers }, body: new Uint8Array(body) })
}

describe('replay ingest (spec §7: device_id, session_id, type; body version and events)', () => {
  it('a gzip batch is stored and listed in /admin as one session with its events', async () => {
    const res = await postReplay(batch([snapshot(0), { type: 3, timestamp: 1_768_478_401_000, data: { source: 2 } }]))
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ status: 'OK', payload: { events: 2 } })
    const sessions = (await operator.get('/admin/api/services/replays')).json().payload
    expect(sessions[0]).toMatchObject({ deviceId: 'device-replay-01', sessionId: 1768478400000, events: 2, batches: 1 })
    const replay = (await operator.get('/admin/api/services/replays/device-replay-01/1768478400000')).json().payload
    expect(replay.events.map((e: { type: number }) => e.type)).toEqual([2, 3])
  })

  it('a leaving page\'s last batch, sent uncompressed, is stored too', async () => {
    const plain = Buffer.from(JSON.stringify({ version: 1, events: [snapshot(5)] }))
    const res = await postReplay(plain, 'device_id=device-replay-03&session_id=3&type=replay', { 'content-type': REPLAY_PLAIN_TYPE })
    expect(res.status).toBe(200)
    const replay = (await operator.get('/admin/api/services/replays/device-replay-03/3')).json().payload
    expect(replay.events).toHaveLength(1)
  })

  it('a batch over 1,000,000 bytes unpacked answers 413; one just under is taken', async () => {
    const over = batch([{ type: 5, timestamp: 1, data: { tag: 'x', payload: 'a'.repeat(1_000_000) } }])
    expect(over.length).toBeLessThan(10_000)
    const res = await postReplay(over)
    expect(res.status).toBe(413)
    expect(await res.json()).toMatchObject({ status: 'ERROR', errorCode: 'PAYLOAD_TOO_LARGE' })
    const under = batch([{ type: 5, timestamp: 1, data: { tag: 'x', payload: 'a'.repeat(999_900) } }])
    expect((await postReplay(under, 'device_id=device-replay-02&session_id=2&type=replay')).status).toBe(200)
  })

  it('bad query, bad body, not gzip or another content type answer 4xx in the envelope, never 500', async () => {
    expect((await postReplay(batch([snapshot(0)]), 'device_id=x&session_id=1&type=replay')).status).toBe(400)
    expect((await postReplay(batch([snapshot(0)]), 'device_id=device-replay-01&session_id=1&type=other')).status).toBe(400)
    expect((await postReplay(batch([snapshot(0)]), 'device_id=device-replay-01&session_id=1')).status).toBe(400)
    expect((await postReplay(Buffer.from('plain text'))).status).toBe(400)
    expect((await postReplay(gzipSync('{"version":2,"events":[]}'))).status).toBe(400)
    expect((await postReplay(gzipSync('[1,2]'))).status).toBe(400)
    expect((await postReplay(batch([{ type: 'x', timestamp: 1 }]))).status).toBe(400)
    const json = await postReplay(Buffer.from('{}'), undefined, { 'content-type': 'application/json' })
    expect(json.status).toBe(415)
    expect(await json.json()).toMatchObject({ status: 'ERROR', errorCode: 'UNSUPPORTED_MEDIA_TYPE' })
  })

  it('a site with replay off in remote config (Russia) takes no batch', async () => {
    const res = await postReplay(batch([snapshot(0)]), undefined, { 'x-parlay-target': 'russia' })
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({ status: 'ERROR', errorCode: 'REPLAY_DISABLED' })
  })

  it('an unknown session answers 404 and a malformed one 400', async () => {
    expect((await operator.get('/admin/api/services/replays/device-nothing-1/5')).status).toBe(404)
    expect((await operator.get('/admin/api/services/replays/bad/5')).status).toBe(400)
  })
})

describe('support staff (issue 18)', () => {
  it('read events, errors, recognitions and replays, and watch a replay; every read is audited with who read it', async () => {
    for (const path of ['events', 'errors', 'recognitions', 'replays']) expect((await support.get(`/admin/api/services/${path}`)).status, path).toBe(200)
    expect((await support.get('/admin/api/services/replays/device-replay-01/1768478400000')).status).toBe(200)
    const audit = (await operator.get('/admin/api/audit?limit=50')).json().payload as Array<{ actor: string; action: string; details?: unknown }>
    const bySupport = audit.filter((e) => JSON.stringify(e).includes(SUPPORT.email)).map((e) => e.action)
    expect(bySupport).toEqual(expect.arrayContaining(['admin.analytics-read', 'admin.errors-read', 'admin.recognitions-read', 'admin.replays-read', 'admin.replay-viewed']))
  })

  it('cannot draft, submit, approve, publish, roll back, request waivers, send messages or read documents, the outbox or the audit log (403)', async () => {
    const refused = [
      await support.post('/admin/api/drafts', { file: 'screens/home.json', content: '{}' }),
      await support.post('/admin/api/versions/1/submit'),
      await support.post('/admin/api/versions/1/approve'),
      await support.post('/admin/api/versions/1/publish'),
      await support.post('/admin/api/rollback', { file: 'screens/home.json', version: 1 }),
      await support.post('/admin/api/waivers', { jurisdiction: 'spain', rule: 'x', reason: 'a reason long enough' }),
      await support.post('/admin/api/messages', {}),
      await support.get('/admin/api/documents'),
      await support.get('/admin/api/outbox?to=a@b.c'),
      await support.get('/admin/api/audit'),
      await support.post('/admin/api/studio/lint', {}),
    ]
    for (const res of refused) {
      expect(res.status).toBe(403)
      expect(res.json()).toMatchObject({ status: 'ERROR', errorCode: 'FORBIDDEN_FOR_ROLE' })
    }
  })

  it('opening /admin sends support to the services views; /admin/services shows the role', async () => {
    const main = await support.get('/admin')
    expect(main.status).toBe(303)
    expect(main.headers.location).toBe('/admin/services')
    const studio = await support.get('/admin/studio')
    expect(studio.status).toBe(303)
    expect(studio.headers.location).toBe('/admin/services')
    const page = await support.get('/admin/services')
    expect(page.status).toBe(200)
    expect(page.body).toContain('(support)')
    expect(page.body).toContain('href="#replays"')
  })
})

describe('error reporting switch (remote config ERROR_REPORTING_ENABLED)', () => {
  const envelope = [JSON.stringify({ event_id: 'b'.repeat(32) }), JSON.stringify({ type: 'event' }), JSON.stringify({ exception: { values: [{ type: 'Error', value: 'boom' }] } })].join('\n')
  const report = (site?: string) =>
    fetch(`${server.url}/errors/api/1/envelope`, { method: 'POST', headers: { 'content-type': 'application/x-sentry-envelope', ...(site ? { 'x-parlay-target': site } : {}) }, body: envelope })

  it('a site whose remote config turns error reports off refuses envelopes (403); others take them', async () => {
    const off = await report('russia')
    expect(off.status).toBe(403)
    expect(await off.json()).toMatchObject({ status: 'ERROR', errorCode: 'ERROR_REPORTING_DISABLED' })
    expect((await report()).status).toBe(200)
  })
})

describe('interaction summaries by beacon (spec §7; spec §9 click aggregation window 1 hour)', () => {
  const post = (body: unknown, query = 'device_id=device-clicks-01&session_id=11', site?: string) =>
    fetch(`${server.url}/replay/api/1/interactions?${query}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(site ? { 'x-parlay-target': site } : {}) }, body: JSON.stringify(body) })
  const window = (clicks: unknown[], start = 1_768_478_400_000, end = start + 60_000) => ({ windowStart: start, windowEnd: end, clicks })

  it('a window of tap counts is stored; support reads the most tapped elements per page', async () => {
    expect((await post(window([{ page: '/casino/lobby', target: 'game-tile', clicks: 4 }, { page: '/', target: 'header-deposit', clicks: 1 }]))).status).toBe(200)
    expect((await post(window([{ page: '/casino/lobby', target: 'game-tile', clicks: 2 }]), 'device_id=device-clicks-02&session_id=12')).status).toBe(200)
    const res = await support.get('/admin/api/services/clicks')
    expect(res.status).toBe(200)
    expect(res.json().payload.slice(0, 2)).toEqual([
      { page: '/casino/lobby', target: 'game-tile', clicks: 6, sessions: 2 },
      { page: '/', target: 'header-deposit', clicks: 1, sessions: 1 },
    ])
  })

  it('a window over an hour, an empty or unknown field, a page not starting with / answer 400; a site with replay off 403', async () => {
    const one = [{ page: '/', target: 'x', clicks: 1 }]
    expect((await post(window(one, 0, 3_600_001))).status).toBe(400)
    expect((await post(window(one, 10, 5))).status).toBe(400)
    expect((await post(window([]))).status).toBe(400)
    expect((await post({ ...window(one), text: 'hello' })).status).toBe(400)
    expect((await post(window([{ page: 'casino', target: 'x', clicks: 1 }]))).status).toBe(400)
    expect((await post(window([{ page: '/', target: 'x', clicks: 0 }]))).status).toBe(400)
    expect((await post(window(one), 'device_id=x&session_id=1')).status).toBe(400)
    const off = await post(window(one), 'device_id=device-clicks-03&session_id=13', 'russia')
    expect(off.status).toBe(403)
    expect(await off.json()).toMatchObject({ status: 'ERROR', errorCode: 'REPLAY_DISABLED' })
  })
})

describe('replay retention (decision: 30 days, storage limitation)', () => {
  it('a replay older than 30 days is no longer listed or shown, and the retention sweep deletes it', async () => {
    expect((await postReplay(batch([snapshot(9)]), 'device_id=device-replay-old&session_id=9&type=replay')).status).toBe(200)
    clock += 30 * 24 * 3600_000 + 1000
    const again = await signIn(server, OPERATOR)
    const listed = (await again.get('/admin/api/services/replays')).json().payload as Array<{ deviceId: string }>
    expect(listed.map((s) => s.deviceId)).not.toContain('device-replay-old')
    expect((await again.get('/admin/api/services/replays/device-replay-old/9')).status).toBe(404)
    await ingestSweepOf(server.deps)!.sweep()
    const left = await server.deps.data.db.selectFrom('replay_batches').select('device_id').execute()
    expect(left.map((r) => r.device_id)).not.toContain('device-replay-old')
    expect((await postReplay(batch([snapshot(10)]), 'device_id=device-replay-new&session_id=10&type=replay')).status).toBe(200)
    const sessions = (await again.get('/admin/api/services/replays')).json().payload as Array<{ deviceId: string }>
    expect(sessions.map((s) => s.deviceId)).toEqual(['device-replay-new'])
  })
})
