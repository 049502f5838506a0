/**
 * Loss limits and removing limits (issue 34 item 6; docs/money-rules.md "Loss limits"): the net
 * loss of real money in bets and casino rounds over a rolling period; a stake that could pass a
 * limit is refused with LOSS_LIMIT_EXCEEDED; lowering applies at once, raising or removing after
 * the cooling-off of the punter's OWN jurisdiction, whatever site the request names; no limit
 * reads as none, with the jurisdiction's maximum stated apart. Amounts are the oracle, computed
 * here from the stakes and the prices (2.5), never read back from the server's own counters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newKey, startBetsServer, type BetsServer } from '../bets/support'
import { SITES } from '../../support/sites'

let server: BetsServer
beforeAll(async () => {
  server = await startBetsServer()
})
afterAll(async () => server?.dispose())

const HOUR = 3_600_000
const MINUTE = 60_000
const lossLimits = (hash: string, site?: string) => server.call('GET', 'payments/loss-limits', { hash, site })
const setLoss = (hash: string, body: unknown, site?: string) => server.call('PUT', 'payments/loss-limits', { hash, body, site })
const depositLimits = (hash: string, site?: string) => server.call('GET', 'payments/deposit-limits', { hash, site })
const setDeposit = (hash: string, body: unknown, site?: string) => server.call('PUT', 'payments/deposit-limits', { hash, body, site })
const periodOf = (answer: { json: any }, period: string) => answer.json.payload.limits.find((l: { period: string }) => l.period === period)
const bet = (hash: string, pick: { id: string; price: number }, stake: number) =>
  server.call('POST', 'bets/place', { hash, body: { kind: 'single', selections: [{ selectionId: pick.id, price: pick.price }], stake, idempotencyKey: newKey() } })
const play = (hash: string, stake: number) => server.call('POST', 'games/casino/book-of-ra/play', { hash, body: { stake, idempotencyKey: newKey() } })
const lose = (eventId: string) => server.dev('settle', { eventId, score: [0, 2] }) // the main market's first selection (home) loses
const win = (eventId: string) => server.dev('settle', { eventId, score: [2, 0] })

describe('loss limits: stakes less winnings over the period', () => {
  it('a 100 daily loss limit: 60 lost, then a 50 stake is refused (LOSS_LIMIT_EXCEEDED, 40 left), a 40 stake is taken, then 0.10 more is refused', async () => {
    const hash = await server.login('opened@demo.parlay.test')
    expect((await setLoss(hash, { daily: 100 })).json.payload.changes).toEqual({ daily: 'applied' })
    const [first, second, third] = await server.liveSelections(3)
    expect((await bet(hash, first, 60)).status).toBe(200)
    await lose(first.eventId)
    const before = await server.balance(hash)
    const refused = await bet(hash, second, 50)
    expect(refused.status).toBe(403)
    expect(refused.json).toEqual({ status: 'ERROR', errorCode: 'LOSS_LIMIT_EXCEEDED', payload: { period: 'daily', limit: 100, used: 60, available: 40, currency: 'USD' } })
    expect(await server.balance(hash)).toBe(before) // nothing debited
    expect((await server.call('GET', 'bets?status=open', { hash })).json.payload).toEqual([]) // the refused bet is not placed
    const key = newKey()
    const taken = await server.call('POST', 'bets/place', { hash, body: { kind: 'single', selections: [{ selectionId: second.id, price: second.price }], stake: 40, idempotencyKey: key } })
    expect(taken.status).toBe(200)
    expect(periodOf(await lossLimits(hash), 'daily')).toMatchObject({ amount: 100, used: 100, pending: null })
    // the same tap again answers the bet it placed, not a refusal (the stake is in the ledger once)
    const again = await server.call('POST', 'bets/place', { hash, body: { kind: 'single', selections: [{ selectionId: second.id, price: second.price }], stake: 40, idempotencyKey: key } })
    expect(again.json.payload.betId).toBe(taken.json.payload.betId)
    expect((await bet(hash, third, 0.1)).json).toMatchObject({ errorCode: 'LOSS_LIMIT_EXCEEDED', payload: { used: 100, available: 0 } })
  })

  it('a win lowers the loss: 60 lost, 20 won at 2.5 (50 back) leaves a loss of 30, so 70 more is taken and 70.01 is not', async () => {
    const hash = await server.login('vip@demo.parlay.test')
    await setLoss(hash, { weekly: 100 })
    const [lost, won, next] = await server.liveSelections(3)
    await bet(hash, lost, 60)
    await lose(lost.eventId)
    await bet(hash, won, 20)
    await win(won.eventId)
    const expectedLoss = 60 + 20 - 20 * 2.5
    expect(periodOf(await lossLimits(hash), 'weekly').used).toBe(expectedLoss)
    expect((await bet(hash, next, 70.01)).json).toMatchObject({ errorCode: 'LOSS_LIMIT_EXCEEDED', payload: { period: 'weekly', used: 30, available: 70 } })
    expect((await bet(hash, next, 70)).status).toBe(200)
  })

  it('a casino round whose stake could pass the limit is refused before it is played; losses older than the period no longer count', async () => {
    const hash = await server.login('euro@demo.parlay.test')
    await setLoss(hash, { daily: 10 })
    const [pick] = await server.liveSelections()
    await bet(hash, pick, 8)
    await lose(pick.eventId)
    const before = await server.balance(hash)
    const refused = await play(hash, 3)
    expect(refused.json).toEqual({ status: 'ERROR', errorCode: 'LOSS_LIMIT_EXCEEDED', payload: { period: 'daily', limit: 10, used: 8, available: 2, currency: 'EUR' } })
    expect(await server.balance(hash)).toBe(before)
    const round = (await play(hash, 2)).json.payload
    expect(await server.balance(hash)).toBe(Math.round((before - 2 + round.win) * 100) / 100)
    server.clock.now += 24 * HOUR
    const again = await server.login('euro@demo.parlay.test')
    expect(periodOf(await lossLimits(again), 'daily').used).toBe(0)
    expect((await play(again, 3)).status).toBe(200)
  })

  it('parallel stakes never pass a loss limit together: 6 bets of 30 at once under a 100 limit, exactly 3 are taken (90)', async () => {
    const hash = await server.login('reality@demo.parlay.test')
    await setLoss(hash, { daily: 100 })
    const [pick] = await server.liveSelections()
    const before = await server.balance(hash)
    const answers = await Promise.all(Array.from({ length: 6 }, () => bet(hash, pick, 30)))
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3)
    expect(answers.filter((a) => a.json.errorCode === 'LOSS_LIMIT_EXCEEDED')).toHaveLength(3)
    expect(await server.balance(hash)).toBe(before - 90)
    expect(periodOf(await lossLimits(hash), 'daily').used).toBe(90)
  })

  it('lowering a loss limit applies at once; raising waits the cooling-off (Curaçao 24 h)', async () => {
    const hash = await server.login('domain@demo.parlay.test')
    await setLoss(hash, { monthly: 500 })
    expect((await setLoss(hash, { monthly: 200 })).json.payload.changes).toEqual({ monthly: 'applied' })
    const raised = await setLoss(hash, { monthly: 900 })
    expect(raised.json.payload.changes).toEqual({ monthly: 'pending' })
    expect(periodOf(raised, 'monthly')).toMatchObject({ amount: 200, pending: { amount: 900, effectiveAt: new Date(server.clock.now + 24 * HOUR).toISOString() } })
  })
})

describe('removing a limit is a raise: it waits the cooling-off of the punter’s own jurisdiction', () => {
  // one test per site (each logs in three times): the list grows with the declared sites
  it.each(SITES)('a Spanish punter removes a loss limit and a deposit limit (logged in on Spain) under %s’s header: pending 72 h, still in force a minute before, gone at exactly 72 h', async (site) => {
    const hash = await server.login('spain@demo.parlay.test', 'spain')
    expect((await setLoss(hash, { daily: 100 }, site)).json.payload.changes.daily).toBe('applied')
    expect((await setDeposit(hash, { daily: 300 }, site)).json.payload.changes.daily).toBe('applied')
    const asked = server.clock.now
    const removed = await setLoss(hash, { daily: null }, site)
    expect(removed.status).toBe(200)
    expect(removed.json.payload.changes).toEqual({ daily: 'pending' })
    expect(periodOf(removed, 'daily')).toMatchObject({ amount: 100, pending: { amount: null, effectiveAt: new Date(asked + 72 * HOUR).toISOString() } })
    expect(periodOf(await setDeposit(hash, { daily: null }, site), 'daily')).toMatchObject({ amount: 300, pending: { amount: null, effectiveAt: new Date(asked + 72 * HOUR).toISOString() } })
    server.clock.now = asked + 72 * HOUR - MINUTE
    const before = await server.login('spain@demo.parlay.test', 'spain')
    expect(periodOf(await lossLimits(before, site), 'daily')).toMatchObject({ amount: 100 })
    expect(periodOf(await depositLimits(before, site), 'daily')).toMatchObject({ amount: 300 })
    server.clock.now = asked + 72 * HOUR
    const after = await server.login('spain@demo.parlay.test', 'spain')
    expect(periodOf(await lossLimits(after, site), 'daily')).toMatchObject({ amount: null, pending: null, maximum: null })
    // Spain's statutory default deposit limit is not brought back by a removal: the punter chose none
    expect(periodOf(await depositLimits(after, site), 'daily')).toMatchObject({ amount: null, pending: null })
    server.clock.now += HOUR
  })
})

describe('no limit set reads as none, with the jurisdiction’s maximum apart', () => {
  it('a fresh Curaçao punter has no deposit limit of their own (amount null) and the maximum 50,000 / 100,000 / 250,000 stated; removing a limit there still waits 24 h', async () => {
    const hash = await server.login('no-nickname@demo.parlay.test')
    const fresh = await depositLimits(hash)
    expect(fresh.json.payload.limits.map((l: { period: string; amount: unknown; maximum: unknown }) => [l.period, l.amount, l.maximum])).toEqual([
      ['daily', null, 50000],
      ['weekly', null, 100000],
      ['monthly', null, 250000],
    ])
    expect((await lossLimits(hash)).json.payload.limits.map((l: { amount: unknown; maximum: unknown }) => [l.amount, l.maximum])).toEqual([
      [null, null],
      [null, null],
      [null, null],
    ])
    await setDeposit(hash, { daily: 1000 })
    const removed = await setDeposit(hash, { daily: null })
    expect(removed.json.payload.changes).toEqual({ daily: 'pending' })
    expect(periodOf(removed, 'daily')).toMatchObject({ amount: 1000, maximum: 50000, pending: { amount: null } })
  })
})

describe('bad input', () => {
  it('is a 400 envelope naming the field, and nothing stored changes', async () => {
    const hash = await server.login('legal@demo.parlay.test')
    await setLoss(hash, { daily: 50 })
    expect((await setLoss(hash, { yearly: 5 })).json).toMatchObject({ status: 'ERROR', errorCode: 'ValidationError', payload: { field: 'yearly', code: 'unknownField' } })
    expect((await setLoss(hash, { daily: -1 })).json).toMatchObject({ status: 'ERROR', errorCode: 'ValidationError' })
    expect((await setLoss(hash, { daily: 1.005 })).json).toMatchObject({ status: 'ERROR', errorCode: 'ValidationError', payload: { field: 'daily', code: 'multipleOf' } })
    expect((await setLoss(hash, { daily: '10' })).status).toBe(400)
    expect((await setLoss(hash, {})).status).toBe(400)
    expect((await setLoss(hash, [])).status).toBe(400)
    expect((await server.call('PUT', 'payments/loss-limits', { hash, raw: '{"daily":', headers: { 'content-type': 'application/json' } })).status).toBe(400)
    expect((await server.call('GET', 'payments/loss-limits')).status).toBe(401)
    expect(periodOf(await lossLimits(hash), 'daily')).toMatchObject({ amount: 50, pending: null })
  })
})
