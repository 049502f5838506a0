/**
 * The header, profile panel, footer, cookie consent and error pages (issue 9 items 3–4; spec §2
 * header/footer/error page, §3 consent cookie and account settings, §9 profile close delay), in
 * Chromium at phone size against the real server and the demo punters.
 */
import type { BrowserContext, Page } from '@playwright/test'
import { expect, test } from './fixtures'

// the file's first test also waits for its server to start (validators compile at start)
test.describe.configure({ timeout: 60_000 })

const PASSWORD = 'parlay-demo-1'
const CONSENT_DAYS = 182

/** Most tests are not about the banner: answer it up front, as a returning punter has. */
async function consentGiven(context: BrowserContext, baseURL: string | undefined) {
  await context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: baseURL! }])
}

const header = (page: Page) => page.locator('header.app-header')
const headerItem = (page: Page, name: string) => header(page).locator(`[data-header-item="${name}"]`)
const panel = (page: Page) => page.getByTestId('profile-panel')

async function logIn(page: Page, login: string, path = '/sport/live/popular') {
  await page.goto(path)
  await headerItem(page, 'login').click()
  const dialog = page.locator('[data-popup-id="login"]').or(page.getByRole('dialog'))
  await dialog.getByLabel('E-mail, account number or nickname').fill(login)
  await dialog.getByLabel('Password').fill(PASSWORD)
  await dialog.getByTestId('form-submit').click()
  await expect(headerItem(page, 'profile')).toBeVisible()
}

test.describe('with consent given', () => {
  test.beforeEach(async ({ context, baseURL }) => consentGiven(context, baseURL))

  test('a guest sees Log in and Sign up: Log in opens the login popup, Sign up goes to /join', async ({ page }) => {
    await page.goto('/sport/live/popular')
    await expect(header(page).getByRole('button', { name: 'Log in' })).toBeVisible()
    await expect(header(page).getByRole('link', { name: 'Sign up' })).toBeVisible()
    await expect(headerItem(page, 'balance')).toHaveCount(0)
    await header(page).getByRole('button', { name: 'Log in' }).click()
    await expect(page.getByRole('dialog')).toContainText('E-mail, account number or nickname')
    await page.keyboard.press('Escape')
    await expect(page.getByRole('dialog')).toHaveCount(0)
    await header(page).getByRole('link', { name: 'Sign up' }).click()
    await expect(page).toHaveURL(/\/join$/)
    await expect(page.getByTestId('page-title')).toHaveText('Sign up')
  })

  test('a punter sees the balance in the locale money format and a deposit button to /account/deposit; no guest buttons; at 360 px the brand is not cut beside the inbox', async ({ page }) => {
    await logIn(page, 'opened@demo.parlay.test')
    await expect(headerItem(page, 'balance')).toHaveText(/^Balance\s*\$150\.00$/)
    await expect(header(page).getByRole('link', { name: 'Deposit' })).toHaveAttribute('href', '/account/deposit')
    await expect(headerItem(page, 'login')).toHaveCount(0)
    await expect(headerItem(page, 'signup')).toHaveCount(0)
    // the fullest punter header: balance, Deposit, the inbox with its unread count, the avatar
    await expect(page.getByTestId('header-unread')).toBeVisible()
    const brand = header(page).locator('.app-header__brand')
    expect(await brand.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
  })

  test('after a reload the header shows a same-size placeholder while the session restores, never the guest buttons', async ({ page }) => {
    await logIn(page, 'opened@demo.parlay.test')
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/mobile-gate/api/v1/heartbeat', async (route) => {
      await held
      await route.continue()
    })
    await page.reload()
    const placeholder = page.getByTestId('header-placeholder')
    await expect(placeholder).toBeVisible()
    await expect(headerItem(page, 'login')).toHaveCount(0)
    const headerHeight = (await header(page).boundingBox())!.height
    release()
    await expect(headerItem(page, 'balance')).toHaveText(/\$150\.00/)
    await expect(placeholder).toHaveCount(0)
    expect((await header(page).boundingBox())!.height).toBe(headerHeight)
  })

  test('the avatar opens the profile panel with name and account number; Escape closes it and focus returns to the avatar', async ({ page }) => {
    await logIn(page, 'opened@demo.parlay.test')
    const avatar = header(page).getByRole('button', { name: 'Account menu' })
    await expect(avatar).toHaveAttribute('aria-expanded', 'false')
    await avatar.click()
    await expect(avatar).toHaveAttribute('aria-expanded', 'true')
    const dialog = page.getByRole('dialog', { name: 'Your account' })
    await expect(dialog).toBeVisible()
    await expect(page.getByTestId('profile-name')).toHaveText('Opened')
    await expect(page.getByTestId('profile-account-number')).toHaveText('Account 10000001')
    for (const name of ['Settings', 'Deposit', 'Loss limits', 'Loyalty and bonuses', 'Offers', 'Language', 'Contact us']) await expect(dialog.getByRole('link', { name, exact: true })).toBeVisible()
    await expect(dialog.getByRole('button', { name: 'Log out' })).toBeVisible()
    await expect.poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('#profile-panel')))).toBe(true)
    await page.keyboard.press('Escape')
    await expect(avatar).toBeFocused()
    await expect(panel(page)).toHaveCount(0)
  })

  test('choosing a profile link navigates at once and the panel closes 400 ms later', async ({ page }) => {
    await logIn(page, 'opened@demo.parlay.test')
    await headerItem(page, 'profile').click()
    // the page's timers are fake and time stands still from here: only runFor moves it
    await page.clock.install()
    await page.clock.pauseAt(Date.now() + 5_000)
    await panel(page).getByRole('link', { name: 'Settings' }).click()
    await expect(page).toHaveURL(/\/account\/settings$/)
    await page.clock.runFor(399)
    await expect(panel(page)).toHaveCount(1)
    await page.clock.runFor(1)
    await expect(panel(page)).toHaveCount(0)
  })

  test('logout from the profile panel ends the session: the guest buttons come back', async ({ page }) => {
    await logIn(page, 'opened@demo.parlay.test')
    await headerItem(page, 'profile').click()
    await panel(page).getByRole('button', { name: 'Log out' }).click()
    await expect(header(page).getByRole('button', { name: 'Log in' })).toBeVisible()
    await expect(headerItem(page, 'balance')).toHaveCount(0)
    await expect(panel(page)).toHaveCount(0)
    await page.reload()
    await expect(header(page).getByRole('button', { name: 'Log in' })).toBeVisible()
  })

  test('a VIP punter with showVipStatusAvatar gets the VIP avatar; an ordinary punter the default one', async ({ page }) => {
    await logIn(page, 'vip@demo.parlay.test')
    await expect(headerItem(page, 'profile').getByTestId('avatar')).toHaveAttribute('data-avatar', 'vip')
    await headerItem(page, 'profile').click()
    await expect(page.getByTestId('profile-avatar-large')).toHaveAttribute('data-avatar', 'vip')
    await panel(page).getByRole('button', { name: 'Log out' }).click()
    await logIn(page, 'opened@demo.parlay.test')
    await expect(headerItem(page, 'profile').getByTestId('avatar')).toHaveAttribute('data-avatar', 'default')
  })

  test('the server-side setting showCurrentBalance off hides the balance; the deposit button stays', async ({ page }) => {
    await logIn(page, 'opened@demo.parlay.test')
    await expect(headerItem(page, 'balance')).toBeVisible()
    const status = await page.evaluate(async () => {
      const session = JSON.parse(localStorage.getItem('session') ?? '{}') as { accessToken?: string }
      const hash = JSON.parse(localStorage.getItem('sessionHash') ?? 'null') as string | null
      const response = await fetch('/mobile-gate/api/v1/punter/settings', {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${session.accessToken}`, ...(hash ? { 'punter-session-hash': hash } : {}) },
        body: JSON.stringify({ showCurrentBalance: false }),
      })
      return response.status
    })
    expect(status).toBe(200)
    await page.reload()
    await expect(headerItem(page, 'deposit')).toBeVisible()
    await expect(headerItem(page, 'balance')).toHaveCount(0)
  })

  test('the footer has the 23 items of spec §2 for a punter; settings and payments are hidden from guests', async ({ page }) => {
    await page.goto('/sport/live/popular')
    const items = page.getByTestId('footer-links').locator('[data-footer-item]')
    await expect(items).toHaveCount(21)
    await expect(page.locator('[data-footer-item="settings"], [data-footer-item="payments"]')).toHaveCount(0)
    await logIn(page, 'opened@demo.parlay.test')
    await expect(items).toHaveCount(23)
    await expect(page.locator('[data-footer-item="settings"]')).toHaveAttribute('href', '/account/settings')
  })
})

test('the cookie banner appears on a first visit, keeps the choice for 182 days across a reload, and "manage cookies" reopens it', async ({ page, context }) => {
  await page.goto('/sport/live/popular')
  const banner = page.getByRole('region', { name: 'Cookies' })
  await expect(banner).toBeVisible()
  // the server's banner is replaced by React's (its buttons live from then on)
  await expect(banner.getByRole('button', { name: 'Accept all' })).toBeEnabled()
  // a bottom sheet: the header and the first content are not under it
  const sheet = (await banner.boundingBox())!
  expect(sheet.y + sheet.height).toBeCloseTo(740, 0)
  expect(sheet.y).toBeGreaterThan(740 / 2)
  await banner.getByRole('button', { name: 'Accept all' }).click()
  await expect(banner).toHaveCount(0)
  const cookie = (await context.cookies()).find((c) => c.name === 'ConsentCookie')
  expect(cookie?.value).toBe('all')
  const days = (cookie!.expires - Date.now() / 1000) / 86_400
  expect(days).toBeGreaterThan(CONSENT_DAYS - 1)
  expect(days).toBeLessThanOrEqual(CONSENT_DAYS)
  await page.reload()
  await expect(page.getByTestId('footer-links')).toBeVisible()
  await expect(banner).toHaveCount(0)
  await page.locator('[data-footer-item="manageCookies"]').click()
  await expect(banner).toBeVisible()
  await banner.getByRole('button', { name: 'Necessary only' }).click()
  await expect(banner).toHaveCount(0)
  expect((await context.cookies()).find((c) => c.name === 'ConsentCookie')?.value).toBe('necessary')
})

test('400: a page URL with broken percent-encoding answers the Bad Request page, with a way home', async ({ page, context, baseURL }) => {
  await consentGiven(context, baseURL)
  const response = await page.goto('/casino/%E0%A4%A')
  expect(response?.status()).toBe(400)
  const errorPage = page.getByTestId('error-page')
  await expect(errorPage).toContainText('400')
  await expect(errorPage).toContainText('Bad Request')
  await expect(header(page).getByRole('button', { name: 'Log in' })).toBeVisible()
  await errorPage.getByRole('link', { name: 'Go to the home page' }).click()
  await expect(page.getByTestId('error-page')).toHaveCount(0)
})

test('405: a POST to a page answers the Method Not Allowed page; an API path keeps the JSON envelope', async ({ page, context, baseURL, request }) => {
  await consentGiven(context, baseURL)
  await page.goto('/sport/live/popular')
  await expect(headerItem(page, 'login')).toBeVisible()
  // a real form POST from the page, as a browser would send it
  const navigation = page.waitForResponse((r) => r.url().endsWith('/casino/lobby') && r.request().method() === 'POST')
  await page.evaluate(() => {
    const form = document.createElement('form')
    form.method = 'POST'
    form.action = '/casino/lobby'
    document.body.append(form)
    form.submit()
  })
  expect((await navigation).status()).toBe(405)
  const errorPage = page.getByTestId('error-page')
  await expect(errorPage).toContainText('405')
  await expect(errorPage).toContainText('Method Not Allowed')
  await expect(errorPage.getByRole('link', { name: 'Go to the home page' })).toBeVisible()

  const html = await request.post('/casino/lobby')
  expect(html.status()).toBe(405)
  expect(html.headers()['content-type']).toContain('text/html')
  expect(html.headers().allow).toBe('GET, HEAD')
  expect(await html.text()).toContain('Method Not Allowed')
  const api = await request.post('/api/no-such-thing', { data: {} })
  expect(api.headers()['content-type']).toContain('application/json')
  expect(await api.json()).toMatchObject({ status: 'ERROR' })
})
