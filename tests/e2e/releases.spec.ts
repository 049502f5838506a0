/**
 * Issue 19's "done when", in real Chromium: an operator puts a popup's text and a sign-up label in
 * one release in the studio and schedules it for a time in Madrid; compliance sees it waiting (the
 * badge), reads the diff and approves; when the server's clock reaches the time, a punter's already
 * open Spain page shows BOTH changes on its next version poll; one emergency rollback restores both. The
 * server clock is the development clock (POST /api/dev/clock), the page's is Playwright's: no sleeps.
 * Releases' rules (atomicity, four-eyes, bad input) are HTTP tests: tests/http/admin/releases.test.ts.
 */
import type { Browser, Page } from '@playwright/test'
import { DEMO_ADMINS } from '../../server/admin/accounts'
import { adminLogInByApi, expect, test, type StaffLogin } from './fixtures'

const operator = DEMO_ADMINS.find((a) => a.email === 'operator@parlay.test')!
const compliance = DEMO_ADMINS.find((a) => a.email === 'compliance@parlay.test')!
const LABELS = 'i18n/en-signup.json'
const POPUP_TEXTS = 'i18n/en-auth.json'

/** An admin's page, signed in through the API (signing in is not the subject here). */
async function adminPage(browser: Browser, baseURL: string, who: StaffLogin): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1400, height: 1000 } })
  await adminLogInByApi(context.request, who)
  return context.newPage()
}

/** Drafts of one text per translations document, saved through the admin API as the studio's Save does. */
async function draftTexts(op: Page, texts: [file: string, key: string, text: string][]): Promise<void> {
  const csrf = (await (await op.request.get('/admin/api/session')).json()).payload.csrf as string
  for (const [file, key, text] of texts) {
    const published = (await (await op.request.get(`/admin/api/document?file=${encodeURIComponent(file)}`)).json()).payload.published
    const doc = JSON.parse(published.content)
    doc.resources[key] = text
    expect((await op.request.post('/admin/api/drafts', { headers: { 'x-csrf-token': csrf }, data: { file, content: JSON.stringify(doc, null, 2) } })).status()).toBe(201)
  }
}

/** `instant` as a wall-clock minute in Madrid: "2026-11-27T01:05". */
const madrid = (instant: number) => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Madrid', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }).format(instant).replace(' ', 'T')

test('a release of a popup text and a sign-up label goes live together at its scheduled Madrid time in an open page, after a second admin approves; one emergency rollback restores both', async ({ page, browser, server }) => {
  test.slow() // two admins, a punter page and four lint-gate runs on a busy machine
  const port = new URL(server.url).port
  await page.clock.install()
  await page.goto(`http://spain.localhost:${port}/en/join`)
  const label = (text: string) => page.getByRole('textbox', { name: text, exact: true })
  await expect(label('E-mail')).toBeVisible()
  await page.getByRole('button', { name: 'Necessary only' }).click()

  // The operator: two drafts, one release, submitted and scheduled two hours ahead in Madrid.
  const op = await adminPage(browser, server.url, operator)
  await draftTexts(op, [
    [LABELS, 'signup.field.email', 'Your e-mail'],
    [POPUP_TEXTS, 'auth.login.title', 'Welcome back'],
  ])
  await op.goto('/admin/studio?view=releases')
  await op.getByTestId('release-new').click()
  await op.getByTestId('release-title').fill('Friendlier sign-up and login texts')
  await op.getByTestId(`release-draft-${LABELS}`).check()
  await op.getByTestId(`release-draft-${POPUP_TEXTS}`).check()
  await op.getByTestId('release-create').click()
  await op.getByTestId('release-submit').click()
  await expect(op.getByTestId('release')).toHaveAttribute('data-state', 'in_review')
  const serverNow = (await (await op.request.get('/api/dev/clock')).json()).payload.now as number
  const goLive = Math.ceil((serverNow + 2 * 3_600_000) / 60_000) * 60_000
  await op.getByTestId('release-when').fill(madrid(goLive))
  await op.getByTestId('release-schedule-button').click()
  await expect(op.getByTestId('release-schedule')).toContainText(`${madrid(goLive)} Europe/Madrid`)
  await op.context().close() // compliance takes it from here (fewer open pages on a busy machine)

  // Compliance: the badge counts it; the diff shows both texts; approve.
  const co = await adminPage(browser, server.url, compliance)
  await co.goto('/admin/studio')
  await expect(co.getByTestId('studio-pending-count')).toHaveAttribute('data-count', '1')
  await co.getByTestId('studio-tab-releases').click()
  await co.getByTestId('release-row').first().click()
  await expect(co.getByTestId('diff-line')).toHaveCount(2)
  await expect(co.getByTestId('release')).toContainText('Your e-mail')
  await expect(co.getByTestId('release')).toContainText('Welcome back')
  await co.getByTestId('release-review-comment').fill('Wording checked.')
  await co.getByTestId('release-approve').click()
  await expect(co.getByTestId('release')).toHaveAttribute('data-state', 'approved')
  await expect(co.getByTestId('studio-pending-count')).toHaveAttribute('data-count', '0')

  // Not before its time: the page still shows the published label.
  await page.clock.runFor(10_000)
  await expect(label('E-mail')).toBeVisible()

  // The server clock reaches the time: the scheduler publishes; the page's next poll shows both.
  expect((await co.request.post('/api/dev/clock', { data: { advanceMs: goLive - serverNow } })).status()).toBe(200)
  await expect(async () => {
    await page.clock.runFor(10_000)
    await expect(label('Your e-mail')).toBeVisible({ timeout: 1_000 })
  }).toPass()
  await page.getByRole('button', { name: 'Log in' }).first().click()
  await expect(page.getByRole('dialog', { name: 'Welcome back' })).toBeVisible()

  // One emergency rollback (compliance may roll back too) restores both, in the open page too. The release
  // is read again by opening it again, not by reloading the studio.
  await co.getByTestId('waivers-open').click()
  await co.getByTestId('release-row').first().click()
  await expect(co.getByTestId('release')).toHaveAttribute('data-state', 'published')
  await co.getByTestId('release-rollback-reason').fill('Texts not cleared by legal')
  await co.getByTestId('release-rollback-emergency').click()
  await expect(co.getByTestId('release-notice')).toContainText('Emergency rollback')
  await expect(async () => {
    await page.clock.runFor(10_000)
    await expect(page.getByRole('dialog', { name: 'Log in' })).toBeVisible({ timeout: 1_000 })
  }).toPass()
  await expect(label('E-mail')).toBeVisible()
  await co.context().close()
})
