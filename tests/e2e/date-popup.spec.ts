/**
 * The date popup (spec §2 modal kind "date"; issue 34 item 7) on the sign-up's date of birth, at
 * 360×740 under the production CSP, driven as a punter does: by keyboard on Curaçao in English
 * (month, day, year), by taps on Russia in Russian (day, month, year). The oracle is the date the
 * punter read in their language, read back by that language's way of writing it, against the
 * ISO date the sign-up request carries and the server stored (the punters table of the server's
 * own database): 05.03.1990 in ru is 1990-03-05, 03/05/1990 in en is 1990-03-05. The newest year
 * offered is the jurisdiction document's minimum age back (Belarus 21, the others 18).
 */
import Database from 'better-sqlite3'
import { dirname, join } from 'node:path'
import type { Locator, Page, Request } from '@playwright/test'
import { expect, test } from './fixtures'
import { lastMessage, next, PASSWORD, siteUrl, unique } from './signup-helpers'
import { siteDocument } from '../support/sites'

const SIGNUP_BEGIN = /\/signup\/(phone\/)?begin$|\/signup\/email$/

/** Every CSP violation the page reports, and the site's CSP allows no eval. */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const w = window as unknown as { cspViolations: string[] }
    w.cspViolations = []
    document.addEventListener('securitypolicyviolation', (e) => w.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`))
  })
  page.on('response', (response) => {
    const csp = response.headers()['content-security-policy']
    if (response.request().resourceType() === 'document') expect(csp, 'the page is served under the CSP').toMatch(/script-src 'self'/), expect(csp).not.toContain('unsafe-eval')
  })
  return () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)
}

/** The birth date the server stored for a phone number (the server's own SQLite file). */
function storedBirthDay(documentsDir: string, phone: string): string | null {
  const db = new Database(join(dirname(documentsDir), 'data', 'parlay.db'), { readonly: true, fileMustExist: true })
  try {
    return (db.prepare('SELECT birth_day FROM punters WHERE phone = ?').get(phone) as { birth_day: string | null } | undefined)?.birth_day ?? null
  } finally {
    db.close()
  }
}

/** What the punter read, read back as their language writes dates (day/month order by hand). */
const readBack = (shown: string, order: 'dmy' | 'mdy') => {
  const [a, b, year] = shown.split(/[./]/)
  const [day, month] = order === 'dmy' ? [a, b] : [b, a]
  return `${year}-${month}-${day}`
}

const focusedValue = (dialog: Locator, part: string) => dialog.locator(`[data-part="${part}"] [role="option"]:focus`).getAttribute('data-value')

/** The phone sign-up's first step, in whatever language the page speaks. */
async function phoneAccount(form: Locator, national: string, country: string) {
  await form.locator('input[type="tel"]').fill(national)
  await form.locator('input[type="password"]').fill(PASSWORD)
  await form.locator('[data-field="countryId"] select').selectOption({ label: country })
  await next(form)
}

/** The code popup: the SMS from the outbox typed in, the popup gone (the punter is stored). */
async function confirmCode(page: Page, request: Parameters<typeof lastMessage>[0], base: string, phone: string) {
  const dialog = page.locator('[data-popup-id="join-code-verification"]')
  await expect(dialog).toBeVisible()
  const code = /\b(\d{6})\b/.exec((await lastMessage(request, base, phone)).body)?.[1]
  await dialog.locator('input').first().fill(code!)
  await dialog.getByTestId('form-submit').click()
  await expect(dialog).toHaveCount(0)
}

test.beforeEach(async ({ context, baseURL }) =>
  context.addCookies(['curacao', 'russia', 'belarus'].map((site) => ({ name: 'ConsentCookie', value: 'necessary', url: siteUrl(baseURL!, site, '/') }))),
)

test('Curaçao (en), by keyboard: the date of birth is picked as month, day and year in a labelled dialog; 03/05/1990 is stored as 1990-03-05', async ({ page, request, baseURL, server }) => {
  const violations = await watchCsp(page)
  await page.goto(siteUrl(baseURL!, 'curacao', '/join'))
  const form = page.getByTestId('join-form-phone')
  const national = `9${unique()}`
  await phoneAccount(form, national, 'Curaçao')
  await form.getByLabel('First name').fill('Ana')
  await form.getByLabel('Last name').fill('Lopez')
  const field = form.getByRole('button', { name: 'Date of birth', exact: true })
  await field.focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name: 'Date of birth' })
  await expect(dialog).toHaveAttribute('aria-modal', 'true')
  // English writes the month first: the lists are month, day, year, each named
  expect(await dialog.locator('[role="listbox"]').evaluateAll((lists) => lists.map((l) => document.getElementById(l.getAttribute('aria-labelledby') ?? '')?.textContent))).toEqual(['Month', 'Day', 'Year'])
  // focus is trapped; Escape closes without a choice and gives focus back to the field
  for (let i = 0; i < 8; i++) await page.keyboard.press('Tab')
  expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true)
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await expect(field).toBeFocused()
  await expect(field).toHaveText('Choose a date…')

  await page.keyboard.press('Enter')
  await expect(dialog.locator('[data-part="month"] [role="option"]:focus')).toHaveCount(1)
  await page.keyboard.press('Home')
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  expect(await focusedValue(dialog, 'month')).toBe('3')
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('Home')
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown')
  expect(await focusedValue(dialog, 'day')).toBe('5')
  await page.keyboard.press('ArrowRight')
  while (Number(await focusedValue(dialog, 'year')) > 1990) await page.keyboard.press('ArrowDown')
  await expect(dialog.getByTestId('date-popup-chosen')).toHaveText('03/05/1990')
  await page.keyboard.press('Enter')
  await expect(dialog).toHaveCount(0)
  await expect(field).toBeFocused()
  const shown = (await field.textContent()) ?? ''
  expect(shown).toBe('03/05/1990')

  const begin = page.waitForRequest((r: Request) => r.method() === 'POST' && SIGNUP_BEGIN.test(new URL(r.url()).pathname))
  await next(form)
  await form.getByRole('checkbox').check()
  await next(form)
  expect(((await begin).postDataJSON() as { birthDay: string }).birthDay).toBe(readBack(shown, 'mdy'))
  await confirmCode(page, request, baseURL!, `+599${national}`)
  expect(storedBirthDay(server.documentsDir, `+599${national}`)).toBe(readBack(shown, 'mdy'))
  expect(await violations()).toEqual([])
})

test('Russia (ru), by taps: the date of birth is picked as day, month and year; 05.03.1990 is stored as 1990-03-05, not 1990-05-03', async ({ page, request, baseURL, server }) => {
  const violations = await watchCsp(page)
  await page.goto(siteUrl(baseURL!, 'russia', '/join'))
  const form = page.getByTestId('join-form-phone')
  const national = `916${unique()}`
  await phoneAccount(form, national, 'Россия')
  const label = 'Дата рождения'
  const field = form.getByRole('button', { name: label, exact: true })
  await field.click()
  const dialog = page.getByRole('dialog', { name: label })
  expect(await dialog.locator('[role="listbox"]').evaluateAll((lists) => lists.map((l) => document.getElementById(l.getAttribute('aria-labelledby') ?? '')?.textContent))).toEqual(['День', 'Месяц', 'Год'])
  // the popup fits the phone: nothing wider than the 360 px screen
  expect(await dialog.evaluate((el) => el.getBoundingClientRect().right <= window.innerWidth && el.scrollWidth <= el.clientWidth)).toBe(true)
  await dialog.getByRole('option', { name: '1990', exact: true }).click()
  await dialog.getByRole('option', { name: 'март', exact: true }).click()
  await dialog.getByRole('option', { name: '05', exact: true }).click()
  await expect(dialog.getByTestId('date-popup-chosen')).toHaveText('05.03.1990')
  await dialog.getByRole('button', { name: 'Готово' }).click()
  await expect(dialog).toHaveCount(0)
  const shown = (await field.textContent()) ?? ''
  expect(shown).toBe('05.03.1990')

  const begin = page.waitForRequest((r: Request) => r.method() === 'POST' && SIGNUP_BEGIN.test(new URL(r.url()).pathname))
  await next(form)
  await form.getByRole('checkbox').check()
  await next(form)
  expect(((await begin).postDataJSON() as { birthDay: string }).birthDay).toBe(readBack(shown, 'dmy'))
  await confirmCode(page, request, baseURL!, `+7${national}`)
  await expect(page).toHaveURL(/\/account\//)
  expect(storedBirthDay(server.documentsDir, `+7${national}`)).toBe('1990-03-05')
  expect(await violations()).toEqual([])
})

test('Belarus (be): the newest birth year offered is the jurisdiction document\'s minimum age back (21), not 18', async ({ page, baseURL }) => {
  await page.goto(siteUrl(baseURL!, 'belarus', '/be/join'))
  const form = page.getByTestId('join-form-phone')
  await phoneAccount(form, `29${unique()}`, 'Беларусь')
  const field = form.locator('[data-field="birthDay"] button[aria-haspopup="dialog"]')
  await field.click()
  const dialog = page.getByRole('dialog')
  const newest = new Date().getFullYear() - (siteDocument('belarus').minimumAge as number)
  await expect(dialog.locator('[data-part="year"] [role="option"]').first()).toHaveAttribute('data-value', String(newest))
  await expect(dialog.getByRole('button', { name: 'Гатова' })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
})
