/**
 * The services endpoints over HTTP (issue 18, spec §7): the analytics upload answers with the
 * vendor's fields (code, events_ingested, payload_size_bytes, server_upload_time, error,
 * missing_field, throttling) and classes (400, 413, 429); error envelopes and server 5xx are
 * stored; the recognition link is strict and needs a session; /admin shows events, errors,
 * recognitions and the multi-accounting flag, each read audited.
 */
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { addresses, apiCaller, type Call } from '../../support/api'
import { OPERATOR, signIn, type AdminClient } from '../admin/support'
import { startTestServer, type TestServer } from '../../support/server'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { THROTTLE_UPLOADS } from '../../../server/services/analytics'
import { recordServerError } from '../../../server/services/errors'
import { listErrors } from '../../../server/services/store'
import { openDatabase } from '../../../server/db/database'
import { migrateDatabase } from '../../../server/db/migrate'
import { openDataLayer } from '../../../server/db/data-layer'

const KEY = 'parlay-web-1'
let server: TestServer
let operator: AdminClient
const freshIp = addresses(18)

beforeAll(async () => {
  server = await startTestServer({ now: () => Date.UTC(2026, 0, 15, 12, 0) })
  operator = await signIn(server, OPERATOR)
})
afterAll(async () => server?.dispose())

/** The gateway for bare paths, a fresh client address per call (tests/support/api.ts). */
const call: Call = (method, path, options) => apiCaller(server.url, freshIp)(method, path, options)

async function login(login: string): Promise<string> {
  const res = await call('POST', 'auth/v2/login', { body: { login, password: 'parlay-demo-1' } })
  if (res.status !== 200) throw new Error(`login ${login}: ${res.status}`)
  return res.json.payload.punterHash
}

const event = (type: string, device = 'device-abc-123', section = 'product') => ({ event_type: type, device_id: device, time: 1, session_id: 1, event_properties: { section }, user_properties: { state: 'OPENED' } })
const upload = (body: unknown) => call('POST', '/analytics/api/2/httpapi', { body })

describe('analytics upload', () => {
  it('a valid batch answers 200 with code, events_ingested, payload_size_bytes and server_upload_time, and is stored', async () => {
    const res = await upload({ api_key: KEY, events: [event('screen_view'), event('popup_open')] })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ code: 200, events_ingested: 2, server_upload_time: Date.UTC(2026, 0, 15, 12, 0) })
    expect(res.json.payload_size_bytes).toBeGreaterThan(100)
    const stored = await operator.get('/admin/api/services/events?deviceId=device-abc-123')
    expect(stored.json().payload.map((e: { eventType: string }) => e.eventType)).toEqual(['popup_open', 'screen_view'])
    expect(stored.json().payload[0]).toMatchObject({ section: 'product', properties: { user: { state: 'OPENED' } } })
  })

  it('a batch without api_key, events or device_id answers 400 with error and missing_field', async () => {
    expect((await upload({ events: [event('x')] })).json).toMatchObject({ code: 400, missing_field: 'api_key' })
    expect((await upload({ api_key: KEY })).json).toMatchObject({ code: 400, missing_field: 'events' })
    const noDevice = await upload({ api_key: KEY, events: [{ event_type: 'x' }] })
    expect(noDevice.status).toBe(400)
    expect(noDevice.json).toMatchObject({ code: 400, missing_field: 'device_id', error: expect.any(String) })
  })

  it('a wrong api_key, broken JSON or a non-object body answer 400, never 500', async () => {
    expect((await upload({ api_key: 'nope', events: [event('x')] })).status).toBe(400)
    const broken = await call('POST', '/analytics/api/2/httpapi', { raw: '{"api_key":', headers: { 'content-type': 'application/json' } })
    expect(broken.status).toBe(400)
    expect(broken.json.code).toBe(400)
    expect((await upload([1, 2])).status).toBe(400)
  })

  it('a batch over the size cap answers 413 in the upload shape', async () => {
    const big = Array.from({ length: 400 }, () => event('x'.repeat(90)))
    const res = await upload({ api_key: KEY, events: big })
    expect(res.status).toBe(413)
    expect(res.json).toMatchObject({ code: 413, error: expect.any(String) })
  })

  it(`more than ${THROTTLE_UPLOADS} uploads of one device in the window answer 429 with throttling`, async () => {
    let last = await upload({ api_key: KEY, events: [event('tap', 'device-throttled')] })
    for (let i = 0; i < THROTTLE_UPLOADS; i++) last = await upload({ api_key: KEY, events: [event('tap', 'device-throttled')] })
    expect(last.status).toBe(429)
    expect(last.json).toMatchObject({ code: 429, throttling: { throttled_devices: { 'device-throttled': THROTTLE_UPLOADS } } })
  })

  it('a site whose AMPLITUDE_KEY is empty (Russia) takes no events', async () => {
    const res = await call('POST', '/analytics/api/2/httpapi', { body: { api_key: KEY, events: [event('x')] }, headers: { 'x-parlay-target': 'russia' } })
    expect(res.status).toBe(400)
  })
})

const envelope = (message: string, kind: string, file = 'http://localhost/assets/index-abc.js') =>
  [
    JSON.stringify({ event_id: 'a'.repeat(32), sent_at: '2026-01-15T12:00:00Z' }),
    JSON.stringify({ type: 'event' }),
    JSON.stringify({ release: '1.0.0', tags: { kind }, request: { url: 'http://localhost/' }, exception: { values: [{ type: 'TypeError', value: message, stacktrace: { frames: [{ filename: file, lineno: 1, colno: 20, function: 'boom' }] } }] } }),
  ].join('\n')

describe('error reporting', () => {
  it('an envelope stores a client exception with its frames; the admin error view lists it', async () => {
    const res = await call('POST', '/errors/api/1/envelope', { raw: envelope('x is not a function', 'exception'), headers: { 'content-type': 'application/x-sentry-envelope' } })
    expect(res.json).toEqual({ status: 'OK', payload: { stored: 1 } })
    const errors = (await operator.get('/admin/api/services/errors')).json().payload
    expect(errors[0]).toMatchObject({ origin: 'client', kind: 'exception', message: 'x is not a function', frames: [{ file: 'http://localhost/assets/index-abc.js', line: 1, column: 20, function: 'boom' }] })
  })

  it('a socket send error arrives as "{type} message error"', async () => {
    await call('POST', '/errors/api/1/envelope', { raw: envelope('BET message error', 'socket'), headers: { 'content-type': 'application/x-sentry-envelope' } })
    const errors = (await operator.get('/admin/api/services/errors')).json().payload
    expect(errors[0]).toMatchObject({ kind: 'socket', message: 'BET message error' })
  })

  it('a body that is not an envelope answers 400, another content type 415', async () => {
    const bad = await call('POST', '/errors/api/1/envelope', { raw: 'not json\n{}\n{}', headers: { 'content-type': 'application/x-sentry-envelope' } })
    expect(bad.status).toBe(400)
    expect(bad.json.status).toBe('ERROR')
    expect((await call('POST', '/errors/api/1/envelope', { body: { a: 1 } })).status).toBe(415)
  })
})

const link = (over: Record<string, unknown> = {}) => ({
  isMobileDevice: true,
  isMirror: false,
  algorithm: 'fingerprintjs',
  fingerprint: 'visitor0shared0001',
  operationType: 'LOGIN',
  punterHash: 'h',
  requestId: 'request-0001',
  ...over,
})

describe('recognition link', () => {
  it('needs a session (401) and refuses unknown or missing fields (400)', async () => {
    expect((await call('POST', 'punter/recognition/link', { body: link() })).status).toBe(401)
    const hash = await login('opened@demo.parlay.test')
    const extra = await call('POST', 'punter/recognition/link', { hash, body: link({ punterHash: hash, extra: 1 }) })
    expect(extra.status).toBe(400)
    expect(extra.json).toMatchObject({ status: 'ERROR', errorCode: 'ValidationError' })
    const { requestId: _omitted, ...missing } = link({ punterHash: hash })
    expect((await call('POST', 'punter/recognition/link', { hash, body: missing })).status).toBe(400)
  })

  it('one visitor id at two punters\' logins is flagged as multi-accounting in /admin; the read is audited', async () => {
    const first = await login('opened@demo.parlay.test')
    const second = await login('vip@demo.parlay.test')
    expect((await call('POST', 'punter/recognition/link', { hash: first, body: link({ punterHash: first, requestId: 'request-first' }) })).json.payload.linked).toBe(true)
    expect((await call('POST', 'punter/recognition/link', { hash: second, body: link({ punterHash: second, requestId: 'request-second' }) })).status).toBe(200)
    const view = (await operator.get('/admin/api/services/recognitions')).json().payload
    expect(view.sharedVisitors).toHaveLength(1)
    expect(view.sharedVisitors[0]).toMatchObject({ visitorId: 'visitor0shared0001' })
    expect(view.sharedVisitors[0].punterIds).toHaveLength(2)
    const audit = (await operator.get('/admin/api/audit')).json().payload as Array<{ action: string }>
    expect(audit.map((e) => e.action)).toEqual(expect.arrayContaining(['admin.recognitions-read', 'admin.analytics-read', 'admin.errors-read']))
  })

  it('a retried link (same requestId) is stored once', async () => {
    const hash = await login('zero@demo.parlay.test')
    const a = await call('POST', 'punter/recognition/link', { hash, body: link({ fingerprint: 'visitorretry00001', punterHash: hash, requestId: 'request-retry' }) })
    const b = await call('POST', 'punter/recognition/link', { hash, body: link({ fingerprint: 'visitorretry00001', punterHash: hash, requestId: 'request-retry' }) })
    expect(b.json.payload.recognitionId).toBe(a.json.payload.recognitionId)
  })
})

describe('admin services views', () => {
  it('need an admin session (401) and refuse bad queries (400)', async () => {
    expect((await call('GET', '/admin/api/services/events')).status).toBe(401)
    expect((await operator.get('/admin/api/services/events?limit=abc')).status).toBe(400)
    expect((await operator.get('/admin/api/services/events?evil=1')).status).toBe(400)
  })

  it('a read whose audit entry cannot be written is not returned: 503 STORAGE_UNAVAILABLE without the data; once the log takes entries again the read answers, audited', async () => {
    const append = vi.spyOn(server.deps.store, 'audit').mockRejectedValue(new Database.SqliteError('database is locked', 'SQLITE_BUSY'))
    try {
      for (const path of ['/admin/api/services/events', '/admin/api/services/errors', '/admin/api/outbox']) {
        const refused = await operator.get(path)
        expect(refused.status, path).toBe(503)
        expect(refused.json(), path).toEqual({ status: 'ERROR', errorCode: 'STORAGE_UNAVAILABLE' })
      }
      expect(append).toHaveBeenCalledTimes(3)
    } finally {
      append.mockRestore()
    }
    expect((await operator.get('/admin/api/services/errors')).status).toBe(200)
    const newest = (await operator.get('/admin/api/audit?limit=1')).json().payload as Array<{ action: string; actor: string }>
    expect(newest).toMatchObject([{ action: 'admin.errors-read', actor: OPERATOR.email }])
  })

  it('/admin/services sends a signed-out visitor to sign in and shows the page to an admin', async () => {
    const out = await fetch(`${server.url}/admin/services`, { redirect: 'manual' })
    expect(out.status).toBe(303)
    const page = await operator.get('/admin/services')
    expect(page.status).toBe(200)
    expect(page.body).toContain('/admin/services/static/services.js')
  })
})

describe('source maps and server errors', () => {
  it('the build\'s hidden source maps are never served; the scripts beside them are', async () => {
    const assets = join(server.documentsDir, '..', 'dist', 'assets')
    mkdirSync(assets, { recursive: true })
    writeFileSync(join(assets, 'index-test.js'), 'console.log(1)')
    writeFileSync(join(assets, 'index-test.js.map'), '{"version":3,"sources":["secret.ts"],"mappings":""}')
    expect((await fetch(`${server.url}/assets/index-test.js`)).status).toBe(200)
    const map = await fetch(`${server.url}/assets/index-test.js.map`)
    expect(map.status).toBe(404)
    expect(await map.text()).not.toContain('secret.ts')
  })

  it('a server error is stored with the request id its answer names', async () => {
    const data = openDataLayer({ sqlite: openDatabase(':memory:') })
    await migrateDatabase(data)
    const error = new Error('disk on fire')
    const requestId = recordServerError({ data, now: () => 5, documents: server.deps.documents }, { method: 'GET', path: '/x', originalUrl: '/x?y=1' } as never, error)
    await expect.poll(async () => (await listErrors(data.db, 10))[0]).toMatchObject({ origin: 'server', requestId, message: 'GET /x: disk on fire', url: '/x?y=1' })
    expect((await listErrors(data.db, 10))[0].frames.length).toBeGreaterThan(0)
  })
})
