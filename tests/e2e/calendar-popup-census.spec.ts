/**
 * The census row of the calendar popup (spec §2 modal kind calendar; issue 34 item 9), which the
 * site census cannot reach: the only calendar is Russia's passport "date of issue" on the identity
 * form, shown only to a Russian punter not yet identified (the census's demo punter is). So each
 * locale Russia's jurisdiction document declares gets a fresh sign-up (as identity.spec.ts does),
 * then the identity page in that locale, at 360×740: the census's popup checks (census-popups.ts:
 * named by the field's label, no raw key, close button, within the screen, Escape, focus back),
 * then the calendar's own texts against oracles read apart from the page — button names from
 * schemas/i18n on disk, month and weekday names from Node's Intl for the locale — and a day picked
 * by a tap arriving as the ISO date in the form and in the identification request.
 */
import type { APIRequestContext, Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { siteDocument } from '../support/sites'
import { checkPopupFields } from './census-popups'
import { popupTexts, shippedText } from './census-texts'
import { chooseDate, enterCode, next, signUpByPhone, siteUrl, unique } from './signup-helpers'

test.use({ viewport: { width: 360, height: 740 } })

const RUSSIA = siteDocument('russia')
const ISSUE_DATE = 'forms.identity.passportIssueDate'

/** The text of `key` the locale ships (schemas/i18n on disk); a missing one fails the test. */
function oracle(locale: string, key: string): string {
  const text = shippedText(locale, key)
  expect(text, `${locale} has no text for ${key}`).toBeTruthy()
  return text!
}

const utc = (iso: string) => new Date(`${iso}T00:00:00Z`)
const intl = (locale: string, options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' })
/** Monday to Sunday as the locale abbreviates them (2024-01-01 was a Monday). */
const weekdays = (locale: string) => Array.from({ length: 7 }, (_, i) => intl(locale, { weekday: 'short' }).format(new Date(Date.UTC(2024, 0, 1 + i))))
/** Every English month and weekday name, long and short: none may show under another locale. */
const ENGLISH_DATE_WORDS = [
  ...Array.from({ length: 12 }, (_, m) => [intl('en', { month: 'long' }), intl('en', { month: 'short' })].map((f) => f.format(new Date(Date.UTC(2024, m, 1))))),
  ...Array.from({ length: 7 }, (_, d) => [intl('en', { weekday: 'long' }), intl('en', { weekday: 'short' })].map((f) => f.format(new Date(Date.UTC(2024, 0, 1 + d))))),
].flat()

/** A Russian punter who is not identified: a fresh phone sign-up (signup-helpers, as
 * identity.spec.ts), which leaves the punter logged in on the identity page. */
async function unidentifiedRussianPunter(page: Page, request: APIRequestContext, base: string) {
  await page.goto(siteUrl(base, 'russia', '/en/join'))
  const phone = await signUpByPhone(page, { national: `916${unique()}`, dial: '7', country: 'Russia', skipNames: true })
  await enterCode(page, request, base, phone)
  await expect(page).toHaveURL(/\/account\/tsupis\/identity$/)
}

/** What the open calendar shows: its month line, weekday heads, every accessible name and text. */
const readCalendar = (dialog: Locator) =>
  dialog.evaluate((el) => ({
    month: el.querySelector('.calendar-popup__label')?.textContent?.trim() ?? '',
    weekdays: [...el.querySelectorAll('thead th')].map((th) => th.textContent?.trim() ?? ''),
    words: `${(el as HTMLElement).innerText} ${[...el.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label')).join(' ')}`,
    right: el.getBoundingClientRect().right,
    pageWidth: document.documentElement.scrollWidth,
  }))

/** The calendar's own texts in `locale`, opened on today's month. */
async function expectCalendarInLocale(dialog: Locator, locale: string, today: string) {
  await expect(dialog.getByRole('button', { name: oracle(locale, 'form.calendar.previousMonth'), exact: true })).toBeVisible()
  await expect(dialog.getByRole('button', { name: oracle(locale, 'form.calendar.nextMonth'), exact: true })).toBeVisible()
  await expect(dialog.getByRole('button', { name: oracle(locale, 'common.close'), exact: true })).toBeVisible()
  const shown = await readCalendar(dialog)
  expect(shown.month).toBe(intl(locale, { month: 'long', year: 'numeric' }).format(utc(today)))
  expect(shown.weekdays).toEqual(weekdays(locale))
  if (locale !== 'en') expect(ENGLISH_DATE_WORDS.filter((word) => new RegExp(`\\b${word}\\b`).test(shown.words)), `English date words under ${locale}`).toEqual([])
  expect(shown.right).toBeLessThanOrEqual(360)
  expect(shown.pageWidth).toBeLessThanOrEqual(360)
}

/** The identity form's other fields, named in `locale`, so the form can be sent. */
async function fillIdentity(form: Locator, locale: string) {
  await form.getByRole('combobox', { name: oracle(locale, 'forms.identity.method'), exact: true }).selectOption({ label: oracle(locale, 'forms.identity.method.simplified') })
  await form.getByRole('textbox', { name: oracle(locale, 'forms.identity.lastName'), exact: true }).fill('Ivanova')
  await form.getByRole('textbox', { name: oracle(locale, 'forms.identity.firstName'), exact: true }).fill('Anna')
  await chooseDate(form, oracle(locale, 'forms.identity.birthDay'), '1990-05-17')
  await form.getByRole('textbox', { name: oracle(locale, 'forms.identity.passportSeries'), exact: true }).fill('4510')
  await form.getByRole('textbox', { name: oracle(locale, 'forms.identity.passportNumber'), exact: true }).fill('123456')
  await form.getByRole('checkbox').check()
}

for (const locale of RUSSIA.locales) {
  test(`Russia in ${locale}: the passport date-of-issue calendar is a dialog named in ${locale}, with ${locale} month and weekday names, within 360 px, closed by Escape onto its field, and a tapped day is sent as its ISO date`, async ({ page, request, baseURL }) => {
    await unidentifiedRussianPunter(page, request, baseURL!)
    const prefix = locale === RUSSIA.defaultLocale ? '' : `/${locale}`
    await page.goto(siteUrl(baseURL!, 'russia', `${prefix}/account/tsupis/identity`))
    await expect(page.locator('html')).toHaveAttribute('lang', locale)
    const form = page.getByTestId('identity-form')
    const label = oracle(locale, ISSUE_DATE)
    const field = form.getByRole('button', { name: label, exact: true })
    await expect(field).toBeVisible()

    // the census's row for every popup field on the page (the date of birth's date popup too)
    const census = await checkPopupFields(page, popupTexts(locale), locale)
    expect(census.problems).toEqual([])
    expect(census.kinds).toContain('calendar')

    // the calendar's own texts, opened by a tap on today's month
    const today = await page.evaluate(() => new Date().toISOString().slice(0, 10))
    await field.click()
    const calendar = page.getByRole('dialog', { name: label, exact: true })
    await expect(calendar).toHaveAttribute('data-modal', 'calendar')
    await expectCalendarInLocale(calendar, locale, today)
    await page.keyboard.press('Escape')
    await expect(calendar).toHaveCount(0)
    await expect(field).toBeFocused()

    // a tap: the previous month, then its 15th, named as the locale writes a date
    const picked = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 2, 15)).toISOString().slice(0, 10)
    await field.click()
    await calendar.getByRole('button', { name: oracle(locale, 'form.calendar.previousMonth'), exact: true }).click()
    await calendar.getByRole('button', { name: intl(locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(utc(picked)), exact: true }).click()
    await expect(calendar).toHaveCount(0)
    await expect(field).toHaveText(picked)
    await expect(field).toHaveAttribute('value', picked)

    await fillIdentity(form, locale)
    const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().includes('/identify-punter/'))
    await next(form)
    expect(((await sent).postDataJSON() as { passportIssueDate: string }).passportIssueDate).toBe(picked)
    await expect(page).toHaveURL(/\/account\/deposit\?isAfterSignUp=true$/)
  })
}
