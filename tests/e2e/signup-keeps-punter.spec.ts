/**
 * A sign-up that keeps the punter, and every text filled (issue 31 items 5 and 6), at 360×740 on
 * Spain in Spanish and Curaçao in English:
 * - a direct load of /join, typing at human speed right after the load: every character kept and
 *   the focus never leaves the field (Curaçao's phone, whose country rule arrives mid-typing: its
 *   chunk is held until the punter has typed three digits; Spain's sign-up has no phone, its
 *   first field is the e-mail);
 * - the SMS-code popup (and Spain's closing popup) sits on a surface over a backdrop that covers
 *   the viewport: a real click beside the dialog lands on the backdrop, not on the page;
 * - an under-age birth date and a bad DNI are refused on their own step, in the site's language;
 * - a reload mid-flow keeps the values and the step, never the password;
 * - offline: a page not yet kept shows the offline page with a retry, in the site's language; a
 *   kept page with its promotions keeps them and says the page is offline;
 * - the deposit minimum's text shows the number.
 */
import type { BrowserContext, Locator, Page, Route } from '@playwright/test'
import { expect, logInByApi, test } from './fixtures'
import { PASSWORD, chooseDate, curacaoAccount, curacaoPersonal, next, siteUrl, unique } from './signup-helpers'

const PHONE_RULE_CHUNK = /\/assets\/phone-rule-[^/]*\.js$/

async function consentGiven(context: BrowserContext, urls: string[]) {
  await context.addCookies(urls.map((url) => ({ name: 'ConsentCookie', value: 'necessary', url })))
}

/** The last birth date of a punter `years` old today (local calendar): the day after is under age. */
function latestOfAge(years: number): { year: number; month: number; day: number } {
  const d = new Date()
  return { year: d.getFullYear() - years, month: d.getMonth() + 1, day: d.getDate() }
}

/** The date popup offers no under-age birth date (spec §2 date, the jurisdiction's minimum age):
 * its newest year is `years` back, and in that month the last day offered is today's. Closed again
 * by Escape, focus back on the field. */
async function expectNoUnderAgeDate(form: Locator, label: string, years: number) {
  const page = form.page()
  const field = form.getByRole('button', { name: label, exact: true })
  await field.click()
  const dialog = page.getByRole('dialog', { name: label })
  const latest = latestOfAge(years)
  await expect(dialog.locator('[data-part="year"] [role="option"]').first()).toHaveAttribute('data-value', String(latest.year))
  await dialog.locator(`[data-part="year"] [role="option"][data-value="${latest.year}"]`).click()
  await dialog.locator(`[data-part="month"] [role="option"][data-value="${latest.month}"]`).click()
  await expect(dialog.locator('[data-part="day"] [role="option"]:not([disabled])').last()).toHaveAttribute('data-value', String(latest.day))
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await expect(field).toBeFocused()
}

const digits = (text: string) => text.replace(/\D/g, '')
/** The DNI check letter of 8 digits (the Ministry's table), computed here. */
const dni = (number: string) => `${number}${'TRWAGMYFPDXBNJZSQVHLCKE'[Number(number) % 23]}`

/** Spain's first step, typed as a punter types; returns the form. */
async function spainAccount(page: Page, email: string): Promise<Locator> {
  const form = page.getByTestId('join-form-email')
  await form.getByLabel('Correo electrónico').fill(email)
  await form.getByRole('textbox', { name: 'Contraseña', exact: true }).fill(PASSWORD)
  await form.getByRole('combobox', { name: 'País' }).selectOption({ label: 'España' })
  await next(form)
  await expect(form).toHaveAttribute('data-step', 'personal')
  return form
}

/** Curaçao's phone flow up to the code popup; returns the dialog. */
async function curacaoToCodePopup(page: Page): Promise<Locator> {
  const form = page.getByTestId('join-form-phone')
  await curacaoAccount(form, `9${unique()}`)
  await curacaoPersonal(form)
  await form.getByRole('checkbox').check()
  await next(form)
  const dialog = page.locator('[data-popup-id="join-code-verification"]')
  await expect(dialog).toBeVisible()
  return dialog
}

/** The popup has its own opaque surface, and a backdrop covering the viewport takes a real click beside it. */
async function expectBackdrop(page: Page, dialog: Locator) {
  const overlay = page.getByTestId('popup-overlay')
  expect(await overlay.boundingBox()).toEqual({ x: 0, y: 0, width: 360, height: 740 })
  const surface = await dialog.evaluate((el) => getComputedStyle(el).backgroundColor)
  expect(surface).toMatch(/^rgb\(/) // rgb(): opaque; the transparent custom popup was rgba(0, 0, 0, 0)
  const box = (await dialog.boundingBox())!
  // a point of the page outside the dialog: above it, or below it
  const point = box.y > 20 ? { x: 180, y: Math.floor(box.y / 2) } : { x: 180, y: Math.ceil(box.y + box.height + (740 - box.y - box.height) / 2) }
  await page.evaluate(() => {
    ;(window as unknown as { clicked?: string }).clicked = undefined
    document.addEventListener('click', (event) => ((window as unknown as { clicked?: string }).clicked = (event.target as Element).className), { capture: true, once: true })
  })
  await page.mouse.click(point.x, point.y)
  expect(await page.evaluate(() => (window as unknown as { clicked?: string }).clicked)).toBe('popup-overlay')
}

test.beforeEach(async ({ context, baseURL }) => {
  const port = new URL(baseURL!).port
  await consentGiven(context, [baseURL!, `http://spain.localhost:${port}`, `http://curacao.localhost:${port}`])
})

test.describe('typing right after a direct load of /join', () => {
  test('Curaçao (en): a phone typed at human speed keeps every digit and the focus while the country rule arrives', async ({ page, baseURL }) => {
    let release: (() => void) | undefined
    const held = new Promise<Route>((resolve) => void page.route(PHONE_RULE_CHUNK, (route) => resolve(route)))
    void held.then((route) => (release = () => void route.continue()))
    await page.goto(siteUrl(baseURL!, 'curacao', '/join'))
    const phone = page.getByTestId('join-form-phone').locator('#root_phoneNumber')
    const number = `9${unique()}`
    await phone.click()
    await page.keyboard.type(number.slice(0, 3), { delay: 120 })
    await held
    release!()
    await page.keyboard.type(number.slice(3), { delay: 120 })
    await expect(phone).toBeFocused()
    await expect.poll(async () => digits(await phone.inputValue())).toBe(number)
    // the rule has arrived: the country select is live and the number is shown with its mask
    await expect(page.getByTestId('join-form-phone').locator('.form-phone')).not.toHaveAttribute('aria-busy', 'true')
    await expect(phone).toBeFocused()
  })

  test('Spain (es): the e-mail typed at human speed right after the load keeps every character and the focus', async ({ page, baseURL }) => {
    await page.goto(siteUrl(baseURL!, 'spain', '/join'))
    const email = page.getByTestId('join-form-email').getByLabel('Correo electrónico')
    const typed = `lucia${unique()}@example.es`
    await email.click()
    await page.keyboard.type(typed, { delay: 60 })
    await expect(email).toBeFocused()
    await expect(email).toHaveValue(typed)
  })
})

test.describe('every popup has a backdrop', () => {
  test('Curaçao (en): the SMS-code popup is on a surface over a backdrop covering the page', async ({ page, baseURL }) => {
    await page.goto(siteUrl(baseURL!, 'curacao', '/join'))
    const dialog = await curacaoToCodePopup(page)
    await expect(dialog.getByRole('textbox', { name: 'Code' })).toBeVisible()
    await expectBackdrop(page, dialog)
  })

  test('Spain (es): the closing popup of the sign-up is on a surface over a backdrop', async ({ page, baseURL }) => {
    await page.goto(siteUrl(baseURL!, 'spain', '/join'))
    const form = await spainAccount(page, `lucia${unique()}@example.es`)
    await form.getByRole('textbox', { name: 'Nombre', exact: true }).fill('Lucía')
    await form.getByLabel('Apellidos').fill('García')
    await chooseDate(form, 'Fecha de nacimiento', '1990-05-17')
    await form.getByRole('textbox', { name: 'DNI / NIE' }).fill(dni(`4${unique()}`))
    await next(form)
    await form.getByRole('checkbox').check()
    await next(form)
    const dialog = page.locator('[data-popup-id="join-thank-you-for-registration"]')
    await expect(dialog).toBeVisible()
    await expectBackdrop(page, dialog)
  })
})

test.describe('every field is checked at its own step', () => {
  test('Spain (es): an under-age birth date is not offered and a bad DNI is refused on the personal step, in Spanish; corrected, the step is left', async ({ page, baseURL }) => {
    await page.goto(siteUrl(baseURL!, 'spain', '/join'))
    const form = await spainAccount(page, `lucia${unique()}@example.es`)
    await form.getByRole('textbox', { name: 'Nombre', exact: true }).fill('Lucía')
    await form.getByLabel('Apellidos').fill('García')
    await expectNoUnderAgeDate(form, 'Fecha de nacimiento', 18)
    await chooseDate(form, 'Fecha de nacimiento', '1990-05-17')
    await form.getByRole('textbox', { name: 'DNI / NIE' }).fill('12345678A')
    await next(form)
    await expect(form.locator('[data-field="documentNumber"] .form-error')).toHaveText('Revisa el número.')
    await expect(form).toHaveAttribute('data-step', 'personal')
    await form.getByRole('textbox', { name: 'DNI / NIE' }).fill('12345678Z')
    await next(form)
    await expect(form).toHaveAttribute('data-step', 'confirm')
  })

  test('Curaçao (en): an under-age birth date is not offered on the personal step', async ({ page, baseURL }) => {
    await page.goto(siteUrl(baseURL!, 'curacao', '/join'))
    const form = page.getByTestId('join-form-phone')
    await curacaoAccount(form, `9${unique()}`)
    await expectNoUnderAgeDate(form, 'Date of birth', 18)
    await expect(form).toHaveAttribute('data-step', 'personal')
  })
})

test.describe('progress kept across a reload', () => {
  test('Spain (es): a reload on the personal step keeps the values and the step; back on the first step the e-mail is there and the password is not', async ({ page, baseURL }) => {
    await page.goto(siteUrl(baseURL!, 'spain', '/join'))
    const email = `lucia${unique()}@example.es`
    const form = await spainAccount(page, email)
    await form.getByRole('textbox', { name: 'Nombre', exact: true }).fill('Lucía')
    await chooseDate(form, 'Fecha de nacimiento', '1990-05-17')
    await page.reload()
    const again = page.getByTestId('join-form-email')
    await expect(again).toHaveAttribute('data-step', 'personal')
    await expect(again.getByRole('textbox', { name: 'Nombre', exact: true })).toHaveValue('Lucía')
    await expect(again.getByLabel('Fecha de nacimiento')).toHaveAttribute('value', '1990-05-17')
    await again.getByRole('button', { name: 'Atrás' }).click()
    await expect(again.getByLabel('Correo electrónico')).toHaveValue(email)
    await expect(again.getByRole('textbox', { name: 'Contraseña', exact: true })).toHaveValue('')
    expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain(PASSWORD)
  })

  test('Curaçao (en): a reload on the personal step keeps the phone and the step, not the password', async ({ page, baseURL }) => {
    await page.goto(siteUrl(baseURL!, 'curacao', '/join'))
    const form = page.getByTestId('join-form-phone')
    const number = `9${unique()}`
    await curacaoAccount(form, number)
    await expect(form).toHaveAttribute('data-step', 'personal')
    await page.reload()
    const again = page.getByTestId('join-form-phone')
    await expect(again).toHaveAttribute('data-step', 'personal')
    await again.getByRole('button', { name: 'Back' }).click()
    await expect.poll(async () => digits(await again.getByLabel('Mobile phone').inputValue())).toBe(number)
    await expect(again.getByRole('textbox', { name: 'Password', exact: true })).toHaveValue('')
    expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain(PASSWORD)
  })
})

test.describe('offline', () => {
  test.use({ serviceWorkers: 'allow' })

  /** Visits `url` until the service worker controls the page and has kept it. */
  async function visitUntilKept(page: Page, url: string, screen: string) {
    await page.goto(url)
    await expect(page.locator(`[data-screen="${screen}"]`)).toBeVisible()
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 30_000 }).toBe(true)
    await expect.poll(() => page.evaluate(async () => (await caches.match(location.href)) !== undefined), { timeout: 30_000 }).toBe(true)
  }

  test('Spain (es): a page not yet kept, loaded offline, is the offline page with a retry in Spanish; the retry works once back online', async ({ page, context, baseURL }) => {
    await visitUntilKept(page, siteUrl(baseURL!, 'spain', '/es/casino/lobby'), 'casino-lobby')
    await context.setOffline(true)
    await page.goto(siteUrl(baseURL!, 'spain', '/join'))
    await expect(page.getByTestId('offline-page')).toContainText('Estás sin conexión')
    await expect(page.getByTestId('offline-banner')).toBeVisible()
    await context.setOffline(false)
    await page.getByTestId('offline-page').getByRole('button', { name: 'Reintentar' }).click()
    await expect(page.getByTestId('join-form-email')).toBeVisible()
  })

  test('Curaçao (en): an offline reload of a page not yet kept is the offline page; a kept promotions page keeps its offers and says it is offline', async ({ page, context, baseURL }) => {
    await visitUntilKept(page, siteUrl(baseURL!, 'curacao', '/casino/promotions'), 'casino-promotions')
    const offers = page.getByTestId('promotions').locator('li')
    const shown = await offers.count()
    expect(shown).toBeGreaterThan(0)
    await context.setOffline(true)
    await page.reload()
    await expect(page.getByTestId('offline-banner')).toHaveText('You are offline. You see what was last loaded; it updates when you are back online.')
    await expect(offers).toHaveCount(shown)
    await page.goto(siteUrl(baseURL!, 'curacao', '/sport/results'))
    await expect(page.getByTestId('offline-page')).toContainText('You are offline')
    await expect(page.getByTestId('offline-page').getByRole('button', { name: 'Try again' })).toBeVisible()
  })
})

test.describe('the deposit minimum says the number', () => {
  test('Spain (es): an amount under the card minimum says «Introduce 10 o más.»', async ({ page, baseURL }) => {
    const spain = siteUrl(baseURL!, 'spain', '/account/deposit')
    await logInByApi(page, 'spain@demo.parlay.test', spain)
    await page.getByTestId('deposit-method').filter({ hasText: 'Tarjeta bancaria' }).click()
    await page.getByLabel('Importe').fill('5')
    await page.getByTestId('form-submit').click()
    await expect(page.locator('[data-field="amount"] .form-error')).toHaveText('Introduce 10 o más.')
  })

  test('Curaçao (en): an amount under the card minimum says «Enter 10 or more.»', async ({ page }) => {
    await logInByApi(page, 'opened@demo.parlay.test', '/account/deposit')
    await page.getByTestId('deposit-method').filter({ hasText: 'Bank card' }).click()
    await page.getByLabel('Amount').fill('5')
    await page.getByTestId('form-submit').click()
    await expect(page.locator('[data-field="amount"] .form-error')).toHaveText('Enter 10 or more.')
  })
})
