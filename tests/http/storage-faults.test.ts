/**
 * Issue 30 item 3: every storage fault is a 503. With the database read-only, full or locked, the
 * money calls (bet placement, cash-out, deposit, game round), the ingest endpoints (replay,
 * analytics), a punter login and the admin (a draft) answer `503 STORAGE_UNAVAILABLE` with
 * Retry-After, never 500; the original error is logged with its code; and nothing of the refused
 * call remains (every table's row count and every punter's balance and ledger are what they were).
 * Once the fault is gone the same calls, with the same idempotency keys, succeed, and each punter's
 * balance moved exactly by its new ledger entries. Before, bets, deposits and replay ingest answered
 * 500: a rollback after SQLite had ended the transaction itself failed with "cannot rollback - no
 * transaction is active" and hid the storage error, and the log redacted the error's code.
 *
 * Both engines (this file runs in the PostgreSQL pass too); how each fault is made:
 * tests/support/storage-faults.ts.
 */
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '../../server/log'
import { REPLAY_CONTENT_TYPE } from '../../server/services/replay'
import { OPERATOR, readDocumentFile, signIn, type AdminClient } from './admin/support'
import { newKey, startBetsServer, type BetsServer } from './bets/support'
import { injectFault, smallDisk, storageSnapshot, type Fault } from '../support/storage-faults'

const disk = smallDisk()
if (!('dispose' in disk)) console.warn(`storage-faults: the "full" fault on SQLite is skipped: ${disk.why}`)
const lines: string[] = []
let server: BetsServer
let operator: AdminClient
let hash: string
let openBet: { betId: string; cashOut: { amount: number } }
let selection: { id: string; price: number }

beforeAll(async () => {
  // a short lock wait: a locked database answers within half a second instead of five
  server = await startBetsServer({ lockTimeoutMs: 500, log: createLogger((line) => lines.push(line), true), ...(disk.dir ? { dataDir: disk.dir } : {}) })
  operator = await signIn(server, OPERATOR)
  hash = await server.login('opened@demo.parlay.test')
  const [one, two] = await server.liveSelections(2)
  selection = two
  const placed = await server.call('POST', 'bets/place', { hash, body: { kind: 'single', selections: [{ selectionId: one.id, price: one.price }], stake: 5, idempotencyKey: newKey() } })
  openBet = placed.json.payload
}, 120_000)
afterAll(async () => {
  await server?.dispose()
  if ('dispose' in disk) disk.dispose()
})

/** The calls, each with its body (and idempotency key) fixed, so the retry after the fault is the same call. */
function calls(): Record<string, () => Promise<{ status: number; json: any; retryAfter: string | null }>> {
  const gateway = (path: string, body: unknown, withHash = true) => async () => {
    const res = await server.call('POST', path, { body, ...(withHash ? { hash } : {}) })
    return { status: res.status, json: res.json, retryAfter: res.headers.get('retry-after') }
  }
  const fetched = (path: string, init: RequestInit) => async () => {
    const res = await fetch(server.url + path, init)
    const text = await res.text()
    return { status: res.status, json: text.startsWith('{') ? JSON.parse(text) : text, retryAfter: res.headers.get('retry-after') }
  }
  const device = `device-fault-${newKey()}`
  const replay = gzipSync(JSON.stringify({ version: 1, events: [{ type: 2, timestamp: 1_768_478_400_000, data: { node: { type: 0, childNodes: [] }, initialOffset: { top: 0, left: 0 } } }] }))
  const analytics = { api_key: 'parlay-web-1', events: [{ event_type: 'screen_view', device_id: device, time: 1, session_id: 1, event_properties: { section: 'product' }, user_properties: { state: 'OPENED' } }] }
  const draft = { file: 'popups/info.json', content: JSON.stringify({ ...readDocumentFile(server, 'popups/info.json'), animation: 'slide' }, null, 2) }
  return {
    'bet placement': gateway('bets/place', { kind: 'single', selections: [{ selectionId: selection.id, price: selection.price }], stake: 2, idempotencyKey: newKey() }),
    'cash-out': gateway(`bets/${openBet.betId}/cash-out`, { amount: openBet.cashOut.amount, confirmation: 'ALWAYS' }),
    deposit: gateway('payments/deposit', { amount: 15, method: 'card' }),
    'game round': gateway('games/crash/aviator/play', { stake: 1, cashOutAt: 2, idempotencyKey: newKey() }),
    'punter login': gateway('auth/v2/login', { login: 'vip@demo.parlay.test', password: 'parlay-demo-1' }, false),
    'replay ingest': fetched(`/replay/api/1/batch?device_id=${device}&session_id=1768478400000&type=replay`, { method: 'POST', headers: { 'content-type': REPLAY_CONTENT_TYPE }, body: new Uint8Array(replay) }),
    'analytics ingest': fetched('/analytics/api/2/httpapi', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(analytics) }),
    'admin draft': async () => {
      const res = await operator.post('/admin/api/drafts', draft)
      return { status: res.status, json: res.json(), retryAfter: String(res.headers['retry-after'] ?? '') || null }
    },
  }
}

const FAULTS: Fault[] = ['read-only', 'full', 'locked']
/** The code each fault's error carries, per engine: what the log must keep. A full disk on SQLite also
 * refuses the audit anchor's file beside the database (ENOSPC), before the draft's commit. */
const CODES: Record<Fault, [string[], string[]]> = {
  'read-only': [['SQLITE_READONLY'], ['25006']],
  full: [['SQLITE_FULL', 'ENOSPC'], ['53100']],
  locked: [['SQLITE_BUSY'], ['55P03']],
}

describe('a read-only, full or locked database: every call answers 503 STORAGE_UNAVAILABLE and leaves nothing behind', () => {
  let pending: ReturnType<typeof calls>
  let start: Record<string, unknown>

  it.each(FAULTS)('%s', { timeout: 60_000 }, async (fault) => {
    if (fault === 'full' && !server.databaseUrl && !disk.dir) return
    pending ??= calls()
    start ??= await storageSnapshot(server)
    const before = await storageSnapshot(server)
    const logged = lines.length
    const clear = await injectFault(server, fault)
    const answers: Record<string, unknown> = {}
    let during: Record<string, unknown>
    try {
      for (const [name, send] of Object.entries(pending)) {
        const { status, json, retryAfter } = await send()
        answers[name] = { status, json, retryAfter: retryAfter !== null && /^\d+$/.test(retryAfter) }
      }
      during = await storageSnapshot(server) // reads work under every fault: the state the refused calls left
    } finally {
      await clear()
    }
    const refused = { status: 503, json: { status: 'ERROR', errorCode: 'STORAGE_UNAVAILABLE' }, retryAfter: true }
    expect(answers).toEqual(Object.fromEntries(Object.keys(pending).map((name) => [name, refused])))
    expect(during).toEqual(before)
    const faults = lines.slice(logged).map((line) => JSON.parse(line)).filter((line) => line.event === 'storage.unavailable')
    expect(faults.length).toBeGreaterThanOrEqual(Object.keys(pending).length)
    const codes = CODES[fault][server.databaseUrl ? 1 : 0]
    expect(faults.map((line) => line.fault)).toContain(codes[0])
    expect(faults.filter((line) => !codes.includes(line.fault))).toEqual([])
    expect(faults.every((line) => typeof line.error === 'string' && line.error.length > 0)).toBe(true)
  })

  it('once the fault is gone the same calls succeed, and every balance moved by exactly its new ledger entries', { timeout: 60_000 }, async () => {
    for (const [name, send] of Object.entries(pending)) {
      const { status, json } = await send()
      expect([name, status, json?.status ?? 'OK'], JSON.stringify(json)).toEqual([name, expect.any(Number), expect.not.stringMatching(/^ERROR$/)])
      expect(status, `${name}: ${JSON.stringify(json)}`).toBeLessThan(300)
    }
    const unexplained = (snapshot: Record<string, unknown>) => (snapshot.money as { id: number; balance_minor: number; ledger: number }[]).map((p) => [p.id, p.balance_minor - p.ledger])
    expect(unexplained(await storageSnapshot(server))).toEqual(unexplained(start))
  })
})
