/**
 * Money is exact and bounded (issue 28 item 2; docs/money-rules.md): the stake is read exactly in
 * minor units; the potential win is computed exactly and must fit the jurisdiction's maximum
 * payout per bet and, with the punter's bets of the last 24 hours, its maximum daily payout — all
 * checked before the bet is accepted; what a bet shows is what is stored, debited and paid.
 * Curaçao's numbers (stake 0.10–10,000, 250,000 per bet, 500,000 a day) are read from its document.
 */
import fc from 'fast-check'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findBet } from '../../../server/bets/store'
import { SCHEMAS_DIR } from '../../support/server'
import { newKey, startBetsServer, type BetsServer } from './support'

const curacao = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'jurisdictions', 'curacao', 'jurisdiction.json'), 'utf8'))
const russia = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'jurisdictions', 'russia', 'jurisdiction.json'), 'utf8'))

let server: BetsServer
let legs: { id: string; price: number; eventId: string }[]

/** The first selection of `count` pre-match events' main markets (a 20-leg accumulator needs 20 events). */
async function prematchSelections(count: number) {
  const line = (await server.call('GET', '/api/content/line?section=sport&state=prematch')).json.payload as { id: string; main: { selections: { id: string; price: number }[] } | null }[]
  const events = line.filter((e) => e.main).slice(0, count)
  expect(events).toHaveLength(count)
  return events.map((e) => ({ id: e.main!.selections[0].id, price: e.main!.selections[0].price, eventId: e.id }))
}

beforeAll(async () => {
  server = await startBetsServer()
  legs = await prematchSelections(20)
}, 120_000)
afterAll(async () => server?.dispose())

/** Sets the first `prices.length` legs' prices; answers the picks at those prices. */
async function priced(prices: number[]) {
  for (const [i, price] of prices.entries()) await server.dev('price', { selectionId: legs[i].id, price })
  return prices.map((price, i) => ({ selectionId: legs[i].id, price }))
}
const place = (hash: string, selections: { selectionId: string; price: number }[], stake: number) =>
  server.call('POST', 'bets/place', { hash, body: { kind: selections.length === 1 ? 'single' : 'accumulator', selections, stake, idempotencyKey: newKey() } })

describe("bets are bounded by the punter's jurisdiction's payout limits", () => {
  it('a 20-leg accumulator at stake 10,000 (potential win about 1.36e23) is refused with PAYOUT_TOO_HIGH; nothing is debited or stored', async () => {
    const hash = await server.login('vip@demo.parlay.test')
    const before = await server.balance(hash)
    const refused = await place(hash, await priced(Array.from({ length: 20 }, () => 9.05)), 10_000)
    expect(refused.status).toBe(400)
    expect(refused.json).toEqual({ status: 'ERROR', errorCode: 'PAYOUT_TOO_HIGH', payload: { limit: curacao.betting.maximumPayout, currency: 'USD' } })
    expect(await server.balance(hash)).toBe(before)
    expect((await server.call('GET', 'bets/open', { hash })).json.payload).toEqual([])
  })

  it('a potential win of exactly the maximum payout is taken; a cent more is refused', async () => {
    const hash = await server.login('vip@demo.parlay.test')
    const selections = await priced([10, 10, 10])
    expect((await place(hash, selections, 250.01)).json).toMatchObject({ errorCode: 'PAYOUT_TOO_HIGH' })
    const taken = await place(hash, selections, 250)
    expect(taken.json.payload).toMatchObject({ stake: 250, potentialWin: 250_000, currency: 'USD' })
  })

  it('the potential wins of the last 24 hours are held to the daily maximum: of 10 parallel bets of 100,000 after 250,000, exactly 2 are taken', async () => {
    const hash = await server.login('vip@demo.parlay.test')
    expect(curacao.betting.maximumDailyPayout).toBe(500_000)
    const selections = await priced([10, 10, 10])
    const answers = await Promise.all(Array.from({ length: 10 }, () => place(hash, selections, 100)))
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2)
    for (const refused of answers.filter((a) => a.status !== 200)) expect(refused.json).toMatchObject({ errorCode: 'DAILY_PAYOUT_LIMIT_EXCEED', payload: { limit: 500_000, currency: 'USD' } })
    const last = await place(hash, selections, 50.01)
    expect(last.json).toMatchObject({ errorCode: 'DAILY_PAYOUT_LIMIT_EXCEED', payload: { available: 50_000 } })
    expect((await place(hash, selections, 50)).status).toBe(200)
  })

  it('what a winning accumulator shows as its potential win is what it pays, to the cent (33.33 at 1.01 × 1.37 × 2.99 = 137.89)', async () => {
    const hash = await server.login('opened@demo.parlay.test')
    const live = await server.liveSelections(3)
    const selections = []
    for (const [i, price] of [1.01, 1.37, 2.99].entries()) selections.push({ selectionId: live[i].id, price: (await server.dev('price', { selectionId: live[i].id, price })).payload.selections[0].price as number })
    expect(selections.map((x) => x.price)).toEqual([1.01, 1.37, 2.99])
    const placed = await place(hash, selections, 33.33)
    expect(placed.json.payload).toMatchObject({ stake: 33.33, potentialWin: 137.89 })
    const afterStake = placed.json.payload.balance
    for (const leg of live) await server.dev('settle', { eventId: leg.eventId, score: [2, 0] })
    const settled = (await server.call('GET', `bets/${placed.json.payload.betId}`, { hash })).json.payload
    expect(settled).toMatchObject({ status: 'won', payout: 137.89, potentialWin: 137.89 })
    expect(await server.balance(hash)).toBe(Math.round((afterStake + 137.89) * 100) / 100)
  })
})

describe('property: no accepted bet overflows or rounds to another amount than the punter sent and was shown', () => {
  it('random stakes, prices and leg counts on a Russian account: each answer is the one the rules predict, and every accepted bet is stored, debited and shown exactly', async () => {
    const hash = await server.login('russia@demo.parlay.test', 'russia')
    // money to bet with: a deposit of 500,000 RUB through the provider's pages
    const started = (await server.call('POST', 'payments/deposit', { hash, body: { amount: 500_000, method: 'card' } })).json.payload
    await fetch(`${server.url}/dev/payments/checkout`, { method: 'POST', body: new URLSearchParams({ paymentId: started.paymentId, card: '4242424242424242', action: 'pay' }), redirect: 'manual' })
    await fetch(`${server.url}/dev/payments/3ds`, { method: 'POST', body: new URLSearchParams({ paymentId: started.paymentId, action: 'approve' }), redirect: 'manual' })
    await server.call('POST', 'payments/deposit/confirm', { hash, body: { paymentId: started.paymentId } })
    const { stake: bounds, maximumPayout, maximumDailyPayout } = russia.betting
    let balanceMinor = Math.round((await server.balance(hash)) * 100)
    let dailyMinor = 0
    const stakes = fc.oneof(
      { arbitrary: fc.integer({ min: 1, max: 5_000_000 }).map((m) => m / 100), weight: 6 }, // to the kopeck
      { arbitrary: fc.integer({ min: 1, max: 200_000 }).map((m) => m / 1000), weight: 1 }, // a decimal too many (most)
      { arbitrary: fc.constantFrom(9.99, 10, 600_000, 600_000.01), weight: 1 }, // the stake range's edges
    )
    const price = fc.oneof({ arbitrary: fc.integer({ min: 101, max: 250 }), weight: 5 }, { arbitrary: fc.integer({ min: 101, max: 5000 }), weight: 1 }).map((h) => h / 100)
    const prices = fc.array(price, { minLength: 1, maxLength: 20 })
    await fc.assert(
      fc.asyncProperty(stakes, prices, async (stake, legPrices) => {
        const answer = await place(hash, await priced(legPrices), stake)
        // the oracle: the rules in their order, in BigInt from the decimal digits
        const stakeMinor = Math.round(stake * 1000) % 10 === 0 ? Math.round(stake * 100) : undefined
        const potential = stakeMinor === undefined ? 0n : legPrices.reduce((p, price) => p * BigInt(Math.round(price * 100)), BigInt(stakeMinor)) / 100n ** BigInt(legPrices.length)
        const expected =
          stakeMinor === undefined ? 'ValidationError'
          : stakeMinor < bounds.minimum * 100 ? 'STAKE_TOO_LOW'
          : stakeMinor > bounds.maximum * 100 ? 'STAKE_TOO_HIGH'
          : potential > BigInt(maximumPayout * 100) ? 'PAYOUT_TOO_HIGH'
          : dailyMinor + Number(potential) > maximumDailyPayout * 100 ? 'DAILY_PAYOUT_LIMIT_EXCEED'
          : stakeMinor > balanceMinor ? 'INSUFFICIENT_FUNDS'
          : 'OK'
        expect(answer.json.errorCode ?? 'OK', JSON.stringify({ stake, legPrices, answer: answer.json })).toBe(expected)
        if (expected !== 'OK') return
        const bet = (await findBet(server.deps.data.db, answer.json.payload.betId))!
        expect(bet.stakeMinor).toBe(stakeMinor)
        expect(bet.potentialWinMinor).toBe(Number(potential))
        expect(Number.isSafeInteger(bet.potentialWinMinor)).toBe(true)
        expect(answer.json.payload.stake).toBe(stake)
        expect(answer.json.payload.potentialWin).toBe(Number(potential) / 100)
        balanceMinor -= stakeMinor!
        dailyMinor += Number(potential)
        expect(Math.round(answer.json.payload.balance * 100)).toBe(balanceMinor)
      }),
      { numRuns: 80 },
    )
  }, 300_000)
})
