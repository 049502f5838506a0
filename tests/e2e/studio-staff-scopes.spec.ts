/**
 * Staff scopes set in the studio (issue 29 item 7): compliance opens Staff, ticks Spain for the
 * operator and saves; the operator's draft of Italy's sign-up is then refused (OUT_OF_SCOPE) and
 * one of Spain's accepted — the scope the clicks set is the one the server enforces. Compliance
 * may narrow its own scope but not widen it again: the refusal's reason is shown. Rules and the
 * audit: tests/http/admin/staff-scopes.test.ts.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { APIRequestContext } from '@playwright/test'
import { DEMO_ADMINS } from '../../server/admin/accounts'
import { adminLogInByApi, expect, test } from './fixtures'

const operator = DEMO_ADMINS.find((a) => a.email === 'operator@parlay.test')!
const compliance = DEMO_ADMINS.find((a) => a.email === 'compliance@parlay.test')!

async function csrfOf(request: APIRequestContext, who: typeof operator): Promise<string> {
  return ((await (await adminLogInByApi(request, who)).json()) as { payload: { csrf: string } }).payload.csrf
}

test('compliance limits the operator to Spain by clicking in the studio; the server then refuses the operator Italy; no one widens their own scope', async ({ browser, server }) => {
  test.slow() // two admin sessions and the studio's build on a busy machine
  const opContext = await browser.newContext({ baseURL: server.url })
  const opCsrf = await csrfOf(opContext.request, operator)
  const draft = async (file: string) => {
    const doc = JSON.parse(readFileSync(join(server.documentsDir, file), 'utf8'))
    doc.title = 'signup.step.personal'
    const res = await opContext.request.post('/admin/api/drafts', { headers: { 'x-csrf-token': opCsrf }, data: { file, content: JSON.stringify(doc, null, 2) } })
    return { status: res.status(), body: (await res.json()) as { errorCode?: string } }
  }

  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1400, height: 1000 } })
  await adminLogInByApi(context.request, compliance)
  const page = await context.newPage()
  await page.goto('/admin/studio')
  await page.getByTestId('studio-tab-staff').click()
  const operatorRow = page.getByTestId('staff-row').filter({ hasText: 'operator@parlay.test' })
  await expect(operatorRow).toHaveAttribute('data-scope', '')
  await operatorRow.getByRole('checkbox', { name: 'spain' }).check()
  await operatorRow.getByRole('button', { name: 'Save the jurisdictions of operator@parlay.test' }).click()
  await expect(page.getByTestId('staff-notice')).toHaveText('operator@parlay.test: limited to spain.')
  await expect(page.getByTestId('staff-row').filter({ hasText: 'operator@parlay.test' })).toHaveAttribute('data-scope', 'spain')

  expect((await draft('jurisdictions/italy/flows/signup-email.json')).body.errorCode).toBe('OUT_OF_SCOPE')
  expect((await draft('jurisdictions/spain/flows/signup-email.json')).status).toBe(201)

  // narrowing its own scope is allowed; widening it back is refused, with the reason shown
  const ownRow = () => page.getByTestId('staff-row').filter({ hasText: 'compliance@parlay.test' })
  await ownRow().getByRole('checkbox', { name: 'italy' }).check()
  await ownRow().getByRole('button', { name: /Save the jurisdictions of compliance@/ }).click()
  await expect(page.getByTestId('staff-notice')).toHaveText('compliance@parlay.test: limited to italy.')
  await ownRow().getByRole('checkbox', { name: 'italy' }).uncheck()
  await ownRow().getByRole('button', { name: /Save the jurisdictions of compliance@/ }).click()
  await expect(page.getByTestId('staff-notice')).toHaveText('Refused: an account cannot widen its own scope.')
  await expect(ownRow()).toHaveAttribute('data-scope', 'italy')
  await opContext.close()
  await context.close()
})
