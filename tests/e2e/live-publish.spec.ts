/**
 * Issue 29 item 5, in real Chromium at phone size: an operator's publish never wipes what a punter
 * typed. A punter half-way through Spain's sign-up (first step done, typing in the second) keeps
 * every value and the step when a harmless `maxLength` change goes live and the page picks it up;
 * a later publish that removes one field takes only that field's value. The publishes go through
 * the real four-eyes path over the admin API (the operator drafts and submits, compliance
 * approves, the operator publishes); the page's version poll runs on Playwright's clock.
 */
import type { APIRequestContext, Locator, Page } from '@playwright/test'
import { request as playwrightRequest } from '@playwright/test'
import { DEMO_ADMINS } from '../../server/admin/accounts'
import { adminLogInByApi, expect, test } from './fixtures'
import { chooseDate } from './signup-helpers'

const SPAIN_SIGNUP = 'jurisdictions/spain/flows/signup-email.json'
const operator = DEMO_ADMINS.find((a) => a.email === 'operator@parlay.test')!
const compliance = DEMO_ADMINS.find((a) => a.email === 'compliance@parlay.test')!

interface Admin {
  api: APIRequestContext
  csrf: string
}

async function signIn(baseURL: string, who: (typeof DEMO_ADMINS)[number]): Promise<Admin> {
  const api = await playwrightRequest.newContext({ baseURL })
  // both steps: the password, then the authenticator's code
  const login = await adminLogInByApi(api, who)
  return { api, csrf: (await login.json()).payload.csrf as string }
}

/** One change of Spain's sign-up through draft → submit → approval by a second person → publish. */
async function publish(op: Admin, co: Admin, change: (doc: Record<string, any>) => void): Promise<void> {
  const published = (await (await op.api.get(`/admin/api/document?file=${encodeURIComponent(SPAIN_SIGNUP)}`)).json()).payload.published
  const doc = JSON.parse(published.content) as Record<string, any>
  change(doc)
  const send = (admin: Admin, path: string, data?: unknown) => admin.api.post(path, { headers: { 'x-csrf-token': admin.csrf }, data: data ?? {} })
  const draft = await send(op, '/admin/api/drafts', { file: SPAIN_SIGNUP, content: JSON.stringify(doc, null, 2) })
  expect(draft.status(), await draft.text()).toBe(201)
  const id = (await draft.json()).payload.id as number
  for (const [admin, step] of [[op, 'submit'], [co, 'approve'], [op, 'publish']] as const) {
    const answer = await send(admin, `/admin/api/versions/${id}/${step}`)
    expect(answer.status(), `${step}: ${await answer.text()}`).toBe(200)
  }
}

const personalStep = (doc: Record<string, any>) => doc.steps.find((s: { id: string }) => s.id === 'personal')

/** Moves the page's clock until its version poll has brought the change (seen by `visible`). */
async function pickUp(page: Page, visible: () => Promise<void>): Promise<void> {
  await expect(async () => {
    await page.clock.runFor(10_000)
    await visible()
  }).toPass()
}

test('a live publish keeps what a punter typed and the step reached; a publish removing a field takes only that field', async ({ page, baseURL }) => {
  const port = new URL(baseURL!).port
  await page.clock.install()
  await page.goto(`http://spain.localhost:${port}/en/join`)
  await page.getByRole('button', { name: 'Necessary only' }).click()
  const form: Locator = page.getByTestId('join-form-email')
  await form.getByRole('textbox', { name: 'E-mail' }).fill('ana.live@example.com')
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill('a quiet orange lantern 42')
  await form.getByRole('combobox', { name: 'Country', exact: true }).selectOption({ label: 'Spain' })
  await form.getByTestId('form-submit').click()
  // second step, half typed
  const first = form.getByLabel('First name')
  await expect(first).toBeVisible()
  await first.fill('Ana')
  await form.getByLabel('Last name').fill('Lopez')
  await chooseDate(form, 'Date of birth', '1990-05-17')
  const dni = form.getByRole('textbox', { name: 'DNI / NIE' })
  await dni.fill('1234')
  await expect(form).toHaveAttribute('data-step', 'personal')

  const [op, co] = [await signIn(baseURL!, operator), await signIn(baseURL!, compliance)]
  // Spain's sign-up is an overlay on the shared flow (docs/overlays.md): a merge patch per step
  await publish(op, co, (doc) => (personalStep(doc).schema.properties.firstName = { maxLength: 42 }))
  await pickUp(page, () => expect(first).toHaveAttribute('maxlength', '42', { timeout: 1_000 }))
  await expect(form).toHaveAttribute('data-step', 'personal')
  await expect(first).toHaveValue('Ana')
  await expect(form.getByLabel('Last name')).toHaveValue('Lopez')
  await expect(form.getByLabel('Date of birth')).toHaveAttribute('value', '1990-05-17')
  await expect(dni).toHaveValue('1234')

  // a publish that removes the last name: only its value goes
  await publish(op, co, (doc) => {
    const step = personalStep(doc)
    step.schema.properties.lastName = null // a merge patch removes a key with null
    step.schema.required = step.schema.required.filter((f: string) => f !== 'lastName')
  })
  await pickUp(page, () => expect(form.getByLabel('Last name')).toHaveCount(0, { timeout: 1_000 }))
  await expect(form).toHaveAttribute('data-step', 'personal')
  await expect(first).toHaveValue('Ana')
  await expect(form.getByLabel('Date of birth')).toHaveAttribute('value', '1990-05-17')
  await expect(dni).toHaveValue('1234')
  // and the first step still holds what was typed there
  await form.getByRole('button', { name: 'Back' }).click()
  await expect(form.getByRole('textbox', { name: 'E-mail' })).toHaveValue('ana.live@example.com')
  await expect(form.getByRole('textbox', { name: 'Password', exact: true })).toHaveValue('a quiet orange lantern 42')
  await Promise.all([op.api.dispose(), co.api.dispose()])
})
