/**
 * A game's declared return over HTTP (issue 28 item 3): the launch answers the return of the game
 * the punter plays and the public card shows it to guests; a game whose declared return lies outside
 * the punter's OWN jurisdiction's range is refused at launch and at every round with
 * GAME_RETURN_NOT_ALLOWED, whichever site the request names; a document set whose game declares a
 * return its paytable does not pay is refused (the last good set keeps being served); a crash win
 * is exact money (×1.15 on 1.00 pays 1.15, never 1.14).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newKey, startBetsServer, type BetsServer } from './support'

let server: BetsServer
beforeAll(async () => {
  server = await startBetsServer()
})
afterAll(async () => server?.dispose())

const file = (path: string) => join(server.documentsDir, path)
/** Rewrites a document of the running server's set and reloads the set; returns the undo. */
function edit(path: string, change: (doc: any) => void): () => void {
  const before = readFileSync(file(path), 'utf8')
  const doc = JSON.parse(before)
  change(doc)
  writeFileSync(file(path), JSON.stringify(doc, null, 2))
  return () => {
    writeFileSync(file(path), before)
    server.deps.documents.reload()
  }
}

describe('the return to player is carried where a punter sees the game', () => {
  it('a launch answers the declared return and volatility of the game its lobby card plays', async () => {
    const hash = await server.login('opened@demo.parlay.test')
    const launched = async (path: string) => (await server.call('GET', `games/${path}`, { hash })).json.payload
    expect(await launched('casino/starburst-deluxe')).toMatchObject({ engine: 'slot', returnToPlayer: 96.5, volatility: 'low' })
    expect(await launched('casino/sweet-bonanza')).toMatchObject({ engine: 'slot', returnToPlayer: 96, volatility: 'medium' })
    expect(await launched('casino/book-of-ra')).toMatchObject({ engine: 'slot', returnToPlayer: 94.5, volatility: 'high' })
    expect(await launched('crash/aviator')).toMatchObject({ engine: 'crash', returnToPlayer: 96.97, maxCashOutAt: 1000 })
  })
  it('a guest reads a game’s public card: its title and declared return; an unknown game is a 404 and a bad query a 400', async () => {
    const card = await server.call('GET', '/api/games/info?product=casino&id=book-of-ra&locale=en')
    expect(card.json).toEqual({ status: 'OK', payload: { gameId: 'book-of-ra', title: 'Book of Ra', product: 'casino', engine: 'slot', returnToPlayer: 94.5, volatility: 'high', offered: true, demo: true } })
    expect((await server.call('GET', '/api/games/info?product=casino&id=no-such-game')).json).toMatchObject({ status: 'ERROR', errorCode: 'GAME_NOT_FOUND' })
    expect((await server.call('GET', '/api/games/info?product=casino&id=book-of-ra&extra=1')).status).toBe(400)
    expect((await server.call('GET', '/api/games/info?product=nowhere&id=book-of-ra')).status).toBe(400)
  })
})

describe('a game outside the punter’s own jurisdiction’s allowed return is never offered to him', () => {
  it('Italy allowing 95–99 %: the 94.50 % game is refused to an Italian punter at launch and play (with the figure and the range), on his site or any other; a 96.50 % game is not; a Curaçao punter plays it even on Italy’s site', async () => {
    const undo = edit('jurisdictions/italy/jurisdiction.json', (doc) => (doc.regulatory.gameReturn.minimum = 95))
    try {
      server.deps.documents.reload()
      const italian = await server.login('italy@demo.parlay.test', 'italy')
      const refusal = await server.call('GET', 'games/casino/book-of-ra', { hash: italian, site: 'italy' })
      expect(refusal.status).toBe(403)
      expect(refusal.json).toEqual({ status: 'ERROR', errorCode: 'GAME_RETURN_NOT_ALLOWED', payload: { returnToPlayer: 94.5, range: { minimum: 95, maximum: 99 } } })
      const round = await server.call('POST', 'games/casino/book-of-ra/play', { hash: italian, site: 'italy', body: { stake: 1, idempotencyKey: newKey() } })
      expect(round.json.errorCode).toBe('GAME_RETURN_NOT_ALLOWED')
      // another site's header never gets him the game (refused, whatever the reason given)
      const elsewhere = await server.call('GET', 'games/casino/book-of-ra', { hash: italian })
      expect(elsewhere.status).not.toBe(200)
      expect(elsewhere.json.status).toBe('ERROR')
      expect((await server.call('GET', 'games/casino/starburst-deluxe', { hash: italian, site: 'italy' })).json.payload).toMatchObject({ returnToPlayer: 96.5 })
      // the public card on Italy's site says it is not offered there
      expect((await server.call('GET', '/api/games/info?product=casino&id=book-of-ra', { site: 'italy' })).json.payload).toMatchObject({ returnToPlayer: 94.5, offered: false })

      const curacao = await server.login('vip@demo.parlay.test')
      expect((await server.call('GET', 'games/casino/book-of-ra', { hash: curacao, site: 'italy' })).json.payload).toMatchObject({ returnToPlayer: 94.5 })
    } finally {
      undo()
    }
  })
  it('a jurisdiction without an allowed range is offered no game (fail closed)', async () => {
    const undo = edit('jurisdictions/alderney/jurisdiction.json', (doc) => delete doc.regulatory.gameReturn)
    try {
      server.deps.documents.reload()
      const hash = await server.login('alderney@demo.parlay.test', 'alderney')
      expect((await server.call('GET', 'games/crash/aviator', { hash, site: 'alderney' })).json).toEqual({ status: 'ERROR', errorCode: 'GAME_RETURN_NOT_ALLOWED', payload: { returnToPlayer: 96.97, range: null } })
    } finally {
      undo()
    }
  })
})

describe('a game document must pay what it declares', () => {
  it('a slot declaring 96.50 % whose reels pay 97.91 % stops the reload with the file, the pointer and the exact figure; the last good set is still served', async () => {
    const undo = edit('games/slot-low.json', (doc) => {
      doc.slot.reels[0].cherry = 12
      doc.slot.reels[0].seven = 4
    })
    try {
      expect(() => server.deps.documents.reload()).toThrow('games/slot-low.json:/targetReturn: declares 96.50 % but the paytable returns exactly 97.9095 % (allowed difference 0.01 points)')
      const hash = await server.login('opened@demo.parlay.test')
      expect((await server.call('GET', 'games/casino/starburst-deluxe', { hash })).json.payload).toMatchObject({ returnToPlayer: 96.5 })
    } finally {
      undo()
    }
  })
  it('a lobby game two games claim stops the reload', async () => {
    const undo = edit('games/slot-medium.json', (doc) => doc.lobby.push('casino/book-of-ra'))
    try {
      expect(() => server.deps.documents.reload()).toThrow(/games\/slot-medium.json:\/lobby\/\d+: the lobby game casino\/book-of-ra is already played by games\/slot-high.json/)
    } finally {
      undo()
    }
  })
})

describe('crash rounds', () => {
  it('a won cash-out at ×1.15 on 1.00 pays exactly 1.15; a target with 3 decimals, or one on a slot, is a ValidationError', async () => {
    const hash = await server.login('vip@demo.parlay.test')
    expect((await server.call('POST', '/api/dev/games/next-round', { body: { atLeast: 1.15 } })).status).toBe(200)
    const before = await server.balance(hash)
    const round = (await server.call('POST', 'games/crash/aviator/play', { hash, body: { stake: 1, cashOutAt: 1.15, idempotencyKey: newKey() } })).json.payload
    expect(round.outcome).toMatchObject({ game: 'crash', cashOutAt: 1.15, won: true })
    expect(round.win).toBe(1.15)
    expect(await server.balance(hash)).toBe(Math.round((before + 0.15) * 100) / 100)
    expect((await server.call('POST', 'games/crash/aviator/play', { hash, body: { stake: 1, cashOutAt: 1.155, idempotencyKey: newKey() } })).json).toMatchObject({ errorCode: 'ValidationError', payload: { field: 'cashOutAt', code: 'multipleOf' } })
    expect((await server.call('POST', 'games/casino/book-of-ra/play', { hash, body: { stake: 1, cashOutAt: 2, idempotencyKey: newKey() } })).json).toMatchObject({ errorCode: 'ValidationError', payload: { field: 'cashOutAt', code: 'notAllowed' } })
  })
})
