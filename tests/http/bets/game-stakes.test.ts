/**
 * A game page's stake choices are stakes the server takes, on every site (issue 31 item 8: the
 * Russian site offered 0.50–5 roubles against a 10-rouble games.stake minimum, so every round was
 * refused). The site's bootstrap serves the jurisdiction document's games.stake as site.gameStake;
 * the page's choices (engine/core/game-stakes.ts) from it are each played as a real round by the
 * site's demo punter and accepted. Oracles: each jurisdiction document read here, and the server's
 * own answer to each round. And each site's demo punter holds enough to play the loop: the slip's
 * largest quick stake (Russia's 150 roubles was under its 1,000-rouble one).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gameStakes } from '../../../engine/core/game-stakes'
import { quickStakes } from '../../../engine/core/quick-stakes'
import { SCHEMAS_DIR } from '../../support/server'
import { newKey, startBetsServer, type BetsServer } from './support'
import { SITES, openDemoPunter } from '../../support/sites'

let server: BetsServer
beforeAll(async () => {
  server = await startBetsServer()
})
afterAll(async () => server?.dispose())

/** Every declared site (its x-parlay-target) and its ordinary demo punter (tests/support/sites.ts). */
const PUNTERS: Record<string, string> = Object.fromEntries(SITES.map((id) => [id, openDemoPunter(id)]))
const gamesStake = (site: string) => (JSON.parse(readFileSync(join(SCHEMAS_DIR, 'jurisdictions', site, 'jurisdiction.json'), 'utf8')) as { games: { stake: { minimum: number; maximum: number } } }).games.stake

describe('game stake choices on every site', () => {
  for (const [site, punter] of Object.entries(PUNTERS)) {
    it(`${site}: the bootstrap's site.gameStake is the document's games.stake, every stake the game page offers is a round the server plays, and the demo punter can stake the slip's largest quick stake`, async () => {
      const { gameStake: bounds, betStake } = (await server.call('GET', '/api/site', { site })).json.site
      expect(bounds).toEqual(gamesStake(site))
      const hash = await server.login(punter, site)
      expect((await server.call('GET', 'heartbeat', { hash, site })).json.payload.balanceInfo.mainBalance).toBeGreaterThanOrEqual(Math.max(...quickStakes(betStake)))
      for (const stake of gameStakes(bounds)) {
        const round = await server.call('POST', 'games/casino/starburst-deluxe/play', { hash, site, body: { stake, idempotencyKey: newKey() } })
        expect(round.status, `${site} ${stake}: ${JSON.stringify(round.json)}`).toBe(200)
      }
    })
  }
})
