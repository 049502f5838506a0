/**
 * The operator → compliance → punter path in real Chromium, all in the studio (issue 29 item 7:
 * one operator app): an operator edits a document in the studio's code editor and submits the
 * draft from its review page, compliance finds it in the Reviews queue, reads the semantic diff,
 * renders both sides and approves, the version is published, and a punter's already open Spain
 * page shows the change on its next version poll, without a reload.
 */
import type { Page } from '@playwright/test'
import { DEMO_ADMINS } from '../../server/admin/accounts'
import { expect, test } from './fixtures'
import { expectVersionState, staffSignIn as signIn, typeDraftInStudio } from './studio-helpers'

const operator = DEMO_ADMINS.find((a) => a.role === 'operator')!
const compliance = DEMO_ADMINS.find((a) => a.email === 'compliance@parlay.test')!

/** Puts the seeded (git) version of a file live again, so later tests on this worker's server see the files. */
async function restoreSeed(page: Page, file: string): Promise<void> {
  const session = await (await page.request.get('/admin/api/session')).json()
  const history = (await (await page.request.get(`/admin/api/document?file=${encodeURIComponent(file)}`)).json()).payload.history as { id: number; origin: string }[]
  const seed = history.find((v) => v.origin === 'seed')!
  // one person: the emergency path (live at once, reviewed afterwards), with its reason
  const res = await page.request.post('/admin/api/rollback', { headers: { 'x-csrf-token': session.payload.csrf }, data: { file, version: seed.id, emergency: true, reason: 'restoring the seeded file after a test' } })
  expect(res.status()).toBe(200)
}

/** The operator's change typed into the studio's code editor, saved, submitted from the draft's page. */
async function draftInStudio(op: Page, file: string, edit: (doc: Record<string, any>) => void): Promise<string> {
  await typeDraftInStudio(op, file, edit)
  const url = op.url()
  await op.getByTestId('submit-draft').click()
  await expectVersionState(op, 'in_review')
  return url
}

test('the admin page is not reachable without login, nor the studio', async ({ page }) => {
  await page.goto('/admin')
  await expect(page.getByTestId('admin-login')).toBeVisible()
  await page.goto('/admin/studio')
  await expect(page).toHaveURL(/\/admin$/)
  await expect(page.getByTestId('admin-login')).toBeVisible()
  await expect(page.locator('#studio')).toHaveCount(0)
})

test('an operator edits in the studio, compliance finds it in the Reviews queue, sees the diff and approves, the punter’s open page shows the change', async ({ page, browser, server }) => {
  test.slow() // two admins, a punter page and two lint-gate runs: give a busy machine room
  const port = new URL(server.url).port
  const spain = `http://spain.localhost:${port}`

  // A punter on the Spain site, page open.
  await page.clock.install()
  await page.goto(`${spain}/en/casino/lobby`)
  const banner = page.getByTestId('lobby-banner')
  // The first render of a fresh server's page (client bundle, documents): bounded by the test's timeout.
  await expect(banner).toContainText('Welcome bonus: 100%', { timeout: 0 })
  await page.evaluate(() => ((window as unknown as { parlayNoReload: boolean }).parlayNoReload = true))

  // The operator drafts the change and submits it; the author is offered no approval.
  const op = await signIn(browser, server.url, operator)
  await expect(op).toHaveURL(/\/admin\/studio$/)
  await draftInStudio(op, 'screens/casino-lobby.json', (doc) => (doc.body.find((node: { testId?: string }) => node.testId === 'lobby-banner').body = 'promo.cashback.body'))
  await expect(op.getByTestId('approve')).toHaveCount(0)

  // Compliance opens it from the queue, reads the diff, renders both sides, approves and publishes.
  const co = await signIn(browser, server.url, compliance)
  await co.getByTestId('studio-tab-reviews').click()
  await expect(co.getByRole('heading', { name: 'Reviews', level: 1 })).toBeFocused()
  await co.getByTestId('reviews-in_review').getByRole('button', { name: /Casino lobby|casino-lobby/i }).first().click()
  await expect(co.getByRole('heading', { level: 1 })).toBeFocused()
  await expect(co.getByTestId('diff')).toContainText('screen casino-lobby: banner section.casino text lobby.casino.banner → promo.cashback.body')
  await co.getByTestId('release-render').click()
  await expect(co.getByTestId('release-before')).toHaveAttribute('width', '360')
  await expect(co.getByTestId('release-after')).toHaveAttribute('height', '740')
  // The frames render through the documents API with the reviewer's preview cookie: the draft on one side only.
  await expect(co.frameLocator('[data-testid=release-after]').getByTestId('lobby-banner')).toContainText('10% back on live casino', { timeout: 0 })
  await expect(co.frameLocator('[data-testid=release-before]').getByTestId('lobby-banner')).not.toContainText('10% back on live casino')
  await co.getByLabel('Review comment (required to reject)').fill('Cashback copy approved by legal.')
  await co.getByTestId('approve').click()
  await expectVersionState(co, 'approved')
  await co.getByTestId('publish').click()
  await expectVersionState(co, 'published')
  await expect(co.getByTestId('review-thread')).toContainText('Cashback copy approved by legal.')

  // The punter's open page picks it up on the next version poll, without a reload.
  await expect(async () => {
    await page.clock.runFor(10_000)
    await expect(banner).toContainText('10% back on live casino', { timeout: 500 })
  }).toPass()
  expect(await page.evaluate(() => (window as unknown as { parlayNoReload?: boolean }).parlayNoReload)).toBe(true)

  // The audit log shows the chain intact.
  await co.getByTestId('studio-tab-audit').click()
  await expect(co.getByTestId('audit-verify')).toContainText('Chain intact')
  await restoreSeed(co, 'screens/casino-lobby.json')
  await op.context().close()
  await co.context().close()
})

test('Spain sign-up: the operator drops the country field in the studio, compliance approves the diff, an open sign-up page loses the field', async ({ page, browser, server }) => {
  test.slow() // as above
  const port = new URL(server.url).port
  await page.clock.install()
  await page.goto(`http://spain.localhost:${port}/en/join`)
  const form = page.getByTestId('join-form-email')
  await expect(form.getByLabel('E-mail')).toBeVisible({ timeout: 0 })
  await expect(form.getByLabel('Country')).toBeVisible()

  // Spain's sign-up is an overlay: the studio shows it as Spain is served it and saves only the difference
  const op = await signIn(browser, server.url, operator)
  const versionUrl = await draftInStudio(op, 'jurisdictions/spain/flows/signup-email.json', (flow) => {
    const account = flow.steps.find((s: { id: string }) => s.id === 'account')
    account.schema.required = account.schema.required.filter((f: string) => f !== 'countryId')
    delete account.schema.properties.countryId
    delete account.uiSchema.countryId
  })

  const co = await signIn(browser, server.url, compliance)
  await co.goto(versionUrl)
  await expect(co.getByTestId('diff')).toContainText('Spain sign-up (email): field countryId no longer required')
  await expect(co.getByTestId('diff')).toContainText('Spain sign-up (email): field countryId removed from step account')
  await co.getByTestId('approve').click()
  await expectVersionState(co, 'approved')
  await co.getByTestId('publish').click()
  await expectVersionState(co, 'published')

  await expect(async () => {
    await page.clock.runFor(10_000)
    await expect(form.getByLabel('Country')).toHaveCount(0, { timeout: 500 })
  }).toPass()
  await expect(form.getByLabel('E-mail')).toBeVisible()
  await restoreSeed(co, 'jurisdictions/spain/flows/signup-email.json')
  await op.context().close()
  await co.context().close()
})
