/**
 * Messages in the browser (issue 15 items 1 and 5): the inbox pages 20 at a time and marking a
 * message read makes the unread count fall in the header and on the page; a message an operator
 * sends in the studio reaches the punter's open page as a notification, over the punter socket; a
 * message to a segment waits until a second admin approves it in /admin.
 */
import type { Browser, Page } from '@playwright/test'
import { DEMO_ADMINS } from '../../server/admin/accounts'
import { adminLogInByPage, expect, logInByApi, test, type StaffLogin } from './fixtures'

const operator = DEMO_ADMINS.find((a) => a.email === 'operator@parlay.test')!
const compliance = DEMO_ADMINS.find((a) => a.email === 'compliance@parlay.test')!

async function adminPage(browser: Browser, baseURL: string, who: StaffLogin): Promise<Page> {
  const page = await (await browser.newContext({ baseURL })).newPage()
  await adminLogInByPage(page, who)
  await page.getByTestId('studio-tab-messages').click()
  await expect(page.getByRole('heading', { name: 'Messages to punters' })).toBeFocused()
  return page
}

test('the inbox shows 20 messages a page; marking one read makes the unread count fall in the header and on the page', async ({ page }) => {
  await logInByApi(page, 'opened@demo.parlay.test', '/account/messages')
  await expect(page.getByTestId('header-unread')).toHaveText('3')
  const inbox = page.getByTestId('inbox')
  await expect(inbox.getByTestId('mark-read')).toHaveCount(3)
  await expect(inbox.locator('> *')).toHaveCount(20)
  await expect(page.getByTestId('inbox-page')).toHaveText('Page 1 of 2')
  await inbox.getByTestId('mark-read').first().click()
  await expect(page.getByTestId('header-unread')).toHaveText('2')
  await expect(page.getByTestId('inbox-unread')).toHaveText('Unread: 2')
  await expect(inbox.getByTestId('mark-read')).toHaveCount(2)
  await page.getByTestId('inbox-next').click()
  await expect(page.getByTestId('inbox-page')).toHaveText('Page 2 of 2')
  await expect(inbox.locator('> *')).toHaveCount(3)
  await page.reload()
  await expect(page.getByTestId('header-unread')).toHaveText('2') // kept on the server
})

test('a message an operator sends to one punter reaches the open page as a notification; a segment message waits for a second admin', async ({ page, browser, server }) => {
  test.slow() // two admin pages and a punter page on a busy machine
  await logInByApi(page, 'vip@demo.parlay.test', '/sport/live/popular')
  const op = await adminPage(browser, server.url, operator)
  // a refused send says why, and nothing is sent: an account number is digits
  await op.getByTestId('message-account').fill('10x')
  await op.getByTestId('message-text').fill('Your cash-back is ready')
  await op.getByTestId('message-send').click()
  await expect(op.getByRole('alert')).toContainText('Something in the form is not valid.')
  await op.getByTestId('message-account').fill('10000008')
  await op.getByTestId('message-kind').selectOption('EXTERNAL')
  await op.getByTestId('message-text').fill('Your cash-back is ready')
  await op.getByTestId('message-send').click()
  await expect(page.getByTestId('notifications')).toContainText('Your cash-back is ready')

  const unread = Number(await page.getByTestId('header-unread').textContent())
  await op.getByTestId('message-audience').selectOption('segment')
  await op.getByTestId('message-jurisdiction').fill('curacao')
  await op.getByTestId('message-kind').selectOption('INBOX')
  await op.getByTestId('message-text').fill('Curaçao: new markets this weekend')
  await op.getByTestId('message-send').click()
  await expect(op.getByTestId('message-row').first()).toHaveAttribute('data-status', 'PENDING_APPROVAL')
  await expect(op.getByTestId('message-row').first().getByTestId('message-approve')).toHaveCount(0) // not the author's to approve
  const co = await adminPage(browser, server.url, compliance)
  await co.getByTestId('message-row').first().getByTestId('message-approve').click()
  await expect(co.getByTestId('message-row').first()).toHaveAttribute('data-status', 'DELIVERED')
  await expect(page.getByTestId('header-unread')).toHaveText(String(unread + 1))
  await op.context().close()
  await co.context().close()
})
