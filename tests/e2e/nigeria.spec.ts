/**
 * Nigeria's regional variant in the browser at phone size (spec §1, issue 34): nigeria.localhost is
 * its own English site in naira; sign-up takes a Nigerian mobile (its own flow's phone rule), sends
 * the SMS code and lands on the deposit page as the site's afterSignUp says, amounts in naira.
 */
import { siteDocument } from '../support/sites'
import { expect, test } from './fixtures'
import { PASSWORD, finishPhoneSignUp, next, siteUrl, unique } from './signup-helpers'

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
  await finishPhoneSignUp(page, request, baseURL!, `+234${national}`, { first: 'Chiamaka', last: 'Okafor', birthDay: '1992-03-14' })
  // the site's own payment sources and bounds, in naira (English names the currency by its code)
  const sources = siteDocument('nigeria').payments as { sources: { minimum: number; maximum: number }[] }
  const naira = (n: number) => `₦${n.toLocaleString('en', { minimumFractionDigits: 2 })}` // the jurisdiction document's currencyDisplay: narrowSymbol
  for (const source of sources.sources) await expect(page.getByRole('link', { name: new RegExp(`From ${naira(source.minimum)} to ${naira(source.maximum)}`) })).toBeVisible()
})
