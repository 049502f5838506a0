/**
 * The deposit-limit counter in the browser counts only credited money (issue 28 item 6;
 * docs/adr/0006-deposit-limit-counts-credited-money.md): a deposit left open at the provider shows
 * as "in progress", not as deposited, and holds the limit until it is cancelled; then it is gone.
 * The rules themselves are HTTP tests (tests/http/payments/limit-counter.test.ts).
 */
import type { Page } from '@playwright/test'
import { expect, logInByApi, test } from './fixtures'

const notice = (page: Page) => page.getByTestId('notifications')

async function startCardDeposit(page: Page, amount: string) {
  await page.goto('/account/deposit')
  await page.getByTestId('deposit-method').filter({ hasText: 'Bank card' }).click()
  await page.getByLabel('Amount').fill(amount)
  await page.getByTestId('form-submit').click()
}

test.beforeEach(async ({ context, baseURL }) => context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: baseURL! }]))

test('a deposit left at the provider shows as in progress, not as deposited, holds the limit, and is gone once cancelled', async ({ page }) => {
  await logInByApi(page, 'domain@demo.parlay.test')
  await page.goto('/account/deposit-limits')
  await page.getByLabel('Daily limit').first().fill('100')
  await page.getByTestId('form-submit').click()
  await expect(notice(page)).toContainText('Your deposit limits are saved.')

  await startCardDeposit(page, '60')
  await expect(page.getByTestId('pay-amount')).toHaveText('60.00 USD')
  const checkout = page.url()

  // the punter leaves the provider's page without paying
  await page.goto('/account/deposit-limits')
  const inProgress = page.getByTestId('limit-in-progress').first()
  await expect(inProgress).toContainText('Payments in progress')
  await expect(inProgress).toContainText('60')

  await startCardDeposit(page, '50')
  await expect(page.getByTestId('form-alert')).toHaveText('This is above your daily deposit limit.')

  // back at the provider's page, the punter cancels: the reservation is released
  await page.goto(checkout)
  await page.getByTestId('pay-cancel').click()
  await expect(page).toHaveURL(/\/account\/deposit/)
  await page.goto('/account/deposit-limits')
  await expect(page.getByTestId('limit-amount').first()).toContainText('100')
  await expect(page.getByTestId('limit-in-progress')).toHaveCount(0)
  await startCardDeposit(page, '100')
  await expect(page.getByTestId('pay-amount')).toHaveText('100.00 USD')
})
