/**
 * Forms in the browser, under the site's CSP: the demo-contact flow validates with the server's
 * precompiled validator module (no eval), shows a server-side field error on its field, submits;
 * the lobby never downloads the forms chunk.
 */
import type { Page, Request } from '@playwright/test'
import { createValidatorsModule } from '../../server/validators'
import { modules } from '../../server/modules'
import { expect, test } from './fixtures'

// The lead mounts the validators module in server/modules.ts; until then this spec mounts it for
// its own server (idempotent: nothing happens once it is in the list).
if (!modules.some((m) => m.name === 'validators')) modules.push(createValidatorsModule())

const FORMS_CHUNK = /\/assets\/(forms|FormNode)-[^/]*\.js$/

function watchPage(page: Page) {
  const violations: string[] = []
  const requests: string[] = []
  page.on('console', (message) => {
    const text = message.text()
    if (/Content Security Policy|Refused to (execute|evaluate|load|apply)|unsafe-eval/i.test(text)) violations.push(text)
  })
  page.on('pageerror', (error) => {
    if (/EvalError|Content Security Policy|unsafe-eval/i.test(error.message)) violations.push(error.message)
  })
  page.on('request', (request: Request) => requests.push(new URL(request.url()).pathname))
  return { violations, requests }
}

/** Puts the demo form on /contact-us for this test (the document is restored afterwards). */
async function withContactForm(editDocument: (file: string, change: (doc: Record<string, unknown>) => void) => Promise<void>) {
  await editDocument('screens/contact-us.json', (doc) => {
    const body = doc.body as Record<string, unknown>[]
    if (!body.some((node) => node.type === 'form')) body.push({ type: 'form', flow: 'demo-contact', testId: 'contact-form' })
  })
}

test('the lobby does not download the forms chunk or any validator module', async ({ page }) => {
  const { requests, violations } = watchPage(page)
  await page.goto('/casino/lobby')
  await expect(page.getByTestId('lobby-title')).toBeVisible()
  await page.waitForLoadState('networkidle')
  expect(requests.filter((path) => FORMS_CHUNK.test(path) || path.startsWith('/api/validators/'))).toEqual([])
  expect(violations).toEqual([])
})

test('the contact form validates in the browser under the CSP, shows a server field error, and submits', async ({ page, editDocument }) => {
  await withContactForm(editDocument)
  const { requests, violations } = watchPage(page)
  const posts: string[] = []
  page.on('request', (request) => {
    if (request.method() === 'POST') posts.push(new URL(request.url()).pathname)
  })

  await page.goto('/contact-us')
  const form = page.locator('section.form-flow')
  await expect(form.getByRole('heading', { name: 'About you' })).toBeVisible()
  await expect(form.getByTestId('form-progress')).toContainText('Step 1 of 2')

  // browser-side validation: nothing is posted, errors are linked to their fields
  await form.getByTestId('form-submit').click()
  const name = form.getByLabel('Name')
  await expect(name).toHaveAttribute('aria-invalid', 'true')
  // the server rendered the form; its first use (the tap on submit) loaded the forms chunk and the
  // precompiled validator module, for this page only (issue 10: rjsf on first use)
  expect(requests.some((path) => FORMS_CHUNK.test(path))).toBe(true)
  expect(requests.some((path) => /^\/api\/validators\/demo-contact\.[0-9a-f]{16}\.js$/.test(path))).toBe(true)
  const describedBy = await name.getAttribute('aria-describedby')
  expect(describedBy).toBeTruthy()
  await expect(page.locator(`[id="${describedBy!.split(' ')[0]}"]`)).toHaveText('This field is required.')
  await expect(name).toBeFocused()

  await name.fill('Ana María')
  await form.getByLabel('E-mail').fill('ana@')
  await form.getByLabel('Topic').selectOption({ label: 'Payments' })
  await form.getByTestId('form-submit').click()
  await expect(form.locator('[data-field="email"] .form-error')).toHaveText('Enter a valid e-mail address.')
  await form.getByLabel('E-mail').fill('taken@example.com')
  await expect(form.locator('[data-field="email"] .form-error')).toHaveCount(0)
  await form.getByTestId('form-submit').click()

  await expect(form.getByRole('heading', { name: 'Your message' })).toBeVisible()
  await expect(form.getByTestId('form-progress')).toContainText('Step 2 of 2')
  await form.getByTestId('form-submit').click()
  await expect(form.locator('[data-field="message"] .form-error')).toHaveText('This field is required.')
  await expect(form.locator('[data-field="consent"] .form-error')).toHaveText('This field is required.')
  expect(posts).not.toContain('/api/demo/contact')

  await form.getByLabel('Message').fill('Where is my withdrawal?')
  await form.getByRole('checkbox').check()
  await form.getByTestId('form-submit').click()

  // server-side field error: the server knows the address, the browser could not
  await expect(form.getByRole('heading', { name: 'About you' })).toBeVisible()
  const email = form.getByLabel('E-mail')
  await expect(email).toHaveAttribute('aria-invalid', 'true')
  await expect(form.locator('[data-field="email"] .form-error')).toHaveText('This e-mail is already registered.')
  expect(posts.filter((p) => p === '/api/demo/contact')).toHaveLength(1)

  await email.fill('ana@example.com')
  await expect(email).not.toHaveAttribute('aria-invalid', 'true')
  await form.getByTestId('form-submit').click()
  await expect(form.getByLabel('Message')).toHaveValue('Where is my withdrawal?')
  const answer = page.waitForResponse((response) => response.url().endsWith('/api/demo/contact'))
  await form.getByTestId('form-submit').click()
  expect((await answer).status()).toBe(200)
  await expect(page.getByTestId('form-done')).toBeVisible()

  expect(violations).toEqual([])
})

test('the submit button shows the loading state while the step is sent', async ({ page, editDocument }) => {
  await withContactForm(editDocument)
  // the answer is held until the loading state has been seen: a state, not a timer
  let release!: () => void
  const held = new Promise<void>((done) => (release = done))
  await page.route('**/api/demo/contact', async (route) => {
    await held
    await route.continue()
  })
  await page.goto('/contact-us')
  const form = page.locator('section.form-flow')
  await form.getByLabel('Name').fill('Ana')
  await form.getByLabel('E-mail').fill('ana@example.com')
  await form.getByLabel('Topic').selectOption({ label: 'Betting' })
  await form.getByTestId('form-submit').click()
  await form.getByLabel('Message').fill('A question about a bet.')
  await form.getByRole('checkbox').check()
  await form.getByTestId('form-submit').click()
  const submit = form.getByTestId('form-submit')
  await expect(submit).toBeDisabled()
  await expect(submit).toHaveAttribute('aria-busy', 'true')
  release()
  await expect(page.getByTestId('form-done')).toBeVisible()
})
