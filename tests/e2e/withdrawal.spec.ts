/**
 * Withdrawal in the browser (issue 28 item 5), at 360×740 as demo punters: the profile panel's
 * Withdraw link, a withdrawal waiting pending with its Cancel button, the money back once
 * cancelled; and a Spanish punter whose identity is not verified, told so on the page and refused
 * with the reason. The rules themselves (withdrawable money, parallel withdrawals, each
 * jurisdiction's sources and limits, the provider paying or failing) are HTTP tests in
 * tests/http/payments/withdrawal.test.ts.
 */
import type { Page } from '@playwright/test'
import { expect, logInByApi, test } from './fixtures'

const notice = (page: Page) => page.getByTestId('notifications')
const amountOf = (page: Page, testId: string) => page.getByTestId(testId).locator('data')

test.beforeEach(async ({ context, baseURL }) => {
  await context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: baseURL! }])
})

test('a punter withdraws from the profile panel, sees the withdrawal pending, cancels it, and the balance is back', async ({ page }) => {
  // the login is not what this test checks: a stored session, as after a reload
  await logInByApi(page, 'opened@demo.parlay.test', '/account/deposit')
  await page.locator('header.app-header').getByRole('button', { name: 'Account menu' }).click()
  await page.getByRole('dialog', { name: 'Your account' }).getByRole('link', { name: 'Withdraw' }).click()
  await expect(page).toHaveURL(/\/account\/withdrawal$/)
  await expect(amountOf(page, 'withdrawal-balance')).toHaveAttribute('value', '150')
  await expect(amountOf(page, 'withdrawal-withdrawable')).toHaveAttribute('value', '150')
  // Curaçao asks for a verified identity only above 2,000: said on the page, nothing refused here
  await expect(page.getByTestId('withdrawal-identity-above')).toHaveText('Withdrawals of more than 2000 USD need a verified identity.')

  await page.getByTestId('withdrawal-method').filter({ hasText: 'Bank card' }).click()
  await expect(page.getByTestId('withdrawal-chosen-method')).toHaveText('Paying out to: Bank card')
  await page.getByLabel('Amount').fill('40')
  await page.getByTestId('form-submit').click()
  await expect(notice(page)).toContainText('Your withdrawal of 40 USD is on its way. You can cancel it while it is pending.')
  await expect(page).toHaveURL(/\/account\/withdrawal$/)
  await expect(amountOf(page, 'withdrawal-balance')).toHaveAttribute('value', '110')
  await expect(amountOf(page, 'withdrawal-pending-amount')).toHaveAttribute('value', '40')
  // a reload still shows it pending (it is the server's, not the page's)
  await page.reload()
  await expect(amountOf(page, 'withdrawal-pending-amount')).toHaveAttribute('value', '40')

  await page.getByTestId('withdrawal-cancel').click()
  await expect(notice(page)).toContainText('Withdrawal cancelled: 40 USD is back in your balance.')
  await expect(page.getByTestId('withdrawal-pending-section')).toHaveCount(0)
  await expect(amountOf(page, 'withdrawal-balance')).toHaveAttribute('value', '150')
  await expect(amountOf(page, 'withdrawal-withdrawable')).toHaveAttribute('value', '150')
})

test('a Spanish punter whose identity is not verified is told so on the page, and a withdrawal is refused with the reason; nothing leaves the balance', async ({ page, server }) => {
  const spain = `http://spain.localhost:${new URL(server.url).port}`
  await logInByApi(page, 'spain@demo.parlay.test', `${spain}/en/account/withdrawal`)
  await expect(page.getByTestId('withdrawal-identity-always')).toHaveText('Your identity must be verified before you can withdraw.')
  await expect(amountOf(page, 'withdrawal-balance')).toHaveAttribute('value', '150')

  await page.getByTestId('withdrawal-method').filter({ hasText: 'Bank card' }).click()
  await page.getByLabel('Amount').fill('20')
  await page.getByTestId('form-submit').click()
  await expect(notice(page)).toContainText('Please verify your identity before you withdraw this amount.')
  await expect(page.getByTestId('withdrawal-pending-section')).toHaveCount(0)
  await page.reload()
  await expect(amountOf(page, 'withdrawal-balance')).toHaveAttribute('value', '150')
})
