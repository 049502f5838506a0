/**
 * A casino lobby like a real one (issue 31 item 3), at phone size (360×740), on Curaçao in English
 * and on Spain in Spanish, with real typing and taps: the search narrows the tiles as the punter
 * types and says how many; a provider filter shows that provider's games; a punter's favourites
 * filter. Demo play as a guest (or the refusal, by the jurisdiction's games.demoPlay) is part of
 * the loop on every site, tests/e2e/loop-sites.spec.ts. The oracle for what the lobby should show
 * is the catalogue API.
 */
import type { BrowserContext, Page } from '@playwright/test'
import { expect, logInByApi, test } from './fixtures'
import { siteUrl } from './signup-helpers'

interface Site {
  name: string
  jurisdiction: string
  locale: string
  punter: string
  says: { search: string; games: (n: number) => string; favourites: string; jackpots: string }
}

const SITES: Site[] = [
  {
    name: 'Curaçao (en)',
    jurisdiction: 'curacao',
    locale: 'en',
    punter: 'reality@demo.parlay.test',
    says: { search: 'Search games', games: (n) => `${n} game${n === 1 ? '' : 's'}`, favourites: 'Favourites', jackpots: 'Jackpots' },
  },
  {
    name: 'Spain (es)',
    jurisdiction: 'spain',
    locale: 'es',
    punter: 'spain@demo.parlay.test',
    says: {
      search: 'Buscar juegos',
      games: (n) => `${n} juego${n === 1 ? '' : 's'}`,
      favourites: 'Favoritos',
      jackpots: 'Botes',
    },
  },
]

interface Game {
  id: string
  title: string
  provider: string
  category: string
}

const base = (site: Site, baseURL: string) => (site.jurisdiction === 'curacao' ? baseURL : siteUrl(baseURL, site.jurisdiction, '').replace(/\/$/, ''))
const consent = (context: BrowserContext, url: string) => context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url }])
const catalogue = async (page: Page, baseURL: string, locale: string) => ((await (await page.request.get(`${baseURL}/api/content/games?section=casino&locale=${locale}`)).json()) as { payload: Game[] }).payload
const tiles = (page: Page) => page.getByTestId('casino-games').locator('[data-testid="lobby-tile"] .card__title')
/** The lobby's search once the page is live (the server's markup shows it read-only until then). */
async function searchBox(page: Page, label: string) {
  const search = page.getByLabel(label)
  await expect(search).toBeEditable()
  return search
}

for (const site of SITES) {
  test.describe(site.name, () => {
    test.beforeEach(async ({ context, baseURL }) => consent(context, base(site, baseURL!)))

    test('the search narrows the tiles as the punter types, and says how many games it found', async ({ page, baseURL }) => {
      const games = await catalogue(page, baseURL!, site.locale)
      await page.goto(`${base(site, baseURL!)}/casino/lobby`)
      await expect(tiles(page)).toHaveCount(games.length)
      const search = await searchBox(page, site.says.search)
      await search.click()
      for (const typed of ['b', 'bo', 'boo']) {
        await search.pressSequentially(typed.slice(-1), { delay: 60 })
        const expected = games.filter((g) => g.title.toLowerCase().includes(typed)).map((g) => g.title)
        await expect(tiles(page)).toHaveText(expected)
        await expect(page.getByTestId('lobby-count')).toHaveText(site.says.games(expected.length))
      }
      await expect(page.getByTestId('lobby-count')).toHaveAttribute('role', 'status')
      await tiles(page).first().click()
      await expect(page).toHaveURL(/\/casino\/game\?product=casino&id=book-of-ra$/)
      // back in the lobby the search is as the punter left it
      await page.goBack()
      await expect(search).toHaveValue('boo')
      await expect(tiles(page)).toHaveText(['Book of Ra'])
    })

    test('a provider filter shows that provider’s games only, and a category narrows it further', async ({ page, baseURL }) => {
      const games = await catalogue(page, baseURL!, site.locale)
      await page.goto(`${base(site, baseURL!)}/casino/lobby`)
      await page.getByTestId('lobby-provider').selectOption('Pragmatic Play')
      await expect(tiles(page)).toHaveText(games.filter((g) => g.provider === 'Pragmatic Play').map((g) => g.title))
      await page.getByTestId('lobby-provider').selectOption('Parlay Studios')
      await expect(tiles(page)).toHaveText(games.filter((g) => g.provider === 'Parlay Studios').map((g) => g.title))
      await page.getByRole('button', { name: site.says.jackpots, exact: true }).click()
      await expect(page.getByRole('button', { name: site.says.jackpots, exact: true })).toHaveAttribute('aria-pressed', 'true')
      await expect(tiles(page)).toHaveText(games.filter((g) => g.provider === 'Parlay Studios' && g.category === 'jackpots').map((g) => g.title))
    })

    test('favourites: a guest has no such filter; a punter’s favourite game is what the filter shows', async ({ page, baseURL }) => {
      const lobby = `${base(site, baseURL!)}/casino/lobby`
      await page.goto(lobby)
      await expect(tiles(page).first()).toBeVisible()
      await expect(page.getByTestId('lobby-favourites')).toHaveCount(0)

      // logged in outside casino, with a reality-check interval set first (a punter without one is
      // asked to set it on entering casino, a popup over the lobby)
      await logInByApi(page, site.punter, `${base(site, baseURL!)}/sport/live/popular`)
      const hash = await page.evaluate(() => JSON.parse(localStorage.getItem('sessionHash') ?? 'null') as string)
      expect((await page.request.post(`${baseURL}/casino-gate/api/v1/realitycheck/punter/settings`, { headers: { 'punter-session-hash': hash }, data: { timeout: 60 } })).status()).toBe(200)
      await page.reload()
      await page.getByTestId('product-switcher').locator('[data-product="casino"]').click()
      await (await searchBox(page, site.says.search)).pressSequentially('gates', { delay: 40 })
      await expect(tiles(page)).toHaveText(['Gates of Olympus'])
      await tiles(page).first().click()
      const favourite = page.getByTestId('game-favorite')
      await expect(favourite).toHaveAttribute('aria-pressed', /true|false/)
      if ((await favourite.getAttribute('aria-pressed')) === 'false') await favourite.click()
      await expect(favourite).toHaveAttribute('aria-pressed', 'true')
      await page.getByTestId('product-switcher').locator('[data-product="casino"]').click()
      await expect(page).toHaveURL(/\/casino\/lobby$/)
      await page.getByTestId('lobby-favourites').click()
      await expect(page.getByTestId('lobby-favourites')).toHaveAttribute('aria-pressed', 'true')
      await expect(tiles(page)).toHaveText(['Gates of Olympus'])
    })
  })
}
