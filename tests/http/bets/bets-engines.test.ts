/**
 * Bets on the query layer (issue 16) keep their money rules on both engines: SQLite (one server)
 * and PostgreSQL, where two instances share one database (the balance and its ledger are the
 * punters store's, in that database too) and requests alternate between them as behind a
 * load balancer. What must hold: one idempotency key placed on both instances at once is one bet
 * and one debit; a cash-out asked on both at once pays once; a result settled by both instances'
 * feeds credits once; and what a crash leaves between a bet's two steps (written but not debited,
 * closed but not credited) is finished by the sweep, once.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PENDING_BET_GRACE_MS, sweep } from '../../../server/bets/settlement'
import { closeBet, findBet, insertPendingBet } from '../../../server/bets/store'
import { findPunterByLogin } from '../../../server/punters/repository'
import { engines, type Pair } from '../../support/postgres'
import { newKey, startBetsServer, type BetsServer } from './support'

const { each: ENGINES, pair } = engines()

describe.each(ENGINES)('bets on %s (two instances on PostgreSQL)', (engine, runs) => {
  let a: BetsServer
  let b: BetsServer
  let servers: Pair<BetsServer> | undefined
  // both instances open one SQLite file too: the balance and its ledger are still the punters store's
  const dataDir = mkdtempSync(join(tmpdir(), 'parlay-bets-two-'))
  beforeAll(async () => {
    if (!runs) return
    servers = await pair(engine, (on) => startBetsServer({ ...on, dataDir }))
    a = servers.a
    b = servers.b
  }, 120_000)
  afterAll(async () => {
    await servers?.dispose()
    rmSync(dataDir, { recursive: true, force: true })
  })

  /** A live selection priced 2.5 and open on every instance's feed (each instance runs its own). */
  async function pick() {
    const [selection] = await a.liveSelections()
    if (b !== a) {
      await b.dev('hold', { eventId: selection.eventId, held: false })
      await b.dev('price', { selectionId: selection.id, price: selection.price })
    }
    return selection
  }
  const place = (server: BetsServer, hash: string, selection: { id: string; price: number }, stake: number, idempotencyKey: string) =>
    server.call('POST', 'bets/place', { hash, body: { kind: 'single', selections: [{ selectionId: selection.id, price: selection.price }], stake, idempotencyKey } })

  it.runIf(runs)('one idempotency key placed 6 times at once, alternating between the instances: one bet, the stake debited once', async () => {
    expect(a.deps.data.engine).toBe(engine)
    const hash = await a.login('opened@demo.parlay.test')
    const selection = await pick()
    const before = await a.balance(hash)
    const key = newKey()
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => place(i % 2 ? b : a, hash, selection, 3, key)))
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200))
    expect(new Set(answers.map((answer) => answer.json.payload.betId)).size).toBe(1)
    for (const server of servers!.servers) expect(await server.balance(hash)).toBe(before - 3)
    const open = (await b.call('GET', 'bets/open', { hash })).json.payload as { betId: string; status: string }[]
    expect(open.filter((bet) => bet.betId === answers[0].json.payload.betId)).toEqual([expect.objectContaining({ status: 'open' })])
  })

  it.runIf(runs)('a cash-out asked on both instances at once pays once: one ACCEPTED, the other BET_CLOSED', async () => {
    const hash = await a.login('vip@demo.parlay.test')
    const selection = await pick()
    const bet = (await place(a, hash, selection, 4, newKey())).json.payload
    const before = await a.balance(hash)
    const offer = bet.cashOut.amount as number
    const answers = await Promise.all([a, b, a, b].map((server) => server.call('POST', `bets/${bet.betId}/cash-out`, { hash, body: { amount: offer, confirmation: 'ALWAYS' } })))
    const outcomes = answers.map((answer) => answer.json.errorCode ?? answer.json.payload.status).sort()
    expect(outcomes).toEqual(['ACCEPTED', 'BET_CLOSED', 'BET_CLOSED', 'BET_CLOSED'])
    expect(await b.balance(hash)).toBe(Math.round((before + offer) * 100) / 100)
    expect((await b.call('GET', `bets/${bet.betId}`, { hash })).json.payload).toMatchObject({ status: 'cashed_out', payout: offer })
  })

  it.runIf(runs)('an event settled by both instances’ feeds at once credits the win once', async () => {
    const hash = await a.login('domain@demo.parlay.test')
    const selection = await pick()
    const bet = (await place(b, hash, selection, 2, newKey())).json.payload
    const before = await a.balance(hash)
    await Promise.all(servers!.servers.map((server) => server.dev('settle', { eventId: selection.eventId, score: [2, 0] }))) // home wins
    expect((await a.call('GET', `bets/${bet.betId}`, { hash })).json.payload).toMatchObject({ status: 'won', payout: 2 * selection.price })
    expect(await a.balance(hash)).toBe(Math.round((before + 2 * selection.price) * 100) / 100)
  })

  it.runIf(runs)('a crash between the steps loses nothing: a bet written but not debited is staked and opened by the sweep, a bet closed but not credited is credited by its reference, each once', async () => {
    const hash = await a.login('opened@demo.parlay.test')
    const punter = (await findPunterByLogin(a.deps.data, 'curacao', 'email', 'opened@demo.parlay.test'))!
    const selection = await pick()
    const before = await a.balance(hash)
    const now = a.clock.now
    // the request that wrote this bet ended before its debit (a crash): not listed, not settled
    const written = await insertPendingBet(a.deps.data, { punterId: punter.id, idempotencyKey: newKey(), kind: 'single', stakeMinor: 300, currency: punter.currency, price: selection.price, potentialWinMinor: Math.floor(300 * selection.price), legs: [{ selectionId: selection.id, eventId: selection.eventId, price: selection.price, description: 'crashed' }] }, now)
    expect((await a.call('GET', 'bets/open', { hash })).json.payload.map((bet: { betId: string }) => bet.betId)).not.toContain(written.id)
    await sweep(b.deps, now + PENDING_BET_GRACE_MS - 1)
    expect((await findBet(b.deps.data.db, written.id))!.status).toBe('pending') // its own request may still finish it
    await Promise.all(servers!.servers.map((server) => sweep(server.deps, now + PENDING_BET_GRACE_MS + 1)))
    expect((await findBet(a.deps.data.db, written.id))!.status).toBe('open')
    expect(await a.balance(hash)).toBe(before - 3)

    // closed (claimed) by one instance, which then crashed before crediting the win
    expect(await closeBet(a.deps.data.db, written.id, 'won', 750, now)).toBe(true)
    expect(await a.balance(hash)).toBe(before - 3)
    await Promise.all(servers!.servers.map((server) => sweep(server.deps, now)))
    await sweep(a.deps, now)
    expect(await a.balance(hash)).toBe(Math.round((before - 3 + 7.5) * 100) / 100)
    expect(await findBet(b.deps.data.db, written.id)).toMatchObject({ status: 'won', payoutMinor: 750, paidAt: now })
  })
})
