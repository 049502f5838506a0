/**
 * Bets over HTTP (issue 14 item 5): placing debits once per idempotency key, the odds-change
 * policy, suspended selections and restricted punters refused with clear codes, settlement when
 * the feed finishes an event (credited once), open and settled bets, cash-out with the
 * confirmation type and the delay, bets kept across a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { punterEvents } from '../../../server/punters/events'
import { newKey, startBetsServer, type BetsServer } from './support'

let server: BetsServer
beforeAll(async () => {
  server = await startBetsServer()
})
afterAll(async () => server?.dispose())

const place = (hash: string, picks: { id: string; price: number }[], stake: number, key = newKey()) =>
  server.call('POST', 'bets/place', { hash, body: { kind: picks.length > 1 ? 'accumulator' : 'single', selections: picks.map((p) => ({ selectionId: p.id, price: p.price })), stake, idempotencyKey: key } })

const setMode = (hash: string, betPlacingMode: string) => server.call('PUT', 'punter/settings', { hash, body: { betPlacingMode } })

describe('placing a bet', () => {
  it('20 concurrent identical placements (one idempotency key) place ONE bet and debit the stake once', async () => {
    const hash = await server.login('opened@demo.parlay.test')
    const [pick] = await server.liveSelections()
    const before = await server.balance(hash)
    const key = newKey()
    const answers = await Promise.all(Array.from({ length: 20 }, () => place(hash, [pick], 5, key)))
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200))
    expect(new Set(answers.map((a) => a.json.payload.betId)).size).toBe(1)
    expect(await server.balance(hash)).toBe(before - 5)
    const open = (await server.call('GET', 'bets?status=open', { hash })).json.payload
    expect(open.filter((b: { betId: string }) => b.betId === answers[0].json.payload.betId)).toHaveLength(1)
    expect(answers[0].json.payload).toMatchObject({ kind: 'single', stake: 5, currency: 'USD', price: pick.price, status: 'open', potentialWin: 5 * pick.price })
  })

  it('a suspended selection is refused with SELECTION_SUSPENDED and nothing is debited', async () => {
    const hash = await server.login('opened@demo.parlay.test')
    const [pick] = await server.liveSelections()
    await server.dev('hold', { eventId: pick.eventId, held: true })
    const before = await server.balance(hash)
    const answer = await place(hash, [pick], 2)
    expect(answer.status).toBe(409)
    expect(answer.json).toMatchObject({ status: 'ERROR', errorCode: 'SELECTION_SUSPENDED', payload: { selectionIds: [pick.id] } })
    expect(await server.balance(hash)).toBe(before)
  })

  it('odds-change policy on the server: EqualsToCurrent refuses any change, GreaterOrEqualsToCurrent takes a rise but not a fall, Any takes both', async () => {
    const hash = await server.login('vip@demo.parlay.test')
    const [pick] = await server.liveSelections()
    const at = async (price: number) => (await server.dev('price', { selectionId: pick.id, price })).payload.selections[0].price as number
    await setMode(hash, 'EqualsToCurrent')
    await at(2.6)
    const equals = await place(hash, [{ id: pick.id, price: 2.5 }], 1)
    expect(equals.status).toBe(409)
    expect(equals.json).toMatchObject({ errorCode: 'ODDS_CHANGED', payload: { mode: 'EqualsToCurrent', changes: [{ selectionId: pick.id, price: 2.6, previous: 2.5 }] } })
    await setMode(hash, 'GreaterOrEqualsToCurrent')
    expect((await place(hash, [{ id: pick.id, price: 2.5 }], 1)).json.payload.price).toBe(2.6)
    await at(2.4)
    expect((await place(hash, [{ id: pick.id, price: 2.5 }], 1)).json.errorCode).toBe('ODDS_CHANGED')
    await setMode(hash, 'Any')
    expect((await place(hash, [{ id: pick.id, price: 2.5 }], 1)).json.payload.price).toBe(2.4)
  })

  it('a restricted punter (suspended) is refused with INCORRECT_PUNTER_STATE naming the restriction', async () => {
    const hash = await server.login('suspended@demo.parlay.test').catch(() => '')
    const [pick] = await server.liveSelections()
    if (!hash) throw new Error('the suspended demo punter should log in')
    const answer = await place(hash, [pick], 1)
    expect(answer.status).toBe(403)
    expect(answer.json).toMatchObject({ status: 'ERROR', errorCode: 'INCORRECT_PUNTER_STATE', payload: { operation: 'bet', restriction: 'SUSPENDED' } })
  })

  it('money rules: stake below the minimum, more than two decimals, more than the balance; bad input is a 400, never a 500', async () => {
    const hash = await server.login('opened@demo.parlay.test')
    const [pick] = await server.liveSelections()
    expect((await place(hash, [pick], 0.05)).json).toMatchObject({ errorCode: 'STAKE_TOO_LOW', payload: { limit: 0.1, currency: 'USD' } })
    expect((await place(hash, [pick], 1.005)).json).toMatchObject({ errorCode: 'ValidationError', payload: { field: 'stake' } })
    expect((await place(hash, [pick], 9999)).json.errorCode).toBe('INSUFFICIENT_FUNDS')
    for (const body of [{}, { kind: 'single', selections: 'x', stake: 1, idempotencyKey: newKey() }, { kind: 'single', selections: [{ selectionId: 'nope', price: 2 }], stake: 1, idempotencyKey: newKey() }]) {
      const answer = await server.call('POST', 'bets/place', { hash, body })
      expect(answer.status).toBe(400)
      expect(answer.json.status).toBe('ERROR')
    }
    expect((await server.call('POST', 'bets/place', { hash, raw: '{"kind":', headers: { 'content-type': 'application/json' } })).status).toBe(400)
    expect((await server.call('POST', 'bets/place', { body: { kind: 'single' } })).status).toBe(401)
  })
})

describe('settlement and cash-out', () => {
  it('the feed finishing an event settles the bet: a win is credited once (a repeated settle credits nothing) with accountUpdate and betCountUpdate', async () => {
    const hash = await server.login('opened@demo.parlay.test')
    const [pick] = await server.liveSelections()
    const bet = (await place(hash, [pick], 4)).json.payload
    const before = await server.balance(hash)
    const events: string[] = []
    const onBalance = () => events.push('accountUpdate')
    const onCount = () => events.push('betCountUpdate')
    punterEvents.on('accountUpdate', onBalance)
    punterEvents.on('betCountUpdate', onCount)
    try {
      await server.dev('settle', { eventId: pick.eventId, score: [2, 0] }) // the main market's first selection (home) wins
      await server.dev('settle', { eventId: pick.eventId, score: [2, 0] })
    } finally {
      punterEvents.off('accountUpdate', onBalance)
      punterEvents.off('betCountUpdate', onCount)
    }
    expect(await server.balance(hash)).toBe(before + 10)
    expect(events).toEqual(['accountUpdate', 'betCountUpdate'])
    const settled = (await server.call('GET', 'bets?status=settled', { hash })).json.payload.find((b: { betId: string }) => b.betId === bet.betId)
    expect(settled).toMatchObject({ status: 'won', payout: 10, selections: [{ selectionId: pick.id, result: 'WIN' }] })
  })

  it('an accumulator with one losing leg is lost and credits nothing', async () => {
    const hash = await server.login('opened@demo.parlay.test')
    const picks = await server.liveSelections(2)
    const bet = (await place(hash, picks, 1)).json.payload
    expect(bet).toMatchObject({ kind: 'accumulator', price: 6.25 })
    const before = await server.balance(hash)
    await server.dev('settle', { eventId: picks[0].eventId, score: [1, 0] })
    expect((await server.call('GET', `bets/${bet.betId}`, { hash })).json.payload.status).toBe('open')
    await server.dev('settle', { eventId: picks[1].eventId, score: [0, 3] })
    expect((await server.call('GET', `bets/${bet.betId}`, { hash })).json.payload).toMatchObject({ status: 'lost', payout: 0 })
    expect(await server.balance(hash)).toBe(before)
  })

  it('cash-out: NEVER refuses a changed offer with the new amount, INCREASE takes a higher one, and the bet closes once with the offer credited', async () => {
    const hash = await server.login('opened@demo.parlay.test')
    const [pick] = await server.liveSelections()
    const bet = (await place(hash, [pick], 10)).json.payload
    expect(bet.cashOut).toEqual({ amount: 9.5, currency: 'USD' }) // 10 × 2.5 ÷ 2.5, less 5 %
    await server.dev('price', { selectionId: pick.id, price: 2 })
    const never = await server.call('POST', `bets/${bet.betId}/cash-out`, { hash, body: { amount: 9.5, confirmation: 'NEVER' } })
    expect(never.json).toMatchObject({ errorCode: 'CASH_OUT_AMOUNT_CHANGED', payload: { amount: 11.87 } })
    const before = await server.balance(hash)
    const taken = await server.call('POST', `bets/${bet.betId}/cash-out`, { hash, body: { amount: 9.5, confirmation: 'INCREASE' } })
    expect(taken.json.payload).toMatchObject({ status: 'ACCEPTED', amount: 11.87, bet: { status: 'cashed_out', payout: 11.87 }, balance: before + 11.87 })
    expect((await server.call('POST', `bets/${bet.betId}/cash-out`, { hash, body: { amount: 11.87, confirmation: 'ALWAYS' } })).json.errorCode).toBe('BET_CLOSED')
    await server.dev('settle', { eventId: pick.eventId, score: [3, 0] })
    expect(await server.balance(hash)).toBe(before + 11.87)
  })

  it('cash-out with the delay: PENDING until the delay has passed on the clock, then decided at the value then; a falling offer is refused under INCREASE', async () => {
    const hash = await server.login('opened@demo.parlay.test')
    const [pick] = await server.liveSelections()
    const bet = (await place(hash, [pick], 10)).json.payload
    const first = await server.call('POST', `bets/${bet.betId}/cash-out`, { hash, body: { amount: 9.5, confirmation: 'INCREASE', delay: true } })
    expect(first.json.payload).toMatchObject({ status: 'PENDING', retryAfterMs: 3000 })
    const requestId = first.json.payload.requestId
    const early = await server.call('POST', `bets/${bet.betId}/cash-out`, { hash, body: { amount: 9.5, confirmation: 'INCREASE', delay: true, requestId } })
    expect(early.json.payload.status).toBe('PENDING')
    server.clock.now += 3000
    await server.dev('price', { selectionId: pick.id, price: 3 })
    const late = await server.call('POST', `bets/${bet.betId}/cash-out`, { hash, body: { amount: 9.5, confirmation: 'INCREASE', delay: true, requestId } })
    expect(late.json).toMatchObject({ errorCode: 'CASH_OUT_AMOUNT_CHANGED', payload: { amount: 7.91 } })
    server.clock.now -= 3000
  })

  it('a delayed cash-out never asked about again is forgotten a minute after its delay: the old request id starts a new wait', async () => {
    const hash = await server.login('opened@demo.parlay.test')
    const [pick] = await server.liveSelections()
    await server.dev('pause', { paused: true }) // a goal in the minute would withdraw the offer
    await server.dev('price', { selectionId: pick.id, price: 2 })
    const bet = (await place(hash, [{ ...pick, price: 2 }], 10)).json.payload
    const first = await server.call('POST', `bets/${bet.betId}/cash-out`, { hash, body: { amount: 9.5, confirmation: 'ALWAYS', delay: true } })
    const requestId = first.json.payload.requestId
    server.clock.now += 3000 + 60_001
    const again = await server.call('POST', `bets/${bet.betId}/cash-out`, { hash, body: { amount: 9.5, confirmation: 'ALWAYS', delay: true, requestId } })
    expect(again.json.payload).toMatchObject({ status: 'PENDING', retryAfterMs: 3000 })
    expect(again.json.payload.requestId).not.toBe(requestId)
    server.clock.now -= 3000 + 60_001
    await server.dev('pause', { paused: false })
  })

  it('cash-out offers over the socket: a moved price sends coOffer with the new value, a suspension coRemoval; placing sends betCountUpdate', async () => {
    const hash = await server.login('opened@demo.parlay.test')
    const [pick] = await server.liveSelections()
    const seen: { type: string; event: Record<string, unknown> }[] = []
    const listeners = (['coOffer', 'coRemoval', 'betCountUpdate'] as const).map((type) => {
      const listener = (event: Record<string, unknown>) => seen.push({ type, event })
      punterEvents.on(type, listener)
      return () => punterEvents.off(type, listener)
    })
    try {
      const bet = (await place(hash, [pick], 10)).json.payload
      await server.dev('price', { selectionId: pick.id, price: 2 })
      await server.dev('hold', { eventId: pick.eventId, held: true })
      expect(seen.map((s) => s.type)).toEqual(['betCountUpdate', 'coOffer', 'coRemoval'])
      expect(seen[1].event).toEqual({ punterId: expect.any(Number), betId: bet.betId, amount: 11.87, currency: 'USD' })
      expect(seen[2].event).toEqual({ punterId: expect.any(Number), betId: bet.betId })
    } finally {
      for (const off of listeners) off()
    }
  })

  it('someone else\'s bet is not found', async () => {
    const owner = await server.login('opened@demo.parlay.test')
    const other = await server.login('vip@demo.parlay.test')
    const [pick] = await server.liveSelections()
    const bet = (await place(owner, [pick], 1)).json.payload
    expect((await server.call('GET', `bets/${bet.betId}`, { hash: other })).status).toBe(404)
    expect((await server.call('POST', `bets/${bet.betId}/cash-out`, { hash: other, body: { amount: 1, confirmation: 'ALWAYS' } })).json.errorCode).toBe('BET_NOT_FOUND')
  })
})
