/**
 * Issue 9: a punter who saved another language logs in on a page in the site's language. The
 * login does what the language page does (spec §2: a locale change reloads the page with the code
 * in the path) instead of switching the texts in place, and the after-login rules still run,
 * after that reload.
 */
import { expect, test } from './fixtures'

const PASSWORD = 'parlay-demo-1'
const GATE = '/mobile-gate/api/v1'

test('a punter who saved Russian logs in on an English page: it reloads under /ru, in Russian, and the after-login popup still shows', async ({ page, request }) => {
  // the punter chose Russian on an earlier visit (saved server-side)
  const login = await request.post(`${GATE}/auth/v2/login`, { data: { login: 'zero@demo.parlay.test', password: PASSWORD } })
  const { accessToken, punterHash } = (await login.json()).payload as { accessToken: string; punterHash: string }
  const headers = { authorization: `Bearer ${accessToken}`, 'punter-session-hash': punterHash }
  const saved = await request.put(`${GATE}/punter/settings`, { data: { locale: 'ru' }, headers })
  expect(saved.status()).toBe(200)

  await page.goto('/login')
  const form = page.getByTestId('login-form')
  await form.getByLabel('E-mail, account number or nickname').fill('zero@demo.parlay.test')
  await form.getByLabel('Password').fill(PASSWORD)
  await form.getByTestId('form-submit').click()

  await expect(page).toHaveURL(/\/ru(\/|$)/)
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru')
  await expect(page.locator('[data-popup-id="null-balance"]')).toBeVisible()
})
