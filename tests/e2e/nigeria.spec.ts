/**
 * Nigeria's regional variant in the browser at phone size (spec §1, issue 34): nigeria.localhost is
 * its own English site in naira; sign-up takes a Nigerian mobile (its own flow's phone rule), sends
 * the SMS code and lands on the deposit page as the site's afterSignUp says, amounts in naira.
 */
import type { Page } from '@playwright/test'
import { siteDocument } from '../support/sites'
import { expect, test } from './fixtures'
import { PASSWORD, accept, lastMessage, next, siteUrl, unique } from './signup-helpers'

const loggedIn = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('sessionHash') ?? 'null') !== null)

test('Nigeria: a Nigerian mobile signs up in English, confirms the SMS code and lands on the deposit page in naira; a landline is refused on the phone field', async ({ page, request, baseURL }) => {
  await page.goto(siteUrl(baseURL!, 'nigeria', '/join'))
  await expect(page.locator('html')).toHaveAttribute('lang', 'en')
  await expect(page.getByTestId('page-title')).toHaveText('Sign up')
  const form = page.getByTestId('join-form-phone')
  const country = form.getByRole('combobox', { name: 'Country', exact: true })
  await expect(country.locator('option')).toHaveText(['Choose…', 'Nigeria'])
  await country.selectOption({ label: 'Nigeria' })

  // a Lagos landline (01 …) is not a mobile: the step does not move on
  await form.getByLabel('Mobile phone').fill('12345678')
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD)
  await next(form)
  await expect(form.getByLabel('First name')).toHaveCount(0)
  await expect(form.locator('[data-field="phoneNumber"] .form-error')).toBeVisible()
  await expect(form.getByLabel('Mobile phone')).toHaveAttribute('aria-invalid', 'true')

  const national = `803${unique()}`
  await form.getByLabel('Mobile phone').fill(national)
  await next(form)
  await expect(form.getByLabel('First name')).toBeVisible()
  await form.getByLabel('First name').fill('Chiamaka')
  await form.getByLabel('Last name').fill('Okafor')
  await form.getByLabel('Date of birth').fill('1992-03-14')
  await next(form)
  await accept(form)

  const dialog = page.locator('[data-popup-id="join-code-verification"]')
  await expect(dialog).toBeVisible()
  const sms = await lastMessage(request, baseURL!, `+234${national}`)
  const code = /\b(\d{6})\b/.exec(sms.body)?.[1]
  expect(code).toBeTruthy()
  await dialog.getByRole('textbox', { name: 'Code' }).fill(code!)
  await dialog.getByTestId('form-submit').click()
  await expect(dialog).toHaveCount(0)
  await expect(page).toHaveURL(/\/account\/deposit\?isAfterSignUp=true$/)
  await expect(page.getByTestId('deposit-welcome')).toBeVisible()
  expect(await loggedIn(page)).toBe(true)
  // the site's own payment sources and bounds, in naira (English names the currency by its code)
  const sources = siteDocument('nigeria').payments as { sources: { minimum: number; maximum: number }[] }
  const naira = (n: number) => `NGN ${n.toLocaleString('en', { minimumFractionDigits: 2 })}`
  for (const source of sources.sources) await expect(page.getByRole('link', { name: new RegExp(`From ${naira(source.minimum)} to ${naira(source.maximum)}`) })).toBeVisible()
})
