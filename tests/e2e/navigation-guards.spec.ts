/**
 * Navigation guards and the login redirect (spec §2, issue 34 item 7), at phone size with real
 * taps and typing under the production CSP. A guest opening a login-only page gets the login over
 * that page and, once logged in, is on that very page with its query; dismissing the login blocks
 * the navigation and restores history (back where the guest came from, or home). `/login?redirect=`
 * brings the punter to the named page of this site, under the page's language prefix; an address
 * of another site in it (absolute, protocol-relative, a backslash, a script URL) is refused and
 * the punter goes home, never off the site.
 */
import type { Page } from '@playwright/test'
import { DEMO_PASSWORD, expect, test } from './fixtures'

const PUNTER = 'zero@demo.parlay.test'
const profileButton = (page: Page) => page.locator('header.app-header [data-header-item="profile"]')

/** Types the credentials into a login form (the popup's or the page's) and submits it. */
async function typeLogin(form: ReturnType<Page['locator']>, labels = { login: 'E-mail, account number or nickname', password: 'Password' }) {
  await form.getByLabel(labels.login).pressSequentially(PUNTER)
  await form.getByLabel(labels.password).pressSequentially(DEMO_PASSWORD)
  await form.getByTestId('form-submit').click()
}

/** An in-app navigation (the router's own history push): the menus hide login-only links from
 * guests, so this stands for a link to such a page inside the app (a message, a promotion). */
async function goInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    const idx = Number((window.history.state as { idx?: number } | null)?.idx ?? 0) + 1
    window.history.pushState({ usr: null, key: `guard-${idx}`, idx }, '', to)
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }))
  }, path)
}

/** Where a guest lands on the site's root (the default product): what "home" resolves to. */
async function homePath(page: Page): Promise<string> {
  await page.goto('/')
  await expect(page.locator('[data-screen]')).toBeVisible()
  return new URL(page.url()).pathname
}

test.beforeEach(async ({ context, baseURL }) => context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: baseURL! }]))

test('a guest opening a login-only page logs in over it and is on that page with its query', async ({ page }) => {
  await page.goto('/account/deposit?isAfterSignUp=true')
  const popup = page.locator('[role="dialog"][data-popup-id="login"]')
  await expect(popup).toBeVisible()
  await expect(page.getByTestId('deposit-welcome')).toHaveCount(0)
  await typeLogin(popup)
  await expect(profileButton(page)).toBeVisible()
  await expect(popup).toHaveCount(0)
  await expect(page).toHaveURL(/\/account\/deposit\?isAfterSignUp=true$/)
  await expect(page.getByTestId('deposit-welcome')).toBeVisible()
})

test('dismissing the login on a login-only page blocks it: back to the page the guest came from', async ({ page }) => {
  await page.goto('/sport/live/event')
  await expect(page.locator('[data-screen]')).toBeVisible()
  // the app is live (the shell mounted its scroll keeper): its router hears the navigation
  await expect.poll(() => page.evaluate(() => history.scrollRestoration)).toBe('manual')
  await goInApp(page, '/account/bets')
  const popup = page.locator('[role="dialog"][data-popup-id="login"]')
  await expect(popup).toBeVisible()
  await expect(page).toHaveURL(/\/account\/bets$/)
  await page.keyboard.press('Escape')
  await expect(popup).toHaveCount(0)
  await expect(page).toHaveURL(/\/sport\/live\/event$/)
  // history restored: forward still leads to the guarded page, which asks again
  await page.goForward()
  await expect(page).toHaveURL(/\/account\/bets$/)
  await expect(popup).toBeVisible()
})

test('dismissing the login on a login-only page opened first goes home', async ({ page }) => {
  const home = await homePath(page)
  await page.goto('/account/settings')
  const popup = page.locator('[role="dialog"][data-popup-id="login"]')
  await expect(popup).toBeVisible()
  await popup.getByRole('button', { name: 'Close' }).click()
  await expect(page).toHaveURL((url) => url.pathname === home)
})

test('/login?redirect= brings the punter to that page with its query once logged in', async ({ page }) => {
  await page.goto(`/login?redirect=${encodeURIComponent('/account/deposit?isAfterSignUp=true')}`)
  await typeLogin(page.getByTestId('login-form'))
  await expect(page).toHaveURL(/\/account\/deposit\?isAfterSignUp=true$/)
  await expect(page.getByTestId('deposit-welcome')).toBeVisible()
})

test('under a language prefix the redirect keeps it: /ru/login?redirect=/account/settings lands on /ru/account/settings', async ({ page }) => {
  await page.goto(`/ru/login?redirect=${encodeURIComponent('/account/settings')}`)
  await typeLogin(page.getByTestId('login-form'), { login: 'E-mail, номер счёта или никнейм', password: 'Пароль' })
  await expect(page).toHaveURL(/\/ru\/account\/settings$/)
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru')
})

for (const attempt of ['https://evil.example/steal', '//evil.example/steal', '/\\evil.example/steal', 'javascript:alert(document.domain)'])
  test(`an open-redirect attempt ${JSON.stringify(attempt)} in the login redirect is refused: the punter goes home on this site`, async ({ page, baseURL }) => {
    const home = await homePath(page)
    const dialogs: string[] = []
    page.on('dialog', (dialog) => void (dialogs.push(dialog.message()), dialog.dismiss()))
    await page.goto(`/login?redirect=${encodeURIComponent(attempt)}`)
    await typeLogin(page.getByTestId('login-form'))
    await expect(profileButton(page)).toBeVisible()
    await expect(page).toHaveURL((url) => url.origin === new URL(baseURL!).origin && url.pathname === home)
    expect(dialogs).toEqual([])
  })
