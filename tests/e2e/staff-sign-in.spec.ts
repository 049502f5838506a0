/**
 * Staff sign-in with a second factor in real Chromium at phone size (issue 30 item 1): a demo admin
 * types the code their authenticator shows; an admin made with `npm run admin:create` sets up the
 * authenticator on the first sign-in (the key shown as text and as a QR code, the code typed), keeps the ten
 * recovery codes shown once, and later signs in with one of them — which then no longer works.
 * The account page changes the password. Codes are computed from the key the page shows, as an
 * authenticator app does. No page breaks the site's CSP.
 */
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Locator, Page } from '@playwright/test'
import jsQR from 'jsqr'
import { DEMO_ADMINS } from '../../server/admin/accounts'
import { totpCode } from '../support/totp'
import { adminLogInByPage, expect, test } from './fixtures'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const operator = DEMO_ADMINS.find((a) => a.role === 'operator')!

function cspWatch(page: Page): string[] {
  const violations: string[] = []
  page.on('console', (m) => m.text().includes('Content Security Policy') && violations.push(m.text()))
  return violations
}

/** The text of the QR code an <img> shows, read from its pixels as a phone's camera would (jsQR). */
async function scanQr(page: Page, image: Locator): Promise<string | undefined> {
  await expect(image).toBeVisible()
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
  const pixels = await image.evaluate((img: HTMLImageElement) => {
    const canvas = document.createElement('canvas')
    canvas.width = img.naturalWidth
    canvas.height = img.naturalHeight
    const context = canvas.getContext('2d')!
    context.drawImage(img, 0, 0)
    const data = context.getImageData(0, 0, canvas.width, canvas.height)
    return { width: data.width, height: data.height, data: Array.from(data.data) }
  })
  return jsQR(Uint8ClampedArray.from(pixels.data), pixels.width, pixels.height)?.data
}

async function passwordStep(page: Page, who: { email: string; password: string }): Promise<void> {
  await page.goto('/admin')
  await page.getByTestId('admin-email').fill(who.email)
  await page.getByTestId('admin-password').fill(who.password)
  await page.getByTestId('admin-login').click()
}

test('at phone size a demo admin signs in with the code their authenticator shows, and the page shows the signed audit checkpoint', async ({ page }) => {
  const violations = cspWatch(page)
  await passwordStep(page, operator)
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible()
  await page.getByTestId('admin-code').fill('000000' === totpCode(operator.totpSecret) ? '111111' : '000000')
  await page.getByTestId('admin-code-submit').click()
  await expect(page.getByRole('alert')).toHaveText(/Wrong code/)
  await page.getByTestId('admin-code').fill(totpCode(operator.totpSecret))
  await page.getByTestId('admin-code-submit').click()
  // signed in, an operator works in the studio, which shows the signed checkpoint under its header
  await expect(page).toHaveURL(/\/admin\/studio$/)
  await expect(page.getByTestId('studio-who')).toContainText('Olga Operator')
  await expect(page.getByTestId('audit-checkpoint')).toContainText(/Audit log checkpoint: \d+ entries/)
  expect(violations).toEqual([])
})

test('at phone size a new admin sets up the authenticator at the first sign-in from a QR code that decodes to the otpauth URI of the key shown, keeps the recovery codes, signs in later with one, and it is spent', async ({ page, server }) => {
  const violations = cspWatch(page)
  const who = { email: 'phone.admin@example.com', password: 'a phone-sized passphrase' }
  const made = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'tools', 'admin-accounts.ts'), 'create'], {
    cwd: ROOT,
    env: { ...process.env, PARLAY_DATA_DIR: join(dirname(server.documentsDir), 'data'), PARLAY_ADMIN_EMAIL: who.email, PARLAY_ADMIN_ROLE: 'support', PARLAY_ADMIN_PASSWORD: who.password },
    encoding: 'utf8',
  })
  expect(made.stdout).toContain(`Created support ${who.email}`)

  await passwordStep(page, who)
  await expect(page.getByRole('heading', { name: 'Set up two-factor sign-in' })).toBeVisible()
  const key = (await page.getByTestId('admin-totp-secret').textContent())!
  await expect(page.getByTestId('admin-totp-uri')).toHaveAttribute('href', new RegExp(`^otpauth://totp/.*secret=${key}`))
  // the QR code an authenticator app scans: decoded (jsQR) from the pixels the page shows
  const scanned = await scanQr(page, page.getByTestId('admin-totp-qr'))
  expect(scanned).toBe(await page.getByTestId('admin-totp-uri').getAttribute('href'))
  expect(new URL(scanned!).searchParams.get('secret')).toBe(key)
  await page.getByTestId('admin-code').fill(totpCode(key))
  await page.getByTestId('admin-code-submit').click()
  // the codes arrive with the server's answer: wait for them, then read them
  await expect(page.getByTestId('admin-recovery-codes').locator('code')).toHaveCount(10)
  const codes = await page.getByTestId('admin-recovery-codes').locator('code').allTextContents()
  expect(codes).toHaveLength(10)
  await page.getByTestId('admin-continue').click()
  await expect(page.getByTestId('admin-who')).toContainText('(support)')
  await page.getByTestId('admin-account-link').click()
  await page.locator('#logout').click()
  // signed out when the sign-in page is back (a new navigation before then aborts the logout's own)
  await expect(page.getByTestId('admin-login')).toBeVisible()

  await passwordStep(page, who)
  await page.getByTestId('admin-use-recovery').click()
  await page.getByTestId('admin-recovery-code').fill(codes[3])
  await page.getByTestId('admin-code-submit').click()
  await expect(page.getByTestId('admin-recovery-left')).toContainText('9 left')
  await page.getByTestId('admin-continue').click()
  await expect(page.getByTestId('admin-who')).toBeVisible()
  await page.goto('/admin/account')
  await page.locator('#logout').click()
  // signed out when the sign-in page is back (a new navigation before then aborts the logout's own)
  await expect(page.getByTestId('admin-login')).toBeVisible()

  await passwordStep(page, who)
  await page.getByTestId('admin-use-recovery').click()
  await page.getByTestId('admin-recovery-code').fill(codes[3])
  await page.getByTestId('admin-code-submit').click()
  await expect(page.getByRole('alert')).toHaveText(/Wrong code, or a code already used/)
  expect(violations).toEqual([])
})

test('at phone size an admin changes their password on the account page', async ({ page }) => {
  const compliance2 = DEMO_ADMINS.find((a) => a.email === 'compliance2@parlay.test')!
  await adminLogInByPage(page, compliance2)
  await page.getByTestId('admin-account-link').click()
  await expect(page.getByTestId('account-two-factor')).toContainText('Two-factor sign-in set up')
  await page.getByTestId('account-current-password').fill(compliance2.password)
  await page.getByTestId('account-new-password').fill('short one')
  await page.getByTestId('account-change-password').click()
  await expect(page.getByTestId('account-result')).toHaveText('The new password needs at least 15 characters.')
  await page.getByTestId('account-current-password').fill(compliance2.password)
  await page.getByTestId('account-new-password').fill('compliance two, a new passphrase')
  await page.getByTestId('account-change-password').click()
  await expect(page.getByTestId('account-result')).toHaveText('Password changed. 0 other session(s) signed out.')
  await page.getByRole('link', { name: 'Back' }).click()
  await expect(page.getByTestId('studio-who')).toContainText('(compliance)')
})
