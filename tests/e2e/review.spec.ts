/**
 * Compliance sees what goes live (issue 29 item 2), in real Chromium at a desktop size: a change is
 * rendered on the sites and in the languages the document reaches — not the reviewer's host (the
 * admin here is on localhost, Curaçao, English) — its diff reads in the punter's words with an
 * impact class that fits, a release's new Spain copy of a texts document shows in its Spain
 * preview, and a promotion's draft shows in the studio's live preview as it is typed.
 */
import type { Browser, Page } from '@playwright/test'
import { DEMO_ADMINS } from '../../server/admin/accounts'
import { adminLogInByApi, expect, test } from './fixtures'

const operator = DEMO_ADMINS.find((a) => a.email === 'operator@parlay.test')!
const compliance = DEMO_ADMINS.find((a) => a.email === 'compliance@parlay.test')!
const SPAIN_SIGNUP = 'jurisdictions/spain/flows/signup-email.json'

/** An admin's page on localhost, signed in through the API (signing in is not the subject here). */
async function adminPage(browser: Browser, baseURL: string, who: (typeof DEMO_ADMINS)[number]): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1400, height: 1000 } })
  await adminLogInByApi(context.request, who)
  return context.newPage()
}

/** The operator's draft of `file` (from its published text, or `from`'s), through the admin API as the studio saves it. */
async function draft(op: Page, file: string, edit: (doc: Record<string, any>) => void, from = file): Promise<number> {
  const csrf = (await (await op.request.get('/admin/api/session')).json()).payload.csrf as string
  const doc = JSON.parse((await (await op.request.get(`/admin/api/document?file=${encodeURIComponent(from)}`)).json()).payload.published.content)
  edit(doc)
  const res = await op.request.post('/admin/api/drafts', { headers: { 'x-csrf-token': csrf }, data: { file, content: JSON.stringify(doc, null, 2) } })
  expect(res.status()).toBe(201)
  return (await res.json()).payload.id
}

async function submit(op: Page, path: string): Promise<void> {
  const csrf = (await (await op.request.get('/admin/api/session')).json()).payload.csrf as string
  expect((await op.request.post(path, { headers: { 'x-csrf-token': csrf } })).status()).toBe(200)
}

const frameOf = (site: string, locale: string, side: 'before' | 'after') => `iframe[data-site="${site}"][data-locale="${locale}"][data-side="${side}"]`
const frame = (page: Page, site: string, locale: string, side: 'before' | 'after') => page.frameLocator(frameOf(site, locale, side))
/** The previews load as the reviewer scrolls to them (lazy frames): scroll as a person does. */
const scrollTo = (page: Page, site: string, locale: string) => page.locator(frameOf(site, locale, 'after')).scrollIntoViewIfNeeded()

test('a Spain sign-up change’s review renders Spain, in Spanish and in English, on both sides — not the reviewer’s own site — and shows Spain’s demo punter; the diff says it in Spanish words', async ({ browser, server }) => {
  const op = await adminPage(browser, server.url, operator)
  const id = await draft(op, SPAIN_SIGNUP, (d) => (d.steps[0].title = 'signup.step.personal'))
  await submit(op, `/admin/api/versions/${id}/submit`)
  await op.context().close()

  const co = await adminPage(browser, server.url, compliance)
  await co.goto(`/admin/studio?view=reviews&version=${id}`)
  await expect(co.getByTestId('reach')).toHaveText('Goes live on Spain (es, en).')
  await expect(co.getByTestId('said').first()).toContainText('“Tu cuenta” → “Tus datos”')
  await co.getByTestId('release-render').click()
  await scrollTo(co, 'spain', 'es')
  for (const side of ['before', 'after'] as const) await expect(frame(co, 'spain', 'es', side).locator('html')).toHaveAttribute('lang', 'es')
  await expect(frame(co, 'spain', 'es', 'before').locator('.form-step-title')).toHaveText('Tu cuenta')
  await expect(frame(co, 'spain', 'es', 'after').locator('.form-step-title')).toHaveText('Tus datos')
  await scrollTo(co, 'spain', 'en')
  await expect(frame(co, 'spain', 'en', 'after').locator('.form-step-title')).toHaveText('About you')
  await expect(co.locator('iframe[data-site="curacao"]')).toHaveCount(0)

  // Show as Spain's demo punter "Madrid": both sides are that punter's page (read-only preview session).
  await co.getByTestId('show-as-spain').selectOption('20000001')
  await scrollTo(co, 'spain', 'es')
  for (const side of ['before', 'after'] as const) await expect(frame(co, 'spain', 'es', side).locator('header.app-header [data-header-item="profile"]')).toBeVisible()
  await co.context().close()
})

test('the diff of a maxLength change is classified as input validation, not identity and KYC', async ({ browser, server }) => {
  const op = await adminPage(browser, server.url, operator)
  const id = await draft(op, SPAIN_SIGNUP, (d) => (d.steps.find((s: { id: string }) => s.id === 'personal').schema.properties.firstName = { maxLength: 40 }))
  await op.context().close()
  const co = await adminPage(browser, server.url, compliance)
  await co.goto(`/admin/studio?view=reviews&version=${id}`)
  const validation = co.locator('.diff-validation')
  await expect(validation.locator('h4')).toContainText('input validation')
  await expect(validation).toContainText(/Spain sign-up \(email\): field firstName maxLength \d+ → 40/)
  await expect(co.locator('.diff-identity-kyc')).toHaveCount(0)
  await co.context().close()
})

test('a release containing a new Spain copy of a texts document shows it in the Spain preview; the published side shows the shared text', async ({ browser, server }) => {
  const op = await adminPage(browser, server.url, operator)
  const copy = 'jurisdictions/spain/i18n/es-signup.json'
  const id = await draft(op, copy, (d) => (d.resources['signup.field.email'] = 'Tu correo de siempre'), 'i18n/es-signup.json')
  const csrf = (await (await op.request.get('/admin/api/session')).json()).payload.csrf as string
  const made = await op.request.post('/admin/api/releases', { headers: { 'x-csrf-token': csrf }, data: { title: 'Spain e-mail label', versions: [id] } })
  expect(made.status()).toBe(201)
  await op.context().close()

  const co = await adminPage(browser, server.url, compliance)
  await co.goto('/admin/studio?view=releases')
  await co.getByTestId('release-row').first().click()
  await expect(co.getByTestId('release-item')).toContainText(copy)
  await expect(co.getByTestId('reach')).toHaveText('Goes live on Spain (es).')
  await co.getByTestId('release-render').click()
  await scrollTo(co, 'spain', 'es')
  await expect(frame(co, 'spain', 'es', 'after').getByRole('textbox', { name: 'Tu correo de siempre', exact: true })).toBeVisible()
  await expect(frame(co, 'spain', 'es', 'before').getByRole('textbox', { name: 'Correo electrónico', exact: true })).toBeVisible()
  await co.context().close()
})

test('a promotion edited in the studio’s form shows in its live preview as it is typed, without a reload', async ({ browser, server }) => {
  const op = await adminPage(browser, server.url, operator)
  await op.goto(`/admin/studio?file=${encodeURIComponent('promotions/casino-welcome-package.json')}`)
  await op.evaluate(() => ((window as unknown as { sameStudio: boolean }).sameStudio = true))
  const preview = op.frameLocator('[data-testid="studio-preview"]')
  await expect(preview.getByTestId('page-title')).toContainText('Casino welcome package')
  await op.locator('#root_texts_en_title').fill('Casino welcome, doubled')
  await expect(preview.getByTestId('page-title')).toContainText('Casino welcome, doubled')
  expect(await op.evaluate(() => (window as unknown as { sameStudio?: boolean }).sameStudio)).toBe(true)
  // punters still see the published promotion
  const published = await (await op.request.get('/api/promotions/casino-welcome-package?locale=en')).json()
  expect(published.payload.title).toBe('Casino welcome package')
  await op.context().close()
})

test('a message being written shows in its demo punter’s inbox as it is typed, in the punter’s site and language; nothing is sent', async ({ browser, server }) => {
  const op = await adminPage(browser, server.url, operator)
  await op.goto('/admin/studio?view=messages')
  await op.getByTestId('message-account').fill('20000001') // Madrid, a Spain demo punter
  await op.getByTestId('message-locale').selectOption('es')
  await op.getByTestId('message-text').fill('Tu apuesta del domingo')
  const inbox = op.frameLocator('[data-testid="message-preview"]')
  await expect(inbox.getByTestId('inbox')).toContainText('Tu apuesta del domingo')
  await expect(inbox.locator('html')).toHaveAttribute('lang', 'es')
  await op.getByTestId('message-text').fill('Tu apuesta del lunes')
  await expect(inbox.getByTestId('inbox')).toContainText('Tu apuesta del lunes')
  const sent = (await (await op.request.get('/admin/api/messages')).json()).payload as { texts: Record<string, string> }[]
  expect(sent.some((m) => Object.values(m.texts).some((t) => t.startsWith('Tu apuesta')))).toBe(false)
  await op.context().close()
})
