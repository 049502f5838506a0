/**
 * Issue 29's "Done when", as one path in real Chromium: an operator scoped to Spain changes Spain's
 * sign-up in the studio's code editor; a broken change of it cannot get past submission (the gate's
 * finding is shown with its JSON path); compliance reviews the change rendered as Spain serves it
 * (Spain's pages, in Spanish, not the reviewer's own site) and approves; it goes live on a punter's
 * open, half-filled sign-up page without wiping what the punter typed. Each step has its own deeper
 * spec (studio-staff-scopes, studio-editor, review, live-publish, admin); this one checks they hold
 * together.
 */
import type { Page } from '@playwright/test'
import { DEMO_ADMINS } from '../../server/admin/accounts'
import { expect, test } from './fixtures'
import { expectVersionState as versionState, staffSignIn as signIn, typeDraftInStudio } from './studio-helpers'

const SPAIN_SIGNUP = 'jurisdictions/spain/flows/signup-email.json'
const operator = DEMO_ADMINS.find((a) => a.role === 'operator')!
const compliance = DEMO_ADMINS.find((a) => a.email === 'compliance@parlay.test')!

const csrfOf = async (page: Page) => (await (await page.request.get('/admin/api/session')).json()).payload.csrf as string

test('an operator scoped to Spain changes Spain’s sign-up in the studio; a broken change is refused at submission; compliance reviews Spain’s rendered pages and approves; the open half-filled page keeps what the punter typed', async ({ page, browser, server }) => {
  test.slow()
  const port = new URL(server.url).port
  const co = await signIn(browser, server.url, compliance)
  const op = await signIn(browser, server.url, operator)

  // compliance limits the operator to Spain; Italy's sign-up is then out of the operator's reach
  const staff = (await (await co.request.get('/admin/api/staff')).json()).payload.staff as { id: number; email: string }[]
  const operatorId = staff.find((s) => s.email === operator.email)!.id
  const scoped = await co.request.put(`/admin/api/staff/${operatorId}/scope`, { headers: { 'x-csrf-token': await csrfOf(co) }, data: { jurisdictions: ['spain'] } })
  expect(scoped.status(), await scoped.text()).toBe(200)
  const italy = await op.request.post('/admin/api/drafts', { headers: { 'x-csrf-token': await csrfOf(op) }, data: { file: 'jurisdictions/italy/flows/signup-email.json', content: '{}' } })
  expect((await italy.json()).errorCode).toBe('OUT_OF_SCOPE')

  // a punter half-way through Spain's sign-up
  await page.clock.install()
  await page.goto(`http://spain.localhost:${port}/en/join`)
  await page.getByRole('button', { name: 'Necessary only' }).click()
  const form = page.getByTestId('join-form-email')
  await form.getByLabel('E-mail').fill('half.filled@example.es')
  await expect(form.getByLabel('Country')).toBeVisible()

  // a broken change ("minLength": "eight", the incident) cannot be submitted: the finding names its path
  await typeDraftInStudio(op, SPAIN_SIGNUP, (flow) => {
    const step = flow.steps.find((s: { schema: { properties: Record<string, unknown> } }) => s.schema.properties.password)
    step.schema.properties.password.minLength = 'eight'
  })
  await op.getByTestId('submit-draft').click()
  await expect(op.getByTestId('version-notice')).toContainText('LINT_FAILED', { timeout: 0 })
  await expect(op.getByTestId('version-notice')).toContainText('/minLength')
  await versionState(op, 'draft')
  await op.getByTestId('withdraw').click()
  await versionState(op, 'withdrawn')

  // the real change: the country field goes
  await typeDraftInStudio(op, SPAIN_SIGNUP, (flow) => {
    const account = flow.steps.find((s: { id: string }) => s.id === 'account')
    account.schema.required = account.schema.required.filter((f: string) => f !== 'countryId')
    delete account.schema.properties.countryId
    delete account.uiSchema.countryId
  })
  const versionUrl = op.url()
  await op.getByTestId('submit-draft').click()
  await versionState(op, 'in_review')

  // compliance reviews it as Spain serves it, in Spanish, and approves; it is published
  await co.goto(versionUrl)
  await expect(co.getByTestId('reach')).toHaveText('Goes live on Spain (es, en).')
  await expect(co.getByTestId('diff')).toContainText('field countryId removed from step account')
  await co.getByTestId('release-render').click()
  const after = 'iframe[data-site="spain"][data-locale="es"][data-side="after"]'
  await co.locator(after).scrollIntoViewIfNeeded()
  await expect(co.frameLocator(after).locator('html')).toHaveAttribute('lang', 'es')
  await expect(co.locator('iframe[data-site="curacao"]')).toHaveCount(0)
  await co.getByTestId('approve').click()
  await versionState(co, 'approved')
  await co.getByTestId('publish').click()
  await versionState(co, 'published')

  // the open page picks it up on its version poll: the field is gone, what the punter typed stays
  await expect(async () => {
    await page.clock.runFor(10_000)
    await expect(form.getByLabel('Country')).toHaveCount(0, { timeout: 500 })
  }).toPass()
  await expect(form.getByLabel('E-mail')).toHaveValue('half.filled@example.es')

  // the server's own state, not only the pages: the published Spain document has no country field
  const published = JSON.parse((await (await co.request.get(`/admin/api/document?file=${encodeURIComponent(SPAIN_SIGNUP)}`)).json()).payload.published.content)
  expect(JSON.stringify(published)).not.toContain('"countryId":{')
  await op.context().close()
  await co.context().close()
})
