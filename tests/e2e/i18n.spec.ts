/**
 * Languages in the browser: every site shows its own language with no raw keys, a language the
 * site lacks a text in falls back without showing a key, and the denied-login date is filled and
 * shown in the locale's format — in the form and in the notice.
 */
import { expect, test } from './fixtures'
import { siteUrl } from './signup-helpers'

// each test loads several pages and fresh translations; a shared, busy machine needs headroom
test.describe.configure({ timeout: 90_000 })

const RAW_KEY = /\b(shell|lobby|menu|footer|page|popup|server|form|auth|section)\.[A-Za-z][\w.-]*/

test('Denmark speaks Danish and Belarus offers Belarusian, with no raw keys', async ({ page, baseURL }) => {
  await page.goto(siteUrl(baseURL!, 'denmark', '/casino/lobby'))
  await expect(page.getByRole('heading', { name: 'Casinolobby' })).toBeVisible()
  await expect(page.locator('html')).toHaveAttribute('lang', 'da')
  expect(await page.locator('body').innerText()).not.toMatch(RAW_KEY)

  await page.goto(siteUrl(baseURL!, 'belarus', '/be/sport/live/popular'))
  await expect(page.getByRole('heading', { name: 'Лайв і папулярнае' })).toBeVisible()
  await expect(page.locator('html')).toHaveAttribute('lang', 'be')
  expect(await page.locator('body').innerText()).not.toMatch(RAW_KEY)
})

test('a text Belarusian lacks shows in Russian, the Belarus site default, never as its key', async ({ page, baseURL, editDocument }) => {
  await editDocument('i18n/be.json', (doc) => delete (doc.resources as Record<string, string>)['lobby.sport.title'])
  await page.goto(siteUrl(baseURL!, 'belarus', '/be/sport/live/popular'))
  await expect(page.getByRole('heading', { name: 'Лайв и популярное' })).toBeVisible()
  expect(await page.locator('body').innerText()).not.toContain('lobby.sport.title')
})

test('a denied login names the date it ends, in the locale format, in the form and the notice', async ({ page }) => {
  await page.goto('/login')
  const form = page.getByTestId('login-form')
  await form.getByLabel('E-mail, account number or nickname').fill('denied@demo.parlay.test')
  await form.getByLabel('Password').fill('parlay-demo-1')
  await form.getByTestId('form-submit').click()
  const date = /until \d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}\./
  await expect(form.getByText(date)).toBeVisible()
  await expect(page.getByTestId('notifications')).toContainText(date)
  await expect(page.locator('body')).not.toContainText('{{')
  await expect(page.locator('body')).not.toContainText(/\d{4}-\d{2}-\d{2}T/)
})
