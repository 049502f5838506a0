/**
 * Navigation that flows (issue 31 item 2), at phone size (360×740), on Curaçao in English and on
 * Spain in Spanish, with real taps: a new page starts at the top and back and forward put the page
 * where the punter left it; a price on the home page picks into the slip; upcoming and live matches
 * are reached from home and from the menu; the product switcher moves between sport and casino;
 * My bets, limits, withdrawal and the time-out are in the account panel; a guest who changes
 * language stays on the page; an event link that names no event is the 404 page.
 */
import type { BrowserContext, Page } from '@playwright/test'
import { expect, logInByApi, test } from './fixtures'
import { siteUrl } from './signup-helpers'

interface Site {
  name: string
  jurisdiction: string
  punter: string
  /** What the page says, in the site's language (the translation files' texts). */
  says: { live: string; upcoming: string; casino: string; sport: string; responsibleGambling: string; liveTitle: string; upcomingTitle: string; notFound: string; otherLanguage: string; languageTitle: string }
  otherLocale: string
}

const SITES: Site[] = [
  {
    name: 'Curaçao (en)',
    jurisdiction: 'curacao',
    punter: 'opened@demo.parlay.test',
    says: { live: 'Live now', upcoming: 'Upcoming matches', casino: 'Casino', sport: 'Sport', responsibleGambling: 'Responsible gambling', liveTitle: 'Live sport', upcomingTitle: 'Upcoming events', notFound: 'This page could not be found', otherLanguage: 'Español', languageTitle: 'Idioma' },
    otherLocale: 'es',
  },
  {
    name: 'Spain (es)',
    jurisdiction: 'spain',
    punter: 'spain@demo.parlay.test',
    says: { live: 'En directo ahora', upcoming: 'Próximos partidos', casino: 'Casino', sport: 'Deportes', responsibleGambling: 'Juego responsable', liveTitle: 'Deportes en directo', upcomingTitle: 'Próximos eventos', notFound: 'No se ha encontrado esta página', otherLanguage: 'English', languageTitle: 'Language' },
    otherLocale: 'en',
  },
]

const base = (site: Site, baseURL: string) => (site.jurisdiction === 'curacao' ? baseURL : siteUrl(baseURL, site.jurisdiction, '').replace(/\/$/, ''))
const consent = (context: BrowserContext, url: string) => context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url }])
const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY))
/** The page keeps positions once its scroll keeper is in (it then owns the browser's restoration). */
const keeping = (page: Page) => expect.poll(() => page.evaluate(() => history.scrollRestoration)).toBe('manual')

for (const site of SITES) {
  test.describe(site.name, () => {
    test.beforeEach(async ({ context, baseURL }) => consent(context, base(site, baseURL!)))

    test('a new page starts at the top; back and forward put each page where the punter left it', async ({ page, baseURL }) => {
      await page.goto(`${base(site, baseURL!)}/sport/live/popular`)
      await keeping(page)
      const link = page.getByTestId('footer-links').getByRole('link', { name: site.says.responsibleGambling, exact: true })
      await link.scrollIntoViewIfNeeded()
      const left = await scrollY(page)
      expect(left).toBeGreaterThan(700)
      await link.click()
      await expect(page).toHaveURL(/\/info\/responsible-gambling$/)
      await expect(page.getByTestId('page-title')).toBeVisible()
      expect(await scrollY(page)).toBe(0)

      await page.goBack()
      await expect(page).toHaveURL(/\/sport\/live\/popular$/)
      await expect.poll(() => scrollY(page)).toBeGreaterThan(left - 5)
      expect(Math.abs((await scrollY(page)) - left)).toBeLessThanOrEqual(5)
      await page.goForward()
      await expect(page).toHaveURL(/\/info\/responsible-gambling$/)
      await expect.poll(() => scrollY(page)).toBe(0)
    })

    test('a price on the home page picks the selection into the slip, and a second tap takes it out', async ({ page, baseURL }) => {
      await page.goto(`${base(site, baseURL!)}/sport/live/popular`)
      const price = page.getByTestId('sport-events').locator('button.market-odds__button:not([disabled])').first()
      const id = (await price.getAttribute('data-selection-id'))!
      await expect(price).toHaveAttribute('aria-pressed', 'false')
      await price.click()
      await expect(price).toHaveAttribute('aria-pressed', 'true')
      await expect(page.getByTestId('betslip-bar')).toBeVisible()
      // the same selection on the live page: picked there too, and in the slip
      await page.getByTestId('product-switcher').locator('[data-product="live-sport"]').click()
      await expect(page).toHaveURL(/\/sport\/live$/)
      const same = page.locator(`button.market-odds__button[data-selection-id="${id}"]`)
      await expect(same).toHaveAttribute('aria-pressed', 'true')
      await page.getByTestId('betslip-bar').click()
      await expect(page.locator(`[data-testid="betslip-pick"][data-selection-id="${id}"]`)).toBeVisible()
      await page.keyboard.press('Escape')
      await same.click()
      await expect(same).toHaveAttribute('aria-pressed', 'false')
      await expect(page.getByTestId('betslip-bar')).toHaveCount(0)
    })

    test('upcoming and live matches are reached from the home page and from the menu, without typing an address', async ({ page, baseURL }) => {
      await page.goto(`${base(site, baseURL!)}/sport/live/popular`)
      await page.getByTestId('home-prematch').click()
      await expect(page).toHaveURL(/\/sport\/prematch$/)
      await expect(page.getByTestId('page-title')).toHaveText(site.says.upcomingTitle)
      await page.goBack()
      await page.getByTestId('home-live').click()
      await expect(page).toHaveURL(/\/sport\/live$/)
      await expect(page.getByTestId('page-title')).toHaveText(site.says.liveTitle)

      await page.getByTestId('menu-button').click()
      await page.getByTestId('left-menu').getByRole('link', { name: site.says.upcoming }).click()
      await expect(page).toHaveURL(/\/sport\/prematch$/)
      await page.getByTestId('menu-button').click()
      await page.getByTestId('left-menu').getByRole('link', { name: site.says.live }).click()
      await expect(page).toHaveURL(/\/sport\/live$/)
      await expect(page.getByTestId('page-title')).toHaveText(site.says.liveTitle)
    })

    test('the product switcher moves between sport and casino, marking where the punter is', async ({ page, baseURL }) => {
      await page.goto(`${base(site, baseURL!)}/sport/live/popular`)
      const switcher = page.getByTestId('product-switcher')
      await expect(switcher.locator('[data-product="sport"]')).toHaveAttribute('aria-current', 'page')
      await switcher.getByRole('link', { name: site.says.casino, exact: true }).click()
      await expect(page).toHaveURL(/\/casino\/lobby$/)
      await expect(switcher.locator('[data-product="casino"]')).toHaveAttribute('aria-current', 'page')
      await expect(switcher.locator('[data-product="sport"]')).not.toHaveAttribute('aria-current', 'page')
      await switcher.getByRole('link', { name: site.says.sport, exact: true }).click()
      await expect(page).toHaveURL(/\/sport\/live\/popular$/)
      await expect(switcher.locator('[data-product="sport"]')).toHaveAttribute('aria-current', 'page')
    })

    test('My bets, deposit and loss limits, withdrawal and the time-out are in the account panel', async ({ page, baseURL }) => {
      await logInByApi(page, site.punter, `${base(site, baseURL!)}/sport/live/popular`)
      const open = async (link: string) => {
        await page.locator('header.app-header [data-header-item="profile"]').click()
        await page.getByTestId('profile-panel').locator(`[data-profile-link="${link}"]`).click()
      }
      for (const [link, path] of [
        ['myBets', '/account/bets'],
        ['depositLimits', '/account/deposit-limits'],
        ['lossLimits', '/account/loss-limits'],
        ['withdrawal', '/account/withdrawal'],
      ] as const) {
        await open(link)
        await expect(page).toHaveURL(new RegExp(`${path}$`))
        await expect(page.getByTestId('page-title')).toBeVisible()
      }
      await open('timeOut')
      await expect(page).toHaveURL(/\/account\/responsible-gambling#time-out$/)
      await expect(page.locator('#time-out')).toBeInViewport()
      await expect(page.locator('#time-out').getByTestId('take-timeout').first()).toBeVisible()
    })

    test('a guest who changes language stays on the page, now in the other language', async ({ page, baseURL }) => {
      await page.goto(`${base(site, baseURL!)}/account/language`)
      await page.getByRole('button', { name: site.says.otherLanguage }).click()
      await expect(page).toHaveURL(new RegExp(`/${site.otherLocale}/account/language$`))
      await expect(page.getByTestId('page-title')).toHaveText(site.says.languageTitle)
      await expect(page.locator('[data-popup-id="login"]')).toHaveCount(0)
      await expect(page.getByTestId('login-required')).toHaveCount(0)
    })

    test('an event link that names no event is the 404 page; a real one opens that very match', async ({ page, baseURL }) => {
      const answer = await page.goto(`${base(site, baseURL!)}/sport/live/event?id=e999999-no-such-match`)
      expect(answer?.status()).toBe(404)
      await expect(page.getByTestId('error-page')).toHaveAttribute('data-status', '404')
      await expect(page.getByTestId('error-page')).toContainText(site.says.notFound)

      await page.goto(`${base(site, baseURL!)}/sport/live`)
      const card = page.getByTestId('line-events').locator('a.card').nth(1)
      const title = (await card.locator('.card__title').textContent())!
      await card.click()
      const id = new URL(page.url()).searchParams.get('id')!
      // the content API answers the same on every site (Node resolves no *.localhost: asked on the base host)
      const event = (await (await page.request.get(`${baseURL}/api/content/event?section=sport&state=live&id=${id}`)).json()) as { payload: { title: string; home: string; away: string } }
      expect(event.payload.title.replace(/\d+:\d+/, '')).toBe(title.replace(/\d+:\d+/, ''))
      const escaped = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      await expect(page.getByTestId('event-header')).toHaveAttribute('aria-label', new RegExp(`${escaped(event.payload.home)}.*${escaped(event.payload.away)}`))
    })
  })
}
