/**
 * Drafts carry a revision, in the studio (issue 29 item 7): when the draft was saved elsewhere
 * since this editor saved it (another tab of the same operator, the only one who may edit it), the
 * save is refused and the studio shows the other change — the saved text and who saved it — and
 * saves this text on top only when asked (the rebase). The oracle: the draft as the API stores it.
 */
import { DEMO_ADMINS } from '../../server/admin/accounts'
import { adminLogInByApi, expect, test } from './fixtures'

const operator = DEMO_ADMINS.find((a) => a.role === 'operator')!
const SPAIN_SIGNUP = 'jurisdictions/spain/flows/signup-email.json'

test('a studio save of a draft saved elsewhere since is refused with the other change shown; "keep my text" saves it on top', async ({ browser, server }) => {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1400, height: 1000 } })
  const page = await context.newPage()
  const csrf = ((await (await adminLogInByApi(context.request, operator)).json()) as { payload: { csrf: string } }).payload.csrf
  await page.goto(`/admin/studio?file=${encodeURIComponent(SPAIN_SIGNUP)}`)
  await expect(page.getByRole('heading', { name: 'Spain sign-up (email)' })).toBeVisible()

  await page.locator('#root_steps_0_title').fill('signup.step.personal')
  await page.getByTestId('studio-save').click()
  await expect(page.getByTestId('studio-notice')).toContainText('Saved as draft #')
  const draftId = Number(/#(\d+)/.exec((await page.getByTestId('studio-notice').textContent())!)![1])
  const stored = async () => ((await (await context.request.get(`/admin/api/versions/${draftId}`)).json()) as { payload: { content: string; revision: number } }).payload

  // the other tab saves revision 1 first: its own text
  const first = await stored()
  const theirs = first.content.replace('signup.step.personal', 'signup.step.account')
  expect(theirs).not.toBe(first.content)
  const other = await context.request.put(`/admin/api/versions/${draftId}`, { headers: { 'x-csrf-token': csrf }, data: { content: theirs, revision: first.revision } })
  expect(other.status()).toBe(200)

  // this editor saves again on the revision it had: refused, the other change shown, nothing stored
  await page.locator('#root_steps_0_title').fill('signup.step.contact')
  await page.getByTestId('studio-save').click()
  const conflict = page.getByTestId('studio-conflict')
  await expect(conflict).toBeVisible()
  await expect(page.getByTestId('studio-conflict-by')).toHaveText(operator.email)
  await expect(page.getByTestId('studio-conflict-theirs')).toHaveText(theirs)
  expect((await stored()).content).toBe(theirs)

  // the rebase: keep this text, saved on the revision the refusal showed
  await page.getByTestId('studio-conflict-keep').click()
  await expect(page.getByTestId('studio-notice')).toContainText(`Saved as draft #${draftId}`)
  await expect(conflict).toHaveCount(0)
  const after = await stored()
  expect(after.revision).toBe(first.revision + 2)
  expect(after.content).toContain('signup.step.contact')
  await context.close()
})
