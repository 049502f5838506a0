/**
 * Issue 29 item 6 in the studio, by clicking and typing in real Chromium: dropping Spain's DNI/NIE
 * from its sign-up is refused at submission (rule identity-requirements); the operator asks for a
 * waiver scoped to that rule, Spain and that one document, ending in 7 days; compliance approves it
 * (never the one who asked); the same change then passes submission; compliance asks to revoke it
 * and a second compliance officer revokes it; the change is refused again. Every step is in the
 * audit log. The rules themselves: tests/http/admin/regulatory-gate.test.ts.
 */
import type { Page } from '@playwright/test'
import { DEMO_ADMINS } from '../../server/admin/accounts'
import { expect, test } from './fixtures'
import { expectVersionState, staffSignIn } from './studio-helpers'

const SPAIN_SIGNUP = 'jurisdictions/spain/flows/signup-email.json'
const operator = DEMO_ADMINS.find((a) => a.email === 'operator@parlay.test')!
const compliance = DEMO_ADMINS.find((a) => a.email === 'compliance@parlay.test')!
const compliance2 = DEMO_ADMINS.find((a) => a.email === 'compliance2@parlay.test')!

const csrfOf = async (page: Page) => (await (await page.request.get('/admin/api/session')).json()).payload.csrf as string

/** The operator's draft of Spain's sign-up without the DNI/NIE (the draft itself is not the subject). */
async function draftWithoutDni(op: Page): Promise<number> {
  const doc = JSON.parse((await (await op.request.get(`/admin/api/document?file=${encodeURIComponent(SPAIN_SIGNUP)}`)).json()).payload.published.content)
  const personal = doc.steps.find((s: { id: string }) => s.id === 'personal').schema
  personal.required = personal.required.filter((f: string) => f !== 'documentNumber')
  const res = await op.request.post('/admin/api/drafts', { headers: { 'x-csrf-token': await csrfOf(op) }, data: { file: SPAIN_SIGNUP, content: JSON.stringify(doc, null, 2) } })
  expect(res.status(), await res.text()).toBe(201)
  return (await res.json()).payload.id as number
}

/** Submits the version from its studio page: the notice says what the gate answered. */
async function submitInStudio(op: Page, id: number): Promise<void> {
  await op.goto(`/admin/studio?view=reviews&version=${id}`)
  await expectVersionState(op, 'draft')
  await op.getByTestId('submit-draft').click()
  await expect(op.getByTestId('version-notice')).toBeVisible({ timeout: 0 })
}

const waiverRow = (page: Page) => page.getByTestId('waiver-row').filter({ hasText: 'identity-requirements' }).first()

test('a regulatory finding blocks submission until a scoped, expiring waiver is approved by a second person; a revocation, four-eyes too, blocks it again', async ({ browser, server }) => {
  test.slow() // three staff sessions and four gate runs on a busy machine
  const op = await staffSignIn(browser, server.url, operator)
  const co = await staffSignIn(browser, server.url, compliance)

  const first = await draftWithoutDni(op)
  await submitInStudio(op, first)
  await expect(op.getByTestId('version-notice')).toContainText('LINT_FAILED')
  await expectVersionState(op, 'draft')
  await op.getByTestId('withdraw').click()
  await expectVersionState(op, 'withdrawn')

  // the operator asks for the waiver: one rule, Spain, that document, 7 days, with a reason
  await op.goto('/admin/studio?view=releases')
  await op.getByTestId('waivers-open').click()
  await op.getByTestId('waiver-jurisdiction').selectOption('spain')
  await op.getByTestId('waiver-rule').selectOption('identity-requirements')
  await op.getByTestId('waiver-document').fill(SPAIN_SIGNUP)
  await op.getByTestId('waiver-days').fill('7')
  await op.getByTestId('waiver-reason').fill('The identity provider replaces the DNI field (ticket LEGAL-29).')
  await op.getByTestId('waiver-request-button').click()
  await expect(op.getByTestId('waiver-notice')).toContainText('requested: a second person approves it')
  await expect(waiverRow(op)).toHaveAttribute('data-state', 'requested')
  await expect(waiverRow(op).getByTestId('waiver-approve')).toHaveCount(0) // never the one who asked

  // compliance approves it
  await co.goto('/admin/studio?view=releases')
  await co.getByTestId('waivers-open').click()
  await waiverRow(co).getByTestId('waiver-approve').click()
  await expect(waiverRow(co)).toHaveAttribute('data-state', 'active')

  // the same change now passes the gate
  const second = await draftWithoutDni(op)
  await submitInStudio(op, second)
  await expectVersionState(op, 'in_review')
  await op.getByTestId('withdraw').click()
  await expectVersionState(op, 'withdrawn')

  // compliance asks to revoke it; a second compliance officer revokes it
  await waiverRow(co).getByTestId('waiver-revoke-reason').fill('The identity provider is not live yet.')
  await waiverRow(co).getByTestId('waiver-revoke').click()
  await expect(waiverRow(co)).toHaveAttribute('data-state', 'revocation-requested')
  await expect(waiverRow(co).getByTestId('waiver-revoke-approve')).toHaveCount(0)
  const co2 = await staffSignIn(browser, server.url, compliance2)
  await co2.goto('/admin/studio?view=releases')
  await co2.getByTestId('waivers-open').click()
  await waiverRow(co2).getByTestId('waiver-revoke-approve').click()
  await expect(waiverRow(co2)).toHaveAttribute('data-state', 'revoked')

  // and the change is refused again
  const third = await draftWithoutDni(op)
  await submitInStudio(op, third)
  await expect(op.getByTestId('version-notice')).toContainText('LINT_FAILED')

  // every step is in the audit log
  const actions = ((await (await co.request.get('/admin/api/audit?limit=200')).json()).payload as { action: string }[]).map((e) => e.action)
  for (const action of ['waiver.requested', 'waiver.approved', 'waiver.revocation-requested', 'waiver.revoked']) expect(actions, action).toContain(action)
  for (const page of [op, co, co2]) await page.context().close()
})
