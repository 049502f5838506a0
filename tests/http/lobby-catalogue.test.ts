/**
 * The lobbies' game catalogue (issue 31 item 3): every tile of every lobby leads to a game that
 * plays on every site (a game document claims it), carries what the lobby filters on (a category
 * with its text in every locale, a provider, whether it is new) and a tile with its size, and its
 * generic words are in the page's language. Oracles: the game documents' claims and the
 * translation files, read here.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SCHEMAS_DIR, startTestServer, type TestServer } from '../support/server'
import { SITES } from '../support/sites'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => server?.dispose())

const LOBBIES = ['casino', 'live-casino', 'live-games', 'virtual-sports', 'mgames', 'crash', 'fast-games']

interface Tile {
  id: string
  title: string
  provider: string
  category: string
  isNew: boolean
  image: string
  width: number
  height: number
}

const get = async (path: string, site?: string) => {
  const res = await fetch(`${server.url}${path}`, { headers: site ? { 'x-parlay-target': site } : {} })
  return { status: res.status, json: (await res.json()) as { payload: unknown } }
}
const lobby = async (product: string, locale = 'en') => (await get(`/api/content/games?section=${product}&locale=${locale}`)).json.payload as Tile[]

/** product/gameId of every lobby game some shared game document claims. */
const claimed = new Set(
  readdirSync(join(SCHEMAS_DIR, 'games')).flatMap((file) => (JSON.parse(readFileSync(join(SCHEMAS_DIR, 'games', file), 'utf8')) as { lobby: string[] }).lobby),
)

/** Every locale's texts, merged from its translation files. */
function texts(): Map<string, Record<string, string>> {
  const byLocale = new Map<string, Record<string, string>>()
  for (const file of readdirSync(join(SCHEMAS_DIR, 'i18n'))) {
    const doc = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'i18n', file), 'utf8')) as { locale: string; resources: Record<string, string> }
    byLocale.set(doc.locale, { ...byLocale.get(doc.locale), ...doc.resources })
  }
  return byLocale
}

describe('the lobbies’ catalogue', () => {
  it.each(LOBBIES)('%s: every tile is a game a document plays, with a category, a provider, a new flag and a sized tile', async (product) => {
    const games = await lobby(product)
    expect(games.length).toBeGreaterThan(2)
    for (const game of games) {
      expect(claimed.has(`${product}/${game.id}`), `${product}/${game.id} is claimed by a game document`).toBe(true)
      expect(game).toMatchObject({ provider: expect.stringMatching(/\S/), category: expect.stringMatching(/^[a-z-]+$/), isNew: expect.any(Boolean), width: 240, height: 180 })
      expect(game.image).toBe(`/api/content/images/${game.id}.png`)
    }
  })

  it('every tile opens a game card on every site (no tile leads to “not found”)', async () => {
    for (const product of LOBBIES)
      for (const game of await lobby(product))
        for (const site of SITES) expect((await get(`/api/games/info?product=${product}&id=${game.id}`, site)).status, `${site} ${product}/${game.id}`).toBe(200)
  })

  it('the casino lobby has something to filter: several categories, several providers, new games and old', async () => {
    const games = await lobby('casino')
    expect(new Set(games.map((g) => g.category)).size).toBeGreaterThan(2)
    expect(new Set(games.map((g) => g.provider)).size).toBeGreaterThan(3)
    expect(games.some((g) => g.isNew) && games.some((g) => !g.isNew)).toBe(true)
  })

  it('every category of every lobby has its label in every locale', async () => {
    const categories = new Set((await Promise.all(LOBBIES.map((product) => lobby(product)))).flat().map((g) => g.category))
    for (const [locale, resources] of texts()) for (const category of categories) expect(resources[`lobby.category.${category}`], `${locale}: lobby.category.${category}`).toMatch(/\S/)
  })

  it('names stay as they are, their generic words are in the page’s language (a virtual race in Spanish)', async () => {
    const [english, spanish] = [await lobby('virtual-sports', 'en'), await lobby('virtual-sports', 'es')]
    expect(english.map((g) => g.title)).toContain('Virtual Derby, race 14')
    expect(spanish.map((g) => g.title)).toContain('Virtual Derby, carrera 14')
    expect(spanish.map((g) => g.id)).toEqual(english.map((g) => g.id))
  })
})
