/**
 * Spec §4 "Registration by registration token": an OK answer stores the session and goes to the
 * root, and for Russia opens the confirm-registration popup (the jurisdiction document's
 * afterRegistrationTokenLogin). The link's token comes from the server itself: the login of a
 * demo punter whose e-mail is unconfirmed is refused with a confirmation token, as the mailed
 * link carries. No clock or feed matters here; every wait is on a state.
 */
import { DEMO_PASSWORD, expect, test } from './fixtures'
import { siteUrl } from './signup-helpers'

type Refusal = { status: string; errorCode?: string; payload?: { confirmationToken?: string } }

test('Russia: the confirmation link logs the punter in, goes to the root and opens the confirm-registration popup', async ({ page, baseURL }) => {
  await page.goto(siteUrl(baseURL!, 'russia', '/favicon.ico'))
  const refusal = await page.evaluate(async (credentials) => {
    const response = await fetch('/mobile-gate/api/v1/auth/v2/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) })
    return (await response.json()) as Refusal
  }, { login: 'russia.unconfirmed@demo.parlay.test', password: DEMO_PASSWORD })
  expect(refusal.errorCode).toBe('CANNOT_LOGIN_NO_EMAIL_CONFIRMED')
  const token = refusal.payload?.confirmationToken
  expect(token).toBeTruthy()

  await page.goto(siteUrl(baseURL!, 'russia', `/join/confirm-email?token=${encodeURIComponent(token!)}`))
  await expect(page.locator('[data-popup-id="join-confirm-registration"]')).toBeVisible()
  await expect(page).not.toHaveURL(/confirm-email/)
  await expect(page.locator('header.app-header [data-header-item="profile"]')).toBeVisible()
})
