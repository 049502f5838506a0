/**
 * Demo play over HTTP (issue 31 item 3): a guest plays a lobby game for fun where the site's
 * jurisdiction document allows it (`games.demoPlay`), with the same game document's maths, and
 * nothing is stored: no round, no ledger entry, no balance moves. Where the document says no, the
 * round is refused with DEMO_PLAY_NOT_ALLOWED and the game card says `demo: false`. Oracles: each
 * jurisdiction's document, and the game document's pay table read here for the reels shown.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SCHEMAS_DIR } from '../../support/server'
import { startBetsServer, type BetsServer } from './support'
import { SITES } from '../../support/sites'

let server: BetsServer
beforeAll(async () => {
  server = await startBetsServer()
})
afterAll(async () => server?.dispose())

/** Every site, named as the x-parlay-target header names it (its jurisdiction). */
const documentSays = (site: string) => (JSON.parse(readFileSync(join(SCHEMAS_DIR, 'jurisdictions', site, 'jurisdiction.json'), 'utf8')) as { games: { demoPlay: boolean } }).games.demoPlay

/** What three symbols pay in a slot document, read from its pay table: the highest combination
 * they make (a line, "any" matching any symbol; or at least `count` of a symbol anywhere). */
function paysFor(gameId: string, reels: string[]): number {
  type Pay = { line?: string[]; symbol?: string; count?: number; pays: number }
  const doc = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'games', `${gameId}.json`), 'utf8')) as { slot: { pays: Pay[] } }
  const made = (p: Pay) => (p.line ? p.line.every((symbol, i) => symbol === 'any' || symbol === reels[i]) : reels.filter((r) => r === p.symbol).length >= (p.count ?? 4))
  return Math.max(0, ...doc.slot.pays.filter(made).map((p) => p.pays))
}

const demo = (body: unknown, site = 'curacao', game = 'casino/starburst-deluxe') => server.call('POST', `/api/games/demo/${game}/play`, { body, site })

describe('demo play for guests, where the jurisdiction allows it', () => {
  it.each(SITES)('%s: the game card and the round follow the jurisdiction document’s games.demoPlay', async (site) => {
    const allowed = documentSays(site)
    const card = await server.call('GET', '/api/games/info?product=casino&id=starburst-deluxe', { site })
    if (card.status === 404) return // a site whose punters are offered no such game: nothing to play
    expect(card.json.payload.demo).toBe(allowed && card.json.payload.offered)
    const round = await demo({ stake: 1 }, site)
    if (allowed && card.json.payload.offered) expect(round.status).toBe(200)
    else expect(round.json).toMatchObject({ status: 'ERROR', errorCode: allowed ? 'GAME_RETURN_NOT_ALLOWED' : 'DEMO_PLAY_NOT_ALLOWED' })
    if (!allowed) expect(round.status).toBe(403)
  })

  it('a demo round pays what the game document’s pay table says for the reels it shows, in play money', async () => {
    const documents = { 'starburst-deluxe': 'slot-low', 'book-of-ra': 'slot-high', 'sweet-bonanza': 'slot-medium' } as const
    for (const [game, maths] of Object.entries(documents))
      for (let i = 0; i < 12; i++) {
        const { status, json } = await demo({ stake: 2.5 }, 'curacao', `casino/${game}`)
        expect(status).toBe(200)
        const round = json.payload
        expect(round).toMatchObject({ product: 'casino', gameId: game, engine: 'slot', stake: 2.5, demo: true })
        expect(round.roundId).toMatch(/^demo-/)
        expect(round.win).toBe((250 * paysFor(maths, round.outcome.reels)) / 100)
      }
  })

  it('a crash demo round cashes out at the target when the round went that far, else pays nothing', async () => {
    for (let i = 0; i < 10; i++) {
      const { json } = await demo({ stake: 1, cashOutAt: 1.5 }, 'curacao', 'crash/aviator')
      const { outcome, win } = json.payload
      expect(outcome.won).toBe(outcome.crashAt >= 1.5)
      expect(win).toBe(outcome.won ? 1.5 : 0)
    }
  })

  it('nothing is stored: no game round, no ledger entry, and a punter’s balance does not move when he plays a demo round', async () => {
    const db = server.deps.data.db
    const count = async (table: 'game_rounds' | 'ledger_entries') => Number((await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)
    const before = { rounds: await count('game_rounds'), ledger: await count('ledger_entries') }
    const hash = await server.login('opened@demo.parlay.test')
    const balance = await server.balance(hash)
    for (let i = 0; i < 5; i++) expect((await server.call('POST', '/api/games/demo/casino/book-of-ra/play', { body: { stake: 5 }, hash })).status).toBe(200)
    expect(await server.balance(hash)).toBe(balance)
    expect({ rounds: await count('game_rounds'), ledger: await count('ledger_entries') }).toEqual(before)
  })

  it.each([
    [{ stake: 0 }, 400, 'ValidationError'],
    [{ stake: 1.234 }, 400, 'ValidationError'],
    [{ stake: 1001 }, 400, 'ValidationError'],
    [{ stake: 1, idempotencyKey: 'abcdefgh' }, 400, 'ValidationError'],
    [{ stake: 1, cashOutAt: 2 }, 400, 'ValidationError'],
  ])('bad input %j is a %i %s in the envelope', async (body, status, code) => {
    const res = await demo(body)
    expect(res.status).toBe(status)
    expect(res.json).toMatchObject({ status: 'ERROR', errorCode: code })
  })

  it('an unknown game is a 404 GAME_NOT_FOUND', async () => {
    const res = await demo({ stake: 1 }, 'curacao', 'casino/no-such-game')
    expect(res.status).toBe(404)
    expect(res.json).toEqual({ status: 'ERROR', errorCode: 'GAME_NOT_FOUND' })
  })
})
