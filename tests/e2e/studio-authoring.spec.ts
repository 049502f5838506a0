/**
 * Authoring in the studio (issue 29 item 7), by clicking and typing in real Chromium under the
 * production CSP: an operator creates one document of each kind "New document" offers, each opens
 * in the editor as a new draft and is submitted for review — compliance's review count then counts
 * them; a published document's deletion is a draft in review; a flow step's fields are added,
 * moved (by keyboard too) and removed with buttons, and the saved draft has that order and passes
 * the server's lint; a field label's words in every locale are edited beside it and saved into a
 * draft of the locale's translations file. Server rules: tests/http/admin/authoring.test.ts.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { APIRequestContext, Page } from '@playwright/test'
import { DEMO_ADMINS } from '../../server/admin/accounts'
import { adminLogInByApi, expect, test } from './fixtures'

const operator = DEMO_ADMINS.find((a) => a.email === 'operator@parlay.test')!
const compliance = DEMO_ADMINS.find((a) => a.email === 'compliance@parlay.test')!

async function staffPage(browser: import('@playwright/test').Browser, url: string, who: typeof operator): Promise<Page> {
  const context = await browser.newContext({ baseURL: url, viewport: { width: 1400, height: 1000 } })
  await adminLogInByApi(context.request, who)
  return context.newPage()
}
const inReview = async (request: APIRequestContext) => (await (await request.get('/admin/api/versions?state=in_review')).json()).payload as { id: number; file: string; deleted: boolean }[]

test('an operator creates a promotion, a quiz, a popup and a screen from the studio; each is a draft submitted for review that compliance sees waiting', async ({ browser, server }) => {
  test.slow() // four submit gates over every document on a busy machine
  const page = await staffPage(browser, server.url, operator)
  await page.goto('/admin/studio')
  await page.getByTestId('new-document').locator('summary').click()
  const kinds = await page.getByTestId('new-document-kind').locator('option').allTextContents()
  expect(kinds.sort()).toEqual(['popup', 'promotion', 'quiz', 'screen'])
  const files: string[] = []
  for (const kind of kinds) {
    await page.getByTestId('new-document-kind').selectOption(kind)
    await page.getByTestId('new-document-id').fill(`studio-${kind}`)
    const folder = { popup: 'popups', promotion: 'promotions', quiz: 'quizzes', screen: 'screens' }[kind]!
    await expect(page.getByTestId('new-document-file')).toHaveText(`${folder}/studio-${kind}.json`)
    await page.getByTestId('new-document-create').click()
    await expect(page.getByTestId('new-document-notice')).toContainText(`${folder}/studio-${kind}.json`)
    // the new draft opens in the editor, its lint clean as created
    await expect(page.locator('.editor-head code')).toHaveText(`${folder}/studio-${kind}.json`)
    await expect(page.locator('.editor-head')).toContainText('new document, not published yet')
    // a form generated from the kind's schema, for every kind (a screen's too, its node tree included)
    await expect(page.getByTestId('studio-view-form')).toHaveAttribute('aria-selected', 'true')
    await expect(page.locator('.studio-form input[type="text"], .studio-form input:not([type])').first()).toBeVisible()
    await page.getByTestId('new-document-submit').click()
    // the submit runs the publish gate over every document: tens of seconds on a busy machine
    await expect(page.getByTestId('new-document-notice')).toContainText('submitted', { timeout: 90_000 })
    files.push(`${folder}/studio-${kind}.json`)
  }
  // a taken id is refused with the reason
  await page.getByTestId('new-document-kind').selectOption('popup')
  await page.getByTestId('new-document-id').fill('info')
  await page.getByTestId('new-document-create').click()
  await expect(page.getByTestId('new-document-notice')).toContainText('DOCUMENT_EXISTS')

  const review = await staffPage(browser, server.url, compliance)
  await review.goto('/admin/studio')
  await expect(review.getByTestId('studio-pending-count')).toHaveAttribute('data-count', String(files.length))
  expect((await inReview(review.context().request)).map((v) => v.file).sort()).toEqual([...files].sort())
  await page.context().close()
  await review.context().close()
})

test("deleting a published document from the studio puts its deletion in review; it stays served meanwhile", async ({ browser, server }) => {
  test.slow()
  const page = await staffPage(browser, server.url, operator)
  await page.goto(`/admin/studio?file=${encodeURIComponent('popups/info.json')}`)
  await page.getByTestId('studio-delete').click()
  await page.getByTestId('studio-delete-confirm').click()
  await expect(page.getByTestId('studio-delete-notice')).toContainText('submitted', { timeout: 90_000 })
  const deletions = (await inReview(page.context().request)).filter((v) => v.deleted)
  expect(deletions.map((v) => v.file)).toEqual(['popups/info.json'])
  expect((await page.context().request.get('/api/documents/popup/info')).status()).toBe(200)
  await page.context().close()
})

test("a flow step's fields are added, moved (by keyboard too) and removed with buttons; the saved draft has that order and passes lint", async ({ browser, server }) => {
  test.slow()
  const FILE = 'flows/demo-contact.json'
  const page = await staffPage(browser, server.url, operator)
  await page.goto(`/admin/studio?file=${encodeURIComponent(FILE)}`)
  const step = page.getByTestId('flow-step-fields').filter({ has: page.locator('legend', { hasText: 'about-you' }) })
  const order = () => step.getByTestId('flow-field').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name')))
  await expect.poll(order).toEqual(['name', 'email', 'topic'])

  await step.getByTestId('flow-field-name').fill('nickname')
  await step.getByTestId('flow-field-kind').selectOption('text')
  await step.getByTestId('flow-field-label').fill('signup.field.firstName')
  await step.getByTestId('flow-field-add').click()
  await step.getByTestId('flow-field-name').fill('extra')
  await step.getByTestId('flow-field-kind').selectOption('checkbox')
  await step.getByTestId('flow-field-label').fill('signup.field.lastName')
  await step.getByTestId('flow-field-add').click()
  await expect.poll(order).toEqual(['name', 'email', 'topic', 'nickname', 'extra'])
  await step.getByRole('button', { name: 'Move nickname up' }).click()
  await step.getByRole('button', { name: 'Move email up' }).focus()
  await page.keyboard.press('Enter')
  await step.getByRole('button', { name: 'Remove extra' }).click()
  await expect.poll(order).toEqual(['email', 'name', 'nickname', 'topic'])

  await expect(page.getByTestId('studio-lint')).toHaveAttribute('data-errors', '0')
  await page.getByTestId('studio-save').click()
  await expect(page.getByTestId('studio-notice')).toContainText('Saved as draft #')
  const request = page.context().request
  const drafts = (await (await request.get(`/admin/api/versions?file=${encodeURIComponent(FILE)}&state=draft`)).json()).payload as { id: number }[]
  const saved = JSON.parse((await (await request.get(`/admin/api/versions/${drafts[0]!.id}`)).json()).payload.content)
  const about = saved.steps.find((s: { id: string }) => s.id === 'about-you')
  expect(Object.keys(about.schema.properties)).toEqual(['email', 'name', 'nickname', 'topic'])
  expect(about.uiSchema['ui:order']).toEqual(['email', 'name', 'nickname', 'topic'])
  expect(about.schema.properties.nickname).toEqual({ type: 'string', minLength: 1, maxLength: 100, title: 'signup.field.firstName' })
  expect(about.schema.properties.extra).toBeUndefined()
  // the server's lint of the saved draft: no error
  const lint = (await (await request.post('/admin/api/studio/lint', { headers: { 'x-csrf-token': await csrf(request) }, data: { file: FILE, content: JSON.stringify(saved) } })).json()).payload as { severity: string }[]
  expect(lint.filter((f) => f.severity === 'error')).toEqual([])
  await page.context().close()
})

test("a field's label texts show beside it in every locale; an edited locale is saved into a draft of that locale's translations file", async ({ browser, server }) => {
  test.slow()
  const FILE = 'flows/demo-contact.json'
  const page = await staffPage(browser, server.url, operator)
  await page.goto(`/admin/studio?file=${encodeURIComponent(FILE)}`)
  const nameRow = page.getByTestId('flow-step-fields').getByTestId('flow-field').filter({ has: page.locator('code', { hasText: /^name$/ }) })
  await nameRow.getByRole('button', { name: 'Texts of forms.contact.name' }).click()
  const texts = nameRow.getByTestId('texts-beside')
  // the oracle: the translations files' own words
  const words = Object.fromEntries(['en', 'es', 'it', 'da', 'ru', 'be', 'pt'].map((l) => [l, JSON.parse(readFileSync(join(server.documentsDir, `i18n/${l}-journeys.json`), 'utf8')).resources['forms.contact.name']]))
  for (const [locale, text] of Object.entries(words)) await expect(texts.getByRole('textbox', { name: `forms.contact.name in ${locale}` })).toHaveValue(text)
  await texts.getByRole('textbox', { name: 'forms.contact.name in es' }).fill('Nombre y apellidos')
  await texts.getByTestId('texts-save').click()
  await expect(texts.getByTestId('texts-notice')).toHaveText('Saved as drafts: i18n/es-journeys.json.')

  const request = page.context().request
  const drafts = (await (await request.get(`/admin/api/versions?file=${encodeURIComponent('i18n/es-journeys.json')}&state=draft`)).json()).payload as { id: number }[]
  expect(drafts).toHaveLength(1)
  const saved = JSON.parse((await (await request.get(`/admin/api/versions/${drafts[0]!.id}`)).json()).payload.content)
  const published = JSON.parse(readFileSync(join(server.documentsDir, 'i18n/es-journeys.json'), 'utf8'))
  expect(saved.resources).toEqual({ ...published.resources, 'forms.contact.name': 'Nombre y apellidos' })
  // nothing else got a draft
  expect(((await (await request.get(`/admin/api/versions?file=${encodeURIComponent('i18n/en-journeys.json')}&state=draft`)).json()).payload as unknown[]).length).toBe(0)
  await page.context().close()
})

test("any element of a generated form that shows a text key has its words beside it: a popup's title and a flow step's title, edited there into the locale's translations draft", async ({ browser, server }) => {
  test.slow()
  const page = await staffPage(browser, server.url, operator)
  const wordsOf = (locale: string, file: string, key: string) => JSON.parse(readFileSync(join(server.documentsDir, `i18n/${file}`), 'utf8')).resources[key] as string
  // a popup: its title is a text key; the form shows it with a Texts button beside it
  await page.goto(`/admin/studio?file=${encodeURIComponent('popups/info.json')}`)
  await page.getByTestId('studio-view-form').click()
  await page.getByRole('button', { name: 'Texts of popup.info.title' }).click()
  const texts = page.getByTestId('texts-beside').filter({ has: page.getByRole('textbox', { name: 'popup.info.title in es' }) })
  for (const locale of ['en', 'es', 'ru']) await expect(texts.getByRole('textbox', { name: `popup.info.title in ${locale}` })).toHaveValue(wordsOf(locale, `${locale}.json`, 'popup.info.title'))
  await texts.getByRole('textbox', { name: 'popup.info.title in es' }).fill('Información importante')
  await texts.getByTestId('texts-save').click()
  await expect(texts.getByTestId('texts-notice')).toHaveText('Saved as drafts: i18n/es.json.')
  const request = page.context().request
  const drafts = (await (await request.get(`/admin/api/versions?file=${encodeURIComponent('i18n/es.json')}&state=draft`)).json()).payload as { id: number }[]
  const saved = JSON.parse((await (await request.get(`/admin/api/versions/${drafts[0]!.id}`)).json()).payload.content)
  expect(saved.resources['popup.info.title']).toBe('Información importante')
  // a flow step's title in the flow's form: the same Texts beside it
  await page.goto(`/admin/studio?file=${encodeURIComponent('flows/demo-contact.json')}`)
  await page.getByTestId('studio-view-form').click()
  const flow = JSON.parse(readFileSync(join(server.documentsDir, 'flows/demo-contact.json'), 'utf8')) as { steps: { title: string }[] }
  const stepTitle = flow.steps[0]!.title
  await page.getByRole('button', { name: `Texts of ${stepTitle}` }).first().click()
  await expect(page.getByRole('textbox', { name: `${stepTitle} in en` })).toBeVisible()
  await page.context().close()
})

const csrf = async (request: APIRequestContext) => (await (await request.get('/admin/api/session')).json()).payload.csrf as string

test("a published screen opens in the form view generated from its kind's schema, and a change in the form is the JSON's change", async ({ browser, server }) => {
  test.slow()
  const page = await staffPage(browser, server.url, operator)
  await page.goto(`/admin/studio?file=${encodeURIComponent('screens/casino-lobby.json')}`)
  await page.getByTestId('studio-view-form').click()
  const route = page.locator('.studio-form').getByLabel('route', { exact: false }).first()
  await expect(route).toHaveValue('/casino/lobby')
  await page.getByTestId('studio-view-code').click()
  await expect(page.locator('.code-editor .cm-content')).toContainText('"route": "/casino/lobby"')
  await page.getByTestId('studio-view-form').click()
  await route.fill('/casino/lobby-new')
  await page.getByTestId('studio-view-code').click()
  await expect(page.locator('.code-editor .cm-content')).toContainText('"route": "/casino/lobby-new"')
  await page.context().close()
})
