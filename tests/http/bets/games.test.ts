/**
 * Games over HTTP (issue 14 item 6, issue 28 item 3): a lobby game launches with its game
 * document's declared return (restricted punters refused), a round of the slot or crash game is
 * decided on the server from the round id and pays through the balance once per idempotency key,
 * and favourites are kept per product on the server. The maths themselves: tests/unit/games.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { playGame, roundStream } from '../../../server/games/engine'
import type { GameMaths } from '../../../kernel/games/maths'
import { newKey, startBetsServer, type BetsServer } from './support'

let server: BetsServer
beforeAll(async () => {
  server = await startBetsServer()
})
afterAll(async () => server?.dispose())

const SEED = process.env.PARLAY_GAMES_SEED || 'parlay-demo-games'
const mathsOf = (id: string) => server.deps.documents.list('game').find((r) => r.id === id)!.source as unknown as GameMaths
const stream = (words: number[]) => () => words.shift()!

describe('game rounds (seeded, decided on the server)', () => {
  it('the same seed and round id give the same words and outcome; different rounds differ', () => {
    const words = (id: string) => Array.from({ length: 20 }, roundStream('s', id))
    expect(words('round-1')).toEqual(words('round-1'))
    expect(words('round-1')).not.toEqual(words('round-2'))
    expect(playGame(mathsOf('slot-low'), roundStream('s', 'round-1'))).toEqual(playGame(mathsOf('slot-low'), roundStream('s', 'round-1')))
  })
  it('slot: the words pick one stop per reel and the line pays its highest combination', () => {
    // slot-low's reels list cherry first: stop 0 of every reel is a cherry (three cherries pay 6)
    expect(playGame(mathsOf('slot-low'), stream([0, 0, 0]))).toEqual({ outcome: { game: 'slot-low', stops: [0, 0, 0], reels: ['cherry', 'cherry', 'cherry'], multiplier: 6 }, payHundredths: 600 })
    // the last stop of every reel is a seven: three sevens pay 50
    expect(playGame(mathsOf('slot-low'), stream([63, 63, 63])).outcome).toMatchObject({ reels: ['seven', 'seven', 'seven'], multiplier: 50 })
  })
  it('crash: a first word ≡ 0 (mod 33) crashes at 1.00; otherwise the cash-out wins at or under the crash point', () => {
    expect(playGame(mathsOf('crash'), stream([33 * 5, 2 ** 31]), 101)).toEqual({ outcome: { game: 'crash', crashAt: 1, cashOutAt: 1.01, won: false }, payHundredths: 0 })
    // k = 2^31 halves the range: 2^32 / 2^31 = 2.00
    expect(playGame(mathsOf('crash'), stream([1, 2 ** 31]), 200)).toEqual({ outcome: { game: 'crash', crashAt: 2, cashOutAt: 2, won: true }, payHundredths: 200 })
    expect(playGame(mathsOf('crash'), stream([1, 2 ** 31]), 201).outcome).toMatchObject({ won: false })
  })
})

describe('games through the balance', () => {
  it('a slot round pays through the balance: balance = before − stake + win, and a repeated key plays once', async () => {
    const hash = await server.login('opened@demo.parlay.test')
    expect((await server.call('GET', 'games/casino/starburst-deluxe', { hash })).json.payload).toMatchObject({ gameId: 'starburst-deluxe', engine: 'slot', currency: 'USD', returnToPlayer: 96.5 })
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
    expect(playGame(mathsOf('slot-high'), roundStream(SEED, big.roundId)).outcome).toEqual(big.outcome)
    // the hook is spent: rounds after it are drawn as always (a run of 20 ×10 wins by chance is ~1e-33)
    const after = await Promise.all(Array.from({ length: 20 }, () => server.call('POST', 'games/casino/book-of-ra/play', { hash, body: { stake: 0.1, idempotencyKey: newKey() } })))
    expect(after.some((r) => r.json.payload.outcome.multiplier < 10)).toBe(true)
  })

  it('favourites are kept per product on the server', async () => {
    const hash = await server.login('opened@demo.parlay.test')
    await server.call('PUT', 'games/favorites', { hash, body: { product: 'casino', gameId: 'book-of-ra', favorite: true } })
    await server.call('PUT', 'games/favorites', { hash, body: { product: 'live-casino', gameId: 'crazy-time', favorite: true } })
    expect((await server.call('GET', 'games/favorites?product=casino', { hash })).json.payload.gameIds).toEqual(['book-of-ra'])
    expect((await server.call('GET', 'games/favorites/casino', { hash })).json.payload).toEqual([{ id: 'book-of-ra', title: 'Book of Ra', provider: 'Novomatic', category: 'slots', isNew: false, image: '/api/content/images/book-of-ra.png', width: 240, height: 180 }])
    const again = await server.login('opened@demo.parlay.test')
    expect((await server.call('GET', 'games/favorites?product=live-casino', { hash: again })).json.payload.gameIds).toEqual(['crazy-time'])
    await server.call('PUT', 'games/favorites', { hash, body: { product: 'casino', gameId: 'book-of-ra', favorite: false } })
    expect((await server.call('GET', 'games/favorites?product=casino', { hash })).json.payload.gameIds).toEqual([])
    expect((await server.call('PUT', 'games/favorites', { hash, body: { product: 'casino', gameId: 'nope', favorite: true } })).status).toBe(404)
  })
})
