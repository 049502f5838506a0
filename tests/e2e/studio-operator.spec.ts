/**
 * The studio's operator views that replaced /admin's script (issue 29 item 7), in real Chromium
 * under the production CSP, driven by keyboard and clicks: the audit log filtered, searched and
 * downloaded as CSV (checked cell for cell against the audit API), a review rejected, answered,
 * fixed and approved on the same version with its whole thread kept, a stale action refused in
 * words, the outbox read for one recipient (the read audited), and a rollback asked from a
 * document's versions (four-eyes; an emergency needs its reason first).
 */
import type { Browser, Page } from '@playwright/test'
import { readFileSync } from 'node:fs'
import { DEMO_ADMINS } from '../../server/admin/accounts'
import { adminLogInByApi, expect, test } from './fixtures'
import { parseCsv } from '../support/csv'

const operator = DEMO_ADMINS.find((a) => a.email === 'operator@parlay.test')!
const compliance = DEMO_ADMINS.find((a) => a.email === 'compliance@parlay.test')!
const SPAIN_SIGNUP = 'jurisdictions/spain/flows/signup-email.json'

interface Entry { seq: number; at: number; actor: string; action: string; subject: string; details: Record<string, unknown>; hash: string }

async function staffPage(browser: Browser, baseURL: string, who: (typeof DEMO_ADMINS)[number]): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1400, height: 1000 } })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await adminLogInByApi(context.request, who)
  const page = await context.newPage()
  const violations: string[] = []
  page.on('console', (m) => m.text().includes('Content Security Policy') && violations.push(m.text()))
  ;(page as Page & { cspViolations: string[] }).cspViolations = violations
  return page
}
const csrfOf = async (page: Page) => (await (await page.request.get('/admin/api/session')).json()).payload.csrf as string

/** A draft of Spain's sign-up (its patch with one more change), made over the API as the studio saves it. */
async function draftOf(op: Page, change: (patch: Record<string, any>) => void): Promise<number> {
  const published = JSON.parse((await (await op.request.get(`/admin/api/document?file=${encodeURIComponent(SPAIN_SIGNUP)}`)).json()).payload.published.content)
  change(published)
  const res = await op.request.post('/admin/api/drafts', { headers: { 'x-csrf-token': await csrfOf(op) }, data: { file: SPAIN_SIGNUP, content: JSON.stringify(published, null, 2) } })
  expect(res.status()).toBe(201)
  return (await res.json()).payload.id as number
}
const personal = (patch: Record<string, any>) => patch.steps.find((s: { id: string }) => s.id === 'personal')

test('reviews: compliance rejects with a comment, the author answers in the thread, fixes and resubmits the same version, compliance approves; the thread keeps it all; a stale approval is refused in words', async ({ browser, server }) => {
  test.slow() // three lint-gate runs on a busy machine
  const op = await staffPage(browser, server.url, operator)
  const id = await draftOf(op, (p) => (personal(p).schema.properties.firstName = { maxLength: 43 }))
  await op.goto('/admin/studio')
  await op.getByTestId('studio-tab-reviews').click()
  await op.getByTestId('reviews-draft').locator(`[data-version="${id}"]`).click()
  await op.getByTestId('submit-draft').click()
  await expect(op.getByTestId('version-state')).toHaveAttribute('data-state', 'in_review', { timeout: 0 })

  const co = await staffPage(browser, server.url, compliance)
  await co.goto('/admin/studio?view=reviews')
  await co.getByTestId('reviews-in_review').locator(`[data-version="${id}"]`).click()
  await co.getByLabel('Review comment (required to reject)').pressSequentially('Why 43? Legal asked for "40", not more.')
  await co.getByTestId('reject').click()
  await expect(co.getByTestId('version-state')).toHaveAttribute('data-state', 'rejected')

  // the author reads the rejection in the thread, answers, fixes the text in the version's editor and resubmits
  await op.reload()
  const thread = op.getByTestId('review-thread')
  await expect(thread).toContainText('Why 43? Legal asked for "40", not more.')
  await op.getByLabel('Add to the thread').pressSequentially('Fixed, 40 as legal asked,\nthanks.')
  await op.getByTestId('thread-add').click()
  await expect(thread.locator('li[data-action="review.comment"]')).toContainText('Fixed, 40 as legal asked,')
  const code = op.locator('.code-editor .cm-content')
  await code.click()
  await op.keyboard.press('ControlOrMeta+a')
  await op.keyboard.press('ControlOrMeta+c')
  const patch = JSON.parse(await op.evaluate(() => navigator.clipboard.readText()))
  personal(patch).schema.properties.firstName.maxLength = 40
  await op.keyboard.insertText(JSON.stringify(patch, null, 2))
  await op.getByTestId('update-draft').click()
  await expect(op.getByTestId('version-state')).toHaveAttribute('data-state', 'draft')
  await op.getByTestId('submit-draft').click()
  await expect(op.getByTestId('version-state')).toHaveAttribute('data-state', 'in_review', { timeout: 0 })

  // compliance has the version open in two tabs: approved in one, the other's approval is stale
  await co.reload()
  const stale = await co.context().newPage()
  await stale.goto(co.url())
  await expect(stale.getByTestId('version-state')).toHaveAttribute('data-state', 'in_review')
  await co.getByLabel('Review comment (required to reject)').fill('Thanks, 40 is fine.')
  await co.getByTestId('approve').click()
  await expect(co.getByTestId('version-state')).toHaveAttribute('data-state', 'approved', { timeout: 0 })
  await stale.getByTestId('approve').click()
  await expect(stale.getByRole('alert')).toContainText('Someone changed this meanwhile: reload it to see its state now. (INVALID_STATE')
  await expect(stale.getByTestId('version-state')).toHaveAttribute('data-state', 'approved')

  // the whole thread, oldest first, on the same version
  const said = co.getByTestId('review-thread').locator('li')
  await expect(said).toHaveText([/operator@parlay.test drafted/, /submitted for review/, /rejected\s*Why 43\?/, /commented\s*Fixed, 40/, /edited/, /submitted for review/, /approved\s*Thanks, 40 is fine\./])
  const saved = (await (await co.request.get(`/admin/api/versions/${id}`)).json()).payload
  expect(JSON.parse(saved.content).steps.find((s: { id: string }) => s.id === 'personal').schema.properties.firstName.maxLength).toBe(40)
  for (const page of [op, co, stale]) expect((page as Page & { cspViolations?: string[] }).cspViolations ?? []).toEqual([])
  await op.context().close()
  await co.context().close()
})

test('the audit view filters by file and action and searches words, keyboard only; its CSV download holds exactly the filtered entries, cell for cell as the audit API answers them', async ({ browser, server }) => {
  const op = await staffPage(browser, server.url, operator)
  const id = await draftOf(op, (p) => (personal(p).schema.properties.lastName = { maxLength: 44 }))
  // a comment with a comma, quotes and a line break: it must stay in its one cell
  expect((await op.request.post(`/admin/api/versions/${id}/comments`, { headers: { 'x-csrf-token': await csrfOf(op) }, data: { text: 'Per legal: "44", not 45,\nsee ticket' } })).status()).toBe(201)
  await op.context().close()

  const co = await staffPage(browser, server.url, compliance)
  await co.goto('/admin/studio')
  await co.getByTestId('studio-tab-audit').focus()
  await co.keyboard.press('Enter')
  await expect(co.getByRole('heading', { name: 'Audit log', level: 1 })).toBeFocused()
  await co.getByLabel('File or jurisdiction').pressSequentially('SPAIN')
  await co.keyboard.press('Tab')
  await co.getByLabel('Action').pressSequentially('review.')
  await co.keyboard.press('Enter')
  await expect(co).toHaveURL(/view=audit.*subject=SPAIN.*|view=audit.*action=review\./)
  const oracle = (await (await co.request.get('/admin/api/audit?subject=spain&action=review.&limit=100')).json()).payload as Entry[]
  expect(oracle.some((e) => e.action === 'review.comment')).toBe(true)
  await expect(co.getByTestId('audit-row')).toHaveCount(oracle.length)
  expect(await co.getByTestId('audit-row').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-seq'))))).toEqual(oracle.map((e) => e.seq))

  // words anywhere in an entry
  await co.getByLabel('Words').pressSequentially('see ticket')
  await co.keyboard.press('Enter')
  await expect(co.getByTestId('audit-row')).toHaveCount(1)
  await expect(co.getByTestId('audit-row')).toContainText('review.comment')
  await co.getByLabel('Words').fill('')
  await co.getByTestId('audit-apply').click()
  await expect(co.getByTestId('audit-row')).toHaveCount(oracle.length)

  const [download] = await Promise.all([co.waitForEvent('download'), co.getByTestId('audit-export').click()])
  expect(download.suggestedFilename()).toMatch(/^parlay-audit-\d{4}-\d\d-\d\d\.csv$/)
  const [head, ...rows] = parseCsv(readFileSync((await download.path())!, 'utf8'))
  expect(head).toEqual(['seq', 'time', 'actor', 'action', 'subject', 'details', 'hash'])
  const exported = ((await (await co.request.get('/admin/api/audit?action=admin.audit-exported&limit=1')).json()).payload as Entry[])[0]!
  expect(exported.details).toMatchObject({ filter: { subject: 'SPAIN', action: 'review.' }, rows: rows.length })
  const now = (await (await co.request.get(`/admin/api/audit?subject=spain&action=review.&before=${exported.seq}&limit=100`)).json()).payload as Entry[]
  expect(rows).toEqual(now.map((e) => [String(e.seq), new Date(e.at).toISOString(), e.actor, e.action, e.subject, JSON.stringify(e.details), e.hash]))
  expect(rows.find((r) => r[3] === 'review.comment')![5]).toContain('\\"44\\", not 45,\\nsee ticket')
  await co.context().close()
})

test('the outbox shows the e-mails sent to one recipient, its own-site link clickable, and the read is in the audit log', async ({ browser, page, server }) => {
  const punter = 'vip@demo.parlay.test'
  await page.goto('/account/lost-password')
  const form = page.getByTestId('password-recovery-form')
  await form.getByLabel('E-mail or phone number').fill(punter)
  await form.getByTestId('form-submit').click()
  await expect(page).toHaveURL(/\/account\/checking-email-sent$/)

  const op = await staffPage(browser, server.url, operator)
  await op.goto('/admin/studio?view=outbox')
  await expect(op.getByRole('heading', { name: 'Outbox', level: 1 })).toBeFocused()
  await op.getByLabel('Recipient').pressSequentially(punter)
  await expect(async () => {
    await op.keyboard.press('Enter')
    await expect(op.getByTestId('outbox-message').filter({ hasText: 'Reset your Parlay password' })).toHaveCount(1, { timeout: 1_000 })
  }).toPass()
  const message = op.getByTestId('outbox-message').filter({ hasText: 'Reset your Parlay password' })
  await expect(message.getByRole('link')).toHaveAttribute('href', /\/change-password\?token=/)
  await expect(op.getByTestId('outbox-message').filter({ hasNotText: punter })).toHaveCount(0)
  const reads = (await (await op.request.get('/admin/api/audit?action=admin.outbox-read&actor=operator@parlay.test&limit=5')).json()).payload as Entry[]
  expect(reads[0]!.details).toMatchObject({ to: punter })
  await op.context().close()
})

test('a document’s versions: putting an older one live again is asked of a second person, and an emergency needs a reason first', async ({ browser, server }) => {
  test.slow() // a publish through the gate first
  const op = await staffPage(browser, server.url, operator)
  const co = await staffPage(browser, server.url, compliance)
  const id = await draftOf(op, (p) => (personal(p).schema.properties.firstName = { maxLength: 46 }))
  for (const [who, step] of [[op, 'submit'], [co, 'approve'], [op, 'publish']] as const)
    expect((await who.request.post(`/admin/api/versions/${id}/${step}`, { headers: { 'x-csrf-token': await csrfOf(who) }, data: {} })).status(), step).toBe(200)
  const history = (await (await op.request.get(`/admin/api/document?file=${encodeURIComponent(SPAIN_SIGNUP)}`)).json()).payload.history as { id: number; origin: string }[]
  const seed = history.find((v) => v.origin === 'seed')!.id

  await op.goto(`/admin/studio?file=${encodeURIComponent(SPAIN_SIGNUP)}`)
  const row = op.getByTestId('history-row').and(op.locator(`[data-version="${seed}"]`))
  await expect(op.getByTestId('history-row').and(op.locator(`[data-version="${id}"]`))).toHaveAttribute('data-state', 'published')
  await expect(row.getByTestId(`rollback-emergency-${seed}`)).toBeDisabled()
  await row.getByLabel(`Why put version ${seed} live again`).pressSequentially('the 46 limit confuses punters')
  await expect(row.getByTestId(`rollback-emergency-${seed}`)).toBeEnabled()
  await row.getByTestId(`rollback-ask-${seed}`).click()
  await expect(op.getByTestId('history-notice')).toContainText(`Rollback to version ${seed} asked`)
  // nothing changed yet: the new version is still live, and the request waits for a second person
  const pending = (await (await co.request.get('/admin/api/rollbacks?pending=true')).json()).payload as { subject: string; toVersion: number; requestedBy: string; reason: string }[]
  expect(pending).toContainEqual(expect.objectContaining({ subject: SPAIN_SIGNUP, toVersion: seed, requestedBy: 'operator@parlay.test', reason: 'the 46 limit confuses punters' }))
  expect((await (await op.request.get(`/admin/api/document?file=${encodeURIComponent(SPAIN_SIGNUP)}`)).json()).payload.published.id).toBe(id)
  // the seeded file live again for later tests on this worker's server (one person: the emergency path)
  const restored = await co.request.post('/admin/api/rollback', { headers: { 'x-csrf-token': await csrfOf(co) }, data: { file: SPAIN_SIGNUP, version: seed, emergency: true, reason: 'restoring the seeded file after a test' } })
  expect(restored.status()).toBe(200)
  await op.context().close()
  await co.context().close()
})
