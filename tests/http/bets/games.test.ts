/**
 * Games over HTTP (issue 14 item 6): a lobby game launches (restricted punters refused), a round
 * of the slot or crash engine is decided on the server and pays through the balance once per
 * idempotency key, and favourites are kept per product on the server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { crashPoint, playCrash, roundNumbers, spinSlot } from '../../../server/games/engine'
import { newKey, startBetsServer, type BetsServer } from './support'

let server: BetsServer
beforeAll(async () => {
  server = await startBetsServer()
})
afterAll(async () => server?.dispose())

describe('demo game engines (seeded, decided on the server)', () => {
  it('the same seed and round id give the same outcome; different rounds differ', () => {
    expect(roundNumbers('s', 'round-1')).toEqual(roundNumbers('s', 'round-1'))
    expect(roundNumbers('s', 'round-1')).not.toEqual(roundNumbers('s', 'round-2'))
  })
  it('slot: three of a kind pays its multiplier, two cherries pay 2, anything else 0', () => {
    expect(spinSlot([0, 0, 0, 0])).toEqual({ reels: ['cherry', 'cherry', 'cherry'], multiplier: 5 })
    expect(spinSlot([0.999, 0.999, 0.999, 0])).toEqual({ reels: ['seven', 'seven', 'seven'], multiplier: 200 })
    expect(spinSlot([0, 0, 0.5, 0]).multiplier).toBe(2)
    expect(spinSlot([0, 0.5, 0.9, 0]).multiplier).toBe(0)
  })
  it('crash: one round in 33 crashes at 1.00; an auto cash-out at or under the crash point wins', () => {
    expect(crashPoint([0.01])).toBe(1)
    expect(crashPoint([0.5])).toBe(1.98)
    expect(playCrash([0.5], 1.98)).toEqual({ crashAt: 1.98, cashOutAt: 1.98, won: true })
    expect(playCrash([0.5], 2)).toMatchObject({ won: false })
  })
})

describe('games through the balance', () => {
  it('a slot round pays through the balance: balance = before − stake + win, and a repeated key plays once', async () => {
    const hash = await server.login('opened@demo.parlay.test')
    expect((await server.call('GET', 'games/casino/starburst-deluxe', { hash })).json.payload).toMatchObject({ gameId: 'starburst-deluxe', engine: 'slot', currency: 'USD' })
    let balance = await server.balance(hash)
    for (let i = 0; i < 5; i++) {
      const key = newKey()
      const [round, again] = await Promise.all([1, 2].map(() => server.call('POST', 'games/casino/starburst-deluxe/play', { hash, body: { stake: 1, idempotencyKey: key } })))
      expect(again.json.payload.roundId).toBe(round.json.payload.roundId)
      const { win, outcome } = round.json.payload
      expect(win).toBe(outcome.multiplier)
      balance = Math.round((balance - 1 + win) * 100) / 100
      expect(await server.balance(hash)).toBe(balance)
    }
  })

  it('a crash round with an auto cash-out: won pays stake × cashOutAt, lost pays nothing', async () => {
    const hash = await server.login('vip@demo.parlay.test')
    const before = await server.balance(hash)
    const round = (await server.call('POST', 'games/crash/aviator/play', { hash, body: { stake: 2, cashOutAt: 1.5, idempotencyKey: newKey() } })).json.payload
    expect(round.engine).toBe('crash')
    expect(round.win).toBe(round.outcome.crashAt >= 1.5 ? 3 : 0)
    expect(await server.balance(hash)).toBe(Math.round((before - 2 + round.win) * 100) / 100)
  })

  it('refused: a restricted punter (games taken away), an unknown game, a stake beyond the balance or the limits', async () => {
    const suspended = await server.login('suspended@demo.parlay.test')
    expect((await server.call('GET', 'games/casino/book-of-ra', { hash: suspended })).json).toMatchObject({ errorCode: 'INCORRECT_PUNTER_STATE', payload: { operation: 'game' } })
    expect((await server.call('POST', 'games/casino/book-of-ra/play', { hash: suspended, body: { stake: 1, idempotencyKey: newKey() } })).status).toBe(403)
    const zero = await server.login('zero@demo.parlay.test')
    expect((await server.call('POST', 'games/casino/book-of-ra/play', { hash: zero, body: { stake: 1, idempotencyKey: newKey() } })).json.errorCode).toBe('INSUFFICIENT_FUNDS')
    expect((await server.call('GET', 'games/casino/no-such-game', { hash: zero })).status).toBe(404)
    expect((await server.call('GET', 'games/nowhere/book-of-ra', { hash: zero })).status).toBe(404)
    expect((await server.call('POST', 'games/casino/book-of-ra/play', { hash: zero, body: { stake: 501, idempotencyKey: newKey() } })).json.errorCode).toBe('STAKE_TOO_HIGH')
    expect((await server.call('POST', 'games/casino/book-of-ra/play', { hash: zero, body: { stake: 'x' } })).status).toBe(400)
  })

  it('development hook: the next round pays at least the asked multiple (an honest round: its outcome recomputes from its id), once', async () => {
    const hash = await server.login('opened@demo.parlay.test')
    expect((await server.call('POST', '/api/dev/games/next-round', { body: { atLeast: 'ten' } })).status).toBe(400)
    expect((await server.call('POST', '/api/dev/games/next-round', { body: { atLeast: 10 } })).status).toBe(200)
    const big = (await server.call('POST', 'games/casino/book-of-ra/play', { hash, body: { stake: 1, idempotencyKey: newKey() } })).json.payload
    expect(big.outcome.multiplier).toBeGreaterThanOrEqual(10)
    expect(spinSlot(roundNumbers(process.env.PARLAY_GAMES_SEED || 'parlay-demo-games', big.roundId)).multiplier).toBe(big.outcome.multiplier)
    // the hook is spent: rounds after it are drawn as always (a run of 20 ×10 wins by chance is ~1e-33)
    const after = await Promise.all(Array.from({ length: 20 }, () => server.call('POST', 'games/casino/book-of-ra/play', { hash, body: { stake: 0.1, idempotencyKey: newKey() } })))
    expect(after.some((r) => r.json.payload.outcome.multiplier < 10)).toBe(true)
  })

  it('favourites are kept per product on the server', async () => {
    const hash = await server.login('opened@demo.parlay.test')
    await server.call('PUT', 'games/favorites', { hash, body: { product: 'casino', gameId: 'book-of-ra', favorite: true } })
    await server.call('PUT', 'games/favorites', { hash, body: { product: 'live-casino', gameId: 'crazy-time', favorite: true } })
    expect((await server.call('GET', 'games/favorites?product=casino', { hash })).json.payload.gameIds).toEqual(['book-of-ra'])
    expect((await server.call('GET', 'games/favorites/casino', { hash })).json.payload).toEqual([{ id: 'book-of-ra', title: 'Book of Ra', provider: 'Novomatic', image: '/api/content/images/book-of-ra.png' }])
    const again = await server.login('opened@demo.parlay.test')
    expect((await server.call('GET', 'games/favorites?product=live-casino', { hash: again })).json.payload.gameIds).toEqual(['crazy-time'])
    await server.call('PUT', 'games/favorites', { hash, body: { product: 'casino', gameId: 'book-of-ra', favorite: false } })
    expect((await server.call('GET', 'games/favorites?product=casino', { hash })).json.payload.gameIds).toEqual([])
    expect((await server.call('PUT', 'games/favorites', { hash, body: { product: 'casino', gameId: 'nope', favorite: true } })).status).toBe(404)
  })
})
