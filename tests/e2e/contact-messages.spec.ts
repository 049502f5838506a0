/**
 * Issue 34 item 3 in the browser at phone size: a logged-in punter sends the contact form on
 * /account/contact-us and reads the message's reference in the thank-you (the translations file's
 * text with the reference in it); support signs in to /admin and finds that message, under that
 * reference and the punter's id, in the contact messages view.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DEMO_ADMINS } from '../../server/admin/accounts'
import { adminLogInByPage, expect, logInByApi, test } from './fixtures'

const support = DEMO_ADMINS.find((a) => a.role === 'support')!
const thanks = (JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'schemas', 'i18n', 'en-journeys.json'), 'utf8')) as { resources: Record<string, string> }).resources['form.done.reference']

test('a punter sends the contact form and reads its reference; support sees the message under it in /admin', async ({ page, browser }) => {
  await logInByApi(page, 'opened@demo.parlay.test', '/account/contact-us')
  const form = page.getByTestId('contact-form')
  await form.getByLabel('Name').fill('Ana Lopez')
  await form.getByLabel('E-mail').fill('ana.contact@example.com')
  await form.getByLabel('Topic').selectOption({ label: 'Payments' })
  await form.getByTestId('form-submit').click()
  const text = `My withdrawal of Friday has not arrived yet (${Date.now()}).`
  await form.getByLabel('Message').fill(text)
  await form.getByRole('checkbox').check()
  await form.getByTestId('form-submit').click()

  const done = page.getByTestId('form-done')
  await expect(done).toHaveAttribute('data-reference', /^C-[2-9A-HJKMNP-Z]{8}$/)
  const reference = (await done.getAttribute('data-reference'))!
  await expect(done).toHaveText(thanks.replace('{{reference}}', reference))

  // the operator app in a browser of its own (the punter's session stays in the first)
  const staff = await browser.newPage({ viewport: { width: 360, height: 740 } })
  await adminLogInByPage(staff, support)
  await staff.getByTestId('admin-contact-link').click()
  const row = staff.getByTestId('contact-messages').locator('tr', { hasText: reference })
  await expect(row).toContainText(text)
  await expect(row).toContainText('payments')
  await expect(row).not.toContainText('anonymous')
  await staff.close()
})
