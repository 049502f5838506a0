/**
 * Bets survive a server restart (issue 14 "Done when"): a bet placed before a restart is still open
 * after it, and settles (credited once) when the restarted feed finishes its event — also when the
 * restart is hours later and the feed lays out a new tree (the earlier hour's tree is replayed).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { GATE, DEMO_PASSWORD } from '../payments/support'
import { startTestServer, type TestServer } from '../../support/server'
import { createFeed } from '../../../server/feed'

/**
 * Each test has its own data directory and its own servers: under heavy load a test that times out
 * goes on running in the background, and with one shared `server` and data directory its late
 * `dispose()` closed the NEXT test's server (the next tests failed with "other side closed") and
 * its server wrote into the next test's database. Now a straggler can only touch its own.
 */
interface Restartable {
  server?: TestServer
  dataDir: string
  clock: { now: number }
}
const running = new Set<Restartable>()
afterEach(async () => {
  for (const run of running) {
    await run.server?.dispose().catch(() => undefined)
    rmSync(run.dataDir, { recursive: true, force: true })
  }
  running.clear()
})

function restartable(): Restartable {
  const run: Restartable = { dataDir: mkdtempSync(join(tmpdir(), 'parlay-bets-restart-')), clock: { now: Date.UTC(2026, 0, 15, 12, 30) } }
  running.add(run)
  return run
}

/** Stops the run's server (a restart's first half: its clock may then move). */
async function stop(run: Restartable): Promise<void> {
  const server = run.server
  run.server = undefined
  await server?.dispose()
}

/** Starts the run's server on its data directory. */
async function start(run: Restartable): Promise<void> {
  const server = await startTestServer({ now: () => run.clock.now, development: true, dataDir: run.dataDir })
  run.server = server
  // a test that already ended (timed out) leaves no server behind
  if (!running.has(run)) await stop(run)
}

function caller(run: Restartable) {
  const call = async (method: string, path: string, body?: unknown, hash?: string) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (hash) headers['punter-session-hash'] = hash
    const res = await fetch(run.server!.url + (path.startsWith('/') ? path : GATE + path), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    return res.json()
  }
  const login = async () => (await call('POST', 'auth/v2/login', { login: 'opened@demo.parlay.test', password: DEMO_PASSWORD })).payload.punterHash as string
  return { call, login }
}

it('a bet placed before a restart is open after it and settles (credited once) when the restarted feed finishes its event', async () => {
  const run = restartable()
  const { call, login } = caller(run)
  const clock = run.clock
  await start(run)
  let hash = await login()
  const [event] = (await call('GET', '/api/content/line?section=sport&state=live')).payload
  const selection = event.main.selections[0]
  await call('POST', '/api/dev/feed/hold', { eventId: event.id, held: false })
  const bet = (await call('POST', 'bets/place', { kind: 'single', selections: [{ selectionId: selection.id, price: selection.price }], stake: 2, idempotencyKey: 'restart-bet-1' }, hash)).payload
  expect(bet.status).toBe('open')
  await stop(run)

  clock.now += 60_000
  await start(run)
  hash = await login()
  expect((await call('GET', `bets/${bet.betId}`, undefined, hash)).payload).toMatchObject({ status: 'open', stake: 2, selections: [{ selectionId: selection.id }] })
  const before = (await call('GET', 'heartbeat', undefined, hash)).payload.balanceInfo.mainBalance
  await call('POST', '/api/dev/feed/settle', { eventId: event.id, score: [1, 0] })
  const settled = (await call('GET', `bets/${bet.betId}`, undefined, hash)).payload
  expect(settled).toMatchObject({ status: 'won', payout: Math.round(200 * bet.price) / 100 })
  expect((await call('GET', 'heartbeat', undefined, hash)).payload.balanceInfo.mainBalance).toBeCloseTo(before + settled.payout, 2)
}, 60_000) // two server starts

it('a bet on a match of an earlier hour’s tree (restarted hours later, a new tree) settles by that match’s result once it has ended, credited once', async () => {
  const run = restartable()
  const { call, login } = caller(run)
  const clock = run.clock
  await start(run)
  let hash = await login()
  const [event] = (await call('GET', '/api/content/line?section=sport&state=live')).payload
  const selection = event.main.selections[0]
  const bet = (await call('POST', 'bets/place', { kind: 'single', selections: [{ selectionId: selection.id, price: selection.price }], stake: 2, idempotencyKey: 'restart-bet-2' }, hash)).payload
  expect(bet.status).toBe('open')
  const placedAt = clock.now
  await stop(run)

  // the server is down for six hours: the restarted feed lays out a new tree, the bet's match is gone from it
  clock.now = placedAt + 6 * 3_600_000
  await start(run)
  hash = await login()
  const line = (await call('GET', '/api/content/line?section=sport&state=live')).payload as { id: string }[]
  expect(line.map((e) => e.id)).not.toContain(event.id)

  // the match, replayed from its tree's hour as it would have gone on, has ended long since
  const replay = createFeed({ seed: 14, now: () => Math.floor(placedAt / 3_600_000) * 3_600_000 })
  let result: string | undefined
  replay.subscribe((updates) => {
    for (const u of updates) for (const s of u.selections ?? []) if (s.id === selection.id && s.result) result = s.result
  })
  replay.advanceTo(clock.now, { everyTick: true, only: new Set([event.id]) })
  expect(result).toBeDefined()
  const settled = (await call('GET', `bets/${bet.betId}`, undefined, hash)).payload
  expect(settled.status).toBe(result === 'WIN' ? 'won' : result === 'VOID' ? 'void' : 'lost')

  // a later look changes nothing: credited once
  const balance = (await call('GET', 'heartbeat', undefined, hash)).payload.balanceInfo.mainBalance
  clock.now += 5 * 60_000
  await call('GET', '/api/content/line?section=sport&state=live')
  expect((await call('GET', 'heartbeat', undefined, hash)).payload.balanceInfo.mainBalance).toBe(balance)
}, 60_000)

it('a delayed cash-out survives a restart within its delay: the next ask is decided when it was due, not after a new wait; a reloaded page gets the pending request back', async () => {
  const run = restartable()
  const { call, login } = caller(run)
  const clock = run.clock
  await start(run)
  let hash = await login()
  const live = (await call('GET', '/api/content/line?section=sport&state=live')).payload as { id: string; main: { selections: { id: string; price: number; status: string }[] } }[]
  const event = live.find((e) => e.main.selections.every((s) => s.status === 'OPEN'))!
  const selection = event.main.selections[0]
  const bet = (await call('POST', 'bets/place', { kind: 'single', selections: [{ selectionId: selection.id, price: selection.price }], stake: 5, idempotencyKey: 'restart-cash-out' }, hash)).payload
  const first = (await call('POST', `bets/${bet.betId}/cash-out`, { amount: bet.cashOut.amount, confirmation: 'ALWAYS', delay: true }, hash)).payload
  expect(first).toMatchObject({ status: 'PENDING', retryAfterMs: 3000 })
  await stop(run)

  clock.now += 1000
  await start(run)
  hash = await login()
  const resumed = (await call('POST', `bets/${bet.betId}/cash-out`, { amount: bet.cashOut.amount, confirmation: 'ALWAYS', delay: true, requestId: first.requestId }, hash)).payload
  expect(resumed).toEqual({ status: 'PENDING', requestId: first.requestId, retryAfterMs: 2000 })
  const reloaded = (await call('POST', `bets/${bet.betId}/cash-out`, { amount: bet.cashOut.amount, confirmation: 'ALWAYS', delay: true }, hash)).payload
  expect(reloaded).toEqual({ status: 'PENDING', requestId: first.requestId, retryAfterMs: 2000 })

  clock.now += 2000
  const decided = (await call('POST', `bets/${bet.betId}/cash-out`, { amount: bet.cashOut.amount, confirmation: 'ALWAYS', delay: true, requestId: first.requestId }, hash)).payload
  expect(decided).toMatchObject({ status: 'ACCEPTED', bet: { status: 'cashed_out' } })
}, 60_000) // two server starts
