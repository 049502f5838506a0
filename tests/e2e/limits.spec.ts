/**
 * The limits page at phone size (issue 34 item 6): a fresh punter reads "No limit set" (with the
 * jurisdiction's maximum where it has one, never the maximum as if the punter had set it); a loss
 * limit is set beside the deposit limits; a deposit limit is removed with its own button and shows
 * pending with the date the cooling-off ends. In English on localhost (Curaçao, 24 h) and in
 * Spanish on spain.localhost (72 h). The rules themselves: tests/http/payments/loss-limits.test.ts.
 */
import type { Page } from '@playwright/test'
import { expect, logInByApi, test } from './fixtures'

const HOUR = 3_600_000

/** The server's date text of an instant (server/payments/index.ts dateTimeText), computed here on its own. */
const dateText = (locale: string, at: number) =>
  `${new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' }).format(new Date(at))} UTC`

/** Removes the first deposit limit; answers the date texts the removal may show (the minute of the click, either side). */
async function removeFirstDepositLimit(page: Page, locale: string, hours: number): Promise<RegExp> {
  const before = Date.now()
  await page.getByTestId('limits').getByTestId('limit-remove').first().click()
  await expect(page.getByTestId('limits').getByTestId('limit-pending').first()).toBeVisible()
  const after = Date.now()
  const candidates = new Set([dateText(locale, before + hours * HOUR), dateText(locale, after + hours * HOUR)])
  return new RegExp([...candidates].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'))
}

test.beforeEach(async ({ context, baseURL }) => {
  const port = new URL(baseURL!).port
  await context.addCookies([
    { name: 'ConsentCookie', value: 'necessary', url: baseURL! },
    { name: 'ConsentCookie', value: 'necessary', url: `http://spain.localhost:${port}` },
  ])
})

test('en: a fresh punter reads "No limit set" with the maximum; sets a loss limit; removes a deposit limit and sees it pending until its date', async ({ page }) => {
  await logInByApi(page, 'japan@demo.parlay.test', '/account/deposit-limits')
  const deposit = page.getByTestId('limits')
  const loss = page.getByTestId('loss-limits')
  await expect(deposit.getByTestId('limit-none')).toHaveCount(3)
  await expect(deposit.getByTestId('limit-none').first()).toContainText(/^No limit set \(at most .*50,000\.00.*\)$/)
  await expect(deposit.getByTestId('limit-none').nth(2)).toContainText('250,000.00')
  await expect(deposit.getByTestId('limit-amount')).toHaveCount(0)

  await page.getByTestId('loss-limits-link').click()
  await expect(page).toHaveURL(/\/account\/loss-limits$/)
  await expect(loss.getByTestId('limit-none')).toHaveCount(3)
  await expect(loss.getByTestId('limit-none').first()).toHaveText('No limit set')
  await page.getByLabel('Daily loss limit', { exact: true }).fill('100')
  await page.getByTestId('form-loss-limits').getByTestId('form-submit').click()
  await expect(page.getByTestId('notifications')).toContainText('Your loss limits are saved.')
  await expect(loss.getByTestId('limit-amount').first()).toContainText('100.00')
  await expect(loss.getByTestId('limit-none')).toHaveCount(2)
  await page.getByRole('link', { name: 'Back to deposit limits' }).click()
  await expect(page).toHaveURL(/\/account\/deposit-limits$/)

  // an empty form says what to do instead of "Please correct the highlighted fields"
  await page.getByTestId('form-deposit-limits').getByTestId('form-submit').click()
  await expect(page.getByTestId('form-deposit-limits').getByTestId('form-alert')).toHaveText('Type a new amount, or use “Remove limit” under a limit to remove it.')

  await page.getByLabel('Daily limit', { exact: true }).fill('200')
  await page.getByTestId('form-deposit-limits').getByTestId('form-submit').click()
  await expect(deposit.getByTestId('limit-amount').first()).toContainText('200.00')
  const date = await removeFirstDepositLimit(page, 'en', 24)
  await expect(deposit.getByTestId('limit-pending').first()).toContainText('This limit will be removed on')
  await expect(deposit.getByTestId('limit-pending').first()).toContainText(date)
  await expect(deposit.getByTestId('limit-amount').first()).toContainText('200.00') // still in force until then
  await page.reload()
  await expect(deposit.getByTestId('limit-pending').first()).toContainText(date)
})

test('es on spain.localhost: "Sin límite establecido" for loss limits, Spain\'s statutory deposit limit removed only after 72 h, a loss limit set', async ({ page, baseURL }) => {
  const origin = `http://spain.localhost:${new URL(baseURL!).port}`
  await logInByApi(page, 'spain@demo.parlay.test', `${origin}/account/loss-limits`)
  const deposit = page.getByTestId('limits')
  const loss = page.getByTestId('loss-limits')
  await expect(loss.getByTestId('limit-none')).toHaveCount(3)
  await expect(loss.getByTestId('limit-none').first()).toHaveText('Sin límite establecido')
  await expect(page.getByTestId('loss-limits-rule')).toContainText('72 horas')
  await page.getByLabel('Límite de pérdidas semanal', { exact: true }).fill('2500,5')
  await page.getByTestId('form-loss-limits').getByTestId('form-submit').click()
  await expect(page.getByTestId('notifications')).toContainText('Tus límites de pérdidas se han guardado.')
  await expect(loss.getByTestId('limit-amount').first()).toContainText('2500,50')

  await page.goto(`${origin}/account/deposit-limits`)
  await expect(deposit.getByTestId('limit-amount').first()).toContainText('600,00')

  const date = await removeFirstDepositLimit(page, 'es', 72)
  await expect(deposit.getByTestId('limit-pending').first()).toContainText('Este límite se quitará el')
  await expect(deposit.getByTestId('limit-pending').first()).toContainText(date)
})
