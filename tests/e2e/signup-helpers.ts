/**
 * Shared by the sign-up journeys: each site is http://<jurisdiction>.localhost:<port>; codes and
 * confirmation links come from the dev outbox (GET /api/dev/outbox?to=…).
 */
import type { APIRequestContext, Locator, Page } from '@playwright/test'
import { expect } from './fixtures'

export const PASSWORD = 'a quiet orange lantern 42'
let counter = 0
export const unique = () => `${Date.now() % 1_000_000}${++counter}`.padStart(7, '0').slice(-7)

export function siteUrl(base: string, jurisdiction: string, path: string): string {
  const url = new URL(base)
  return `${url.protocol}//${jurisdiction}.localhost:${url.port}${path}`
}

export interface OutboxMessage {
  channel: string
  recipient: string
  body: string
}

/** The newest message the dev outbox holds for a recipient (polled: the server sends after answering). */
export async function lastMessage(request: APIRequestContext, base: string, to: string): Promise<OutboxMessage> {
  let found: OutboxMessage | undefined
  await expect
    .poll(async () => {
      const answer = (await (await request.get(`${base}/api/dev/outbox?to=${encodeURIComponent(to)}`)).json()) as { payload: { messages: OutboxMessage[] } }
      found = answer.payload.messages[0]
      return found !== undefined
    })
    .toBe(true)
  return found!
}

/** Picks a date in the date popup (spec §2 modal kind date) of the field labelled `label`, as a
 * punter does by taps: the field, then the year, the month and the day, then Done. */
export async function chooseDate(form: Locator, label: string, iso: string) {
  const page = form.page()
  await form.getByRole('button', { name: label, exact: true }).click()
  const dialog = page.getByRole('dialog', { name: label })
  const [year, month, day] = iso.split('-').map(Number)
  for (const [part, value] of [['year', year], ['month', month], ['day', day]] as const) await dialog.locator(`[data-part="${part}"] [role="option"][data-value="${value}"]`).click()
  await dialog.locator('.popup__buttons button').click()
  await expect(dialog).toHaveCount(0)
}

export async function next(form: Locator) {
  await form.getByTestId('form-submit').click()
}


/** Curaçao's phone sign-up, first step (phone, password, country), then Next. */
export async function curacaoAccount(form: Locator, national: string) {
  await form.getByLabel('Mobile phone').fill(national)
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD)
  await form.getByRole('combobox', { name: 'Country', exact: true }).selectOption({ label: 'Curaçao' })
  await next(form)
}

/** Curaçao's phone sign-up, personal step (names, birth date), then Next. */
export async function curacaoPersonal(form: Locator, birthDay = '1990-05-17') {
  await form.getByLabel('First name').fill('Ana')
  await form.getByLabel('Last name').fill('Lopez')
  await chooseDate(form, 'Date of birth', birthDay)
  await next(form)
}

export async function fillPersonal(form: Locator, extra: (form: Locator) => Promise<void> = async () => {}) {
  await expect(form.getByLabel('First name')).toBeVisible()
  if ((await form.getByLabel('First name').count()) > 0) await form.getByLabel('First name').fill('Ana')
  if ((await form.getByLabel('Last name').count()) > 0) await form.getByLabel('Last name').fill('Lopez')
  await chooseDate(form, 'Date of birth', '1990-05-17')
  await extra(form)
  await next(form)
}

export async function accept(form: Locator) {
  await expect(form.getByRole('checkbox')).toBeVisible()
  await form.getByRole('checkbox').check()
  await next(form)
}

/** The phone flow's three steps; returns the E.164 number the code goes to. */
export async function signUpByPhone(page: Page, options: { national: string; dial: string; country?: string; personal?: (form: Locator) => Promise<void>; skipNames?: boolean }) {
  const form = page.getByTestId('join-form-phone')
  await form.getByLabel('Mobile phone').fill(options.national)
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD)
  if (options.country) await form.getByRole('combobox', { name: 'Country', exact: true }).selectOption({ label: options.country })
  await next(form)
  if (options.skipNames) {
    await chooseDate(form, 'Date of birth', '1990-05-17')
    await next(form)
  } else await fillPersonal(form, options.personal)
  await accept(form)
  return `+${options.dial}${options.national}`
}

export async function enterCode(page: Page, request: APIRequestContext, base: string, phone: string) {
  const dialog = page.locator('[data-popup-id="join-code-verification"]')
  await expect(dialog).toBeVisible()
  const sms = await lastMessage(request, base, phone)
  const code = /\b(\d{6})\b/.exec(sms.body)?.[1]
  expect(code).toBeTruthy()
  await dialog.getByRole('textbox', { name: 'Code' }).fill(code!)
  await dialog.getByTestId('form-submit').click()
  await expect(dialog).toHaveCount(0)
}

const CURACAO_COUNTRY_ID = 3 * 100 + 23 // country id of CW

/** Spends this client's free sign-up SMS on Curaçao (the browser and the request context share 127.0.0.1). */
export async function spendFreeSends(request: APIRequestContext, base: string) {
  for (let i = 0; i < 3; i++) {
    const body = { phoneNumber: `+5999${unique()}`, password: PASSWORD, countryId: CURACAO_COUNTRY_ID, currencyId: 1, firstName: 'Ana', lastName: 'Lopez', birthDay: '1990-05-17', terms: true }
    const answer = await request.post(`${base}/mobile-gate/api/v1/account/v3/signup/phone/begin`, { data: body, headers: { 'x-parlay-target': 'curacao' } })
    expect(answer.status(), await answer.text()).toBe(200)
  }
}

/** What the page hears: each captcha challenge ("<status> <type>") and each sign-up begin ("<status> <errorCode|OK>"). */
export function watchCaptcha(page: Page): { challenges: string[]; begins: string[] } {
  const seen = { challenges: [] as string[], begins: [] as string[] }
  page.on('response', async (response) => {
    if (response.url().includes('/auth/captcha/challenge')) seen.challenges.push(`${response.status()} ${((await response.json()) as { payload: { type: string } }).payload.type}`)
    if (response.url().includes('/signup/phone/begin')) seen.begins.push(`${response.status()} ${((await response.json()) as { errorCode?: string }).errorCode ?? 'OK'}`)
  })
  return seen
}

/** Curaçao's phone sign-up on /join through its three steps; returns the E.164 number the code goes to. */
export async function curacaoSignUp(page: Page, base: string): Promise<string> {
  await page.goto(siteUrl(base, 'curacao', '/join'))
  const form = page.getByTestId('join-form-phone')
  const national = `9${unique()}`
  await curacaoAccount(form, national)
  await curacaoPersonal(form)
  await form.getByRole('checkbox').check()
  await next(form)
  return `+599${national}`
}

/** A phone sign-up past its account step: names and birth date, the terms, then the SMS code from
 * the outbox typed into the code popup; ends on the deposit page after sign-up (afterSignUp). */
export async function finishPhoneSignUp(page: Page, request: APIRequestContext, base: string, e164: string, names: { first: string; last: string; birthDay: string }) {
  const form = page.getByTestId('join-form-phone')
  await expect(form.getByLabel('First name')).toBeVisible()
  await form.getByLabel('First name').fill(names.first)
  await form.getByLabel('Last name').fill(names.last)
  await chooseDate(form, 'Date of birth', names.birthDay)
  await next(form)
  await accept(form)
  const dialog = page.locator('[data-popup-id="join-code-verification"]')
  await expect(dialog).toBeVisible()
  const sms = await lastMessage(request, base, e164)
  const code = /\b(\d{6})\b/.exec(sms.body)?.[1]
  expect(code).toBeTruthy()
  await dialog.getByRole('textbox', { name: 'Code' }).fill(code!)
  await dialog.getByTestId('form-submit').click()
  await expect(dialog).toHaveCount(0)
  await expect(page).toHaveURL(/\/account\/deposit\?isAfterSignUp=true$/)
  await expect(page.getByTestId('deposit-welcome')).toBeVisible()
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('sessionHash') ?? 'null') !== null)).toBe(true)
}
