/**
 * Spec §2 catch-alls and old links in the browser: the redirects document decides where a punter
 * lands, query strings travel along, an affiliate link stores the referer id (spec §9) for the
 * sign-up payload, and the pages behind the new routes show real content.
 */
import { expect, test } from './fixtures'

// guest pages only, nothing stored on the server: the worker's shared server
test.use({ serverScope: 'worker' })

// the first test of a worker also starts its server; on a shared machine that is slow
test.describe.configure({ timeout: 60_000 })

test('/casino lands on the casino lobby (a (*) path is a catch-all)', async ({ page }) => {
  const response = await page.goto('/casino')
  expect(response?.status()).toBe(200)
  await expect(page).toHaveURL(/\/casino\/lobby$/)
  await expect(page.getByTestId('lobby-title')).toHaveText('Casino lobby')
})

test('an unknown deep path under a catch-all lands on the nearest sensible page, keeping the locale prefix', async ({ page }) => {
  await page.goto('/ru/casino/old/games/page')
  await expect(page).toHaveURL(/\/ru\/casino\/lobby$/)
  await expect(page.getByTestId('lobby-title')).toBeVisible()
})

test('/affiliate-link?refererId=… stores the referer id and goes on to the root, query string kept', async ({ page }) => {
  await page.goto('/affiliate-link?refererId=partner_42&utm_source=news')
  await expect(page).toHaveURL(/\/sport\/live\/popular\?refererId=partner_42&utm_source=news$/)
  expect(await page.evaluate(() => window.localStorage.getItem('parlay.refererId'))).toBe('partner_42')
})

test('an old password link keeps its token: /changepassword?token=… opens the change-password page with it', async ({ page }) => {
  await page.goto('/changepassword?token=abc123')
  await expect(page).toHaveURL(/\/change-password\?token=abc123$/)
})

test('/emailconfirm?token=… goes to the confirm-e-mail flow with the token', async ({ page }) => {
  await page.goto('/emailconfirm?token=tok-1')
  await expect(page).toHaveURL(/\/join\/confirm-email\?token=tok-1$/)
  await expect(page.getByTestId('page-title')).toBeVisible()
})

test('a path no screen or redirect serves is still the 404 page', async ({ page }) => {
  const response = await page.goto('/info/no-such-page')
  expect(response?.status()).toBe(404)
  await expect(page.getByTestId('error-page')).toContainText('404')
})

test('the live line lists matches with scores; an event opens with its markets', async ({ page }) => {
  await page.goto('/sport/live')
  const events = page.getByTestId('line-events').getByRole('link')
  await expect(events.first()).toContainText(/\d+:\d+/)
  await events.first().click()
  await expect(page).toHaveURL(/\/sport\/live\/event\?id=/)
  // the live feed decides how many markets an event offers (by sport); each shows its prices
  await expect(page.getByTestId('event-markets').getByRole('listitem').first()).toBeVisible()
  await expect(page.getByTestId('market-odds').first().getByRole('button').first()).toContainText(/\d/)
})

test('results show finished matches with scores and dates, in the page locale', async ({ page }) => {
  await page.goto('/es/sport/results')
  await expect(page.getByTestId('page-title')).toHaveText('Resultados')
  await expect(page.getByTestId('sport-results').getByRole('listitem').first()).toContainText('Finalizado')
})

test('a product promotions page lists that product’s promotions (the promotion documents of schemas/promotions)', async ({ page }) => {
  await page.goto('/casino/promotions')
  await expect(page.getByTestId('promotions').getByRole('listitem')).toHaveCount(1)
  await expect(page.getByTestId('promotions')).toContainText('Casino welcome package')
  await expect(page.getByTestId('promotions')).not.toContainText('Accumulator boost')
})

test('favourites ask a guest to log in and offer games to add', async ({ page }) => {
  await page.goto('/live-casino/favorites')
  await expect(page.getByTestId('favourites-login')).toContainText('Log in to keep your favourites')
  await expect(page.getByTestId('favourites-suggested').getByRole('listitem').first()).toBeVisible()
})

test('an info page has headings and several paragraphs, in the site language', async ({ page, baseURL }) => {
  await page.goto(baseURL!.replace('localhost', 'denmark.localhost') + '/info/responsible-gambling')
  await expect(page.getByTestId('page-title')).toHaveText('Ansvarligt spil')
  await expect(page.locator('main h2')).not.toHaveCount(0)
  expect(await page.locator('main p.text-body').count()).toBeGreaterThanOrEqual(4)
})
