/**
 * Shared by the sign-up journeys: each site is http://<jurisdiction>.localhost:<port>; codes and
 * confirmation links come from the dev outbox (GET /api/dev/outbox?to=…).
 */
import type { APIRequestContext, Locator } from '@playwright/test'
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
  await form.getByLabel('Date of birth').fill(birthDay)
  await next(form)
}
