/**
 * Credentials in the browser (issue 13 item 6/7): a forgotten password recovered by the e-mail
 * link read from the outbox, then used to log in; and a password change that logs the punter's
 * other browser out while this one stays. Demo punters of localhost (Curaçao); the spec file has
 * its own server, so the changed passwords stay here.
 */
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'

const DEMO_PASSWORD = 'parlay-demo-1'

async function logIn(page: Page, login: string, password: string) {
  await page.goto('/login')
  const form = page.getByTestId('login-form')
  await form.getByLabel('E-mail, account number or nickname').fill(login)
  await form.getByLabel('Password').fill(password)
  await form.getByTestId('form-submit').click()
  await expect(page.getByTestId('logged-in-as')).toBeVisible({ timeout: 30_000 })
}

test.beforeEach(() => test.slow())

test('a forgotten password is recovered by the e-mail link from the outbox, and the new password logs in', async ({ page }) => {
  const punter = 'opened@demo.parlay.test'
  await page.goto('/account/lost-password')
  const form = page.getByTestId('password-recovery-form')
  await form.getByLabel('E-mail or phone number').fill(punter)
  await form.getByTestId('form-submit').click()
  await expect(page).toHaveURL(/\/account\/checking-email-sent$/)

  let body = ''
  await expect
    .poll(async () => {
      const answer = (await (await page.request.get(`/api/dev/outbox?to=${encodeURIComponent(punter)}`)).json()) as { payload: { messages: { subject: string; body: string }[] } }
      body = answer.payload.messages.find((m) => m.subject === 'Reset your Parlay password')?.body ?? ''
      return body
    }, { timeout: 30_000 })
    .toContain('/change-password?token=')
  const link = new URL(/https?:\/\/\S+/.exec(body)![0])
  await page.goto(link.pathname + link.search)

  const reset = page.getByTestId('password-reset-form')
  await reset.getByLabel(/^New password/).fill('recovered by mail 42')
  await reset.getByTestId('form-submit').click()
  await expect(page).toHaveURL(/\/login$/)
  await logIn(page, punter, 'recovered by mail 42')

  // the link worked once: opened again it says so
  await page.goto(link.pathname + link.search)
  await expect(page.getByTestId('password-link-invalid')).toBeVisible()
})

test('changing the password logs the other browser out; the browser that changed it stays logged in', async ({ browser, page }) => {
  const punter = 'vip@demo.parlay.test'
  await logIn(page, punter, DEMO_PASSWORD)
  const other = await browser.newContext({ baseURL: new URL(page.url()).origin, viewport: { width: 360, height: 740 }, serviceWorkers: 'block' })
  const phone = await other.newPage()
  try {
    await logIn(phone, punter, DEMO_PASSWORD)

    await page.goto('/account/settings')
    await page.getByTestId('settings-change-password').click()
    const form = page.getByTestId('password-change-form')
    await form.getByLabel(/^Current password/).fill(DEMO_PASSWORD)
    await form.getByLabel(/^New password/).fill('changed on this phone 7')
    await form.getByTestId('form-submit').click()
    await expect(page).toHaveURL(/\/account\/settings$/)

    // the other browser is told at once over its punter socket (accountLogout, issue 14) and shows
    // the session-expired popup where it is; navigating first would race that message
    await expect(phone.locator('[data-popup-id="session-expired"]')).toBeVisible({ timeout: 30_000 })
    await phone.goto('/account/settings')
    await expect(phone.locator('[data-header-item="login"]')).toBeVisible()

    await page.reload()
    await expect(page.getByTestId('settings-credentials')).toBeVisible({ timeout: 30_000 })
    await page.goto('/login')
    await expect(page.getByTestId('logged-in-as')).toBeVisible()
  } finally {
    await other.close()
  }
})
