/**
 * A server-rendered form is the real form from the HTML, and its script loads on first use (issue
 * 10: "rjsf … loads after the first paint or on first use"). On /login, at phone size, under the
 * site's real CSP:
 * - no forms chunk and no validator module is fetched while nobody touches the form, even once
 *   the app has taken over the page;
 * - text typed before the chunk has arrived stays in the fields and is what the form submits: a
 *   tap on the submit button meanwhile is held and made once the form is live, and the login
 *   succeeds with what was typed;
 * - a keyboard-only visitor's focus on a field loads it;
 * - no console error (hydration mismatches are console errors) and no CSP violation throughout.
 * The chunk request is held with page.route until the test lets it go, so the window before the
 * form is live is deterministic; every wait is on a state.
 */
import type { Page, Route } from '@playwright/test'
import { expect, test } from './fixtures'

const FORMS_CHUNK = /\/assets\/FormNode-[^/]*\.js$/
const FIRST_RENDER_MARK = 'parlay:first-render'

function watch(page: Page) {
  const problems: string[] = []
  const formScripts: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`)
  })
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname
    if (FORMS_CHUNK.test(path) || path.startsWith('/api/validators/') || /^\/api\/flows\/[^/]+\/validator$/.test(path)) formScripts.push(path)
  })
  return { problems, formScripts }
}

/** Counts CSP violations in the page (the server sends its real policy). */
async function countViolations(page: Page) {
  await page.addInitScript(() => {
    ;(window as unknown as { violations: string[] }).violations = []
    document.addEventListener('securitypolicyviolation', (event) => (window as unknown as { violations: string[] }).violations.push(`${event.violatedDirective} ${event.blockedURI}`))
  })
}
const violations = (page: Page) => page.evaluate(() => (window as unknown as { violations: string[] }).violations)

/** The app has rendered over the server's markup (web/main.tsx marks its first render). */
async function appTookOver(page: Page) {
  await expect.poll(() => page.evaluate((mark) => performance.getEntriesByName(mark).length, FIRST_RENDER_MARK)).toBe(1)
}

/** The forms chunk's request, held until the test lets it go (the window before the form is live). */
async function holdFormsChunk(page: Page): Promise<{ asked: Promise<Route> }> {
  let ask: (route: Route) => void = () => {}
  const asked = new Promise<Route>((resolve) => (ask = resolve))
  await page.route(FORMS_CHUNK, (route) => ask(route))
  // in an object: an async function's returned promise would be awaited with it
  return { asked }
}

const host = (page: Page) => page.locator('[data-form-host="login"]')

test('/login: the form is in the HTML and its chunk loads only on first use, not with the page', async ({ page }) => {
  const { problems, formScripts } = watch(page)
  await countViolations(page)
  await page.goto('/login')
  const form = page.getByTestId('login-form')
  // the server's form: labelled fields and the submit button, before any script has run
  await expect(form.getByLabel('E-mail, account number or nickname')).toBeVisible()
  await expect(form.getByLabel('Password')).toBeVisible()
  await expect(form.getByTestId('form-submit')).toHaveText('Log in')
  await appTookOver(page)
  await page.waitForLoadState('networkidle')
  // the app has taken over and the network is quiet: the form is still the server's, untouched
  expect(formScripts).toEqual([])
  await expect(host(page)).toHaveAttribute('data-form-pending', '')
  // a touch on the field is the first use: the chunk and the validators load, the form goes live
  await form.getByLabel('Password').click()
  await expect(host(page)).not.toHaveAttribute('data-form-pending', '')
  expect(formScripts.some((path) => FORMS_CHUNK.test(path))).toBe(true)
  expect(problems).toEqual([])
  expect(await violations(page)).toEqual([])
})

test('/login: text typed before the form’s script arrives stays, a submit tapped meanwhile is made once it is live, and the login succeeds', async ({ page }) => {
  const { problems } = watch(page)
  await countViolations(page)
  // hold the forms chunk until the test has typed and tapped
  const chunk = await holdFormsChunk(page)
  await page.goto('/login')
  await appTookOver(page)
  const form = page.getByTestId('login-form')
  const login = form.getByLabel('E-mail, account number or nickname')
  const password = form.getByLabel('Password')
  await login.pressSequentially('opened@demo.parlay.test')
  await password.pressSequentially('parlay-demo-1')
  await form.getByTestId('form-submit').click()
  const route = await chunk.asked
  // still the server's form, with what was typed, and no navigation (a plain HTML submit would
  // have sent the fields in the address)
  await expect(host(page)).toHaveAttribute('data-form-pending', '')
  await expect(host(page)).toHaveAttribute('data-form-held', '')
  await expect(login).toHaveValue('opened@demo.parlay.test')
  await expect(password).toHaveValue('parlay-demo-1')
  expect(new URL(page.url()).pathname).toBe('/login')
  expect(new URL(page.url()).search).toBe('')
  await route.continue()
  // the held submit is made with the typed values: the punter is logged in
  await expect(page.getByTestId('logged-in-as')).toHaveText('You are logged in, Demo.')
  await expect(page.getByTestId('login-form')).toHaveCount(0)
  expect(problems).toEqual([])
  expect(await violations(page)).toEqual([])
})

test('/login: a keyboard-only visitor’s focus on the form loads it, and typing then works as usual', async ({ page }) => {
  const { problems, formScripts } = watch(page)
  await page.goto('/login')
  await appTookOver(page)
  await page.waitForLoadState('networkidle')
  expect(formScripts).toEqual([])
  // Tab from the top of the page until the login field has the focus
  for (let presses = 0; presses < 40; presses++) {
    if (await page.evaluate(() => document.activeElement?.id === 'root_login')) break
    await page.keyboard.press('Tab')
  }
  await expect(page.locator('#root_login')).toBeFocused()
  await expect(host(page)).not.toHaveAttribute('data-form-pending', '')
  expect(formScripts.some((path) => FORMS_CHUNK.test(path))).toBe(true)
  await page.keyboard.type('opened@demo.parlay.test')
  await page.keyboard.press('Tab')
  await page.keyboard.type('parlay-demo-1')
  await page.keyboard.press('Enter')
  // the live form submitted what was typed, from the keyboard alone
  await expect(page.getByTestId('logged-in-as')).toHaveText('You are logged in, Demo.')
  expect(problems).toEqual([])
})

test('/contact-us: a choice made in a server-rendered select before the script arrives is the form’s data once live (its value mapped as the widget maps it)', async ({ page, editDocument }) => {
  await editDocument('screens/contact-us.json', (doc) => {
    const body = doc.body as Record<string, unknown>[]
    if (!body.some((node) => node.type === 'form')) body.push({ type: 'form', flow: 'demo-contact', testId: 'contact-form' })
  })
  const { problems } = watch(page)
  const chunk = await holdFormsChunk(page)
  await page.goto('/contact-us')
  await appTookOver(page)
  const form = page.getByTestId('contact-form')
  await form.getByLabel('Name').pressSequentially('Ana')
  await form.getByLabel('E-mail').pressSequentially('ana@example.com')
  await form.getByLabel('Topic').selectOption({ label: 'Payments' })
  await form.getByTestId('form-submit').click()
  const route = await chunk.asked
  await expect(page.locator('[data-form-host="demo-contact"]')).toHaveAttribute('data-form-held', '')
  await route.continue()
  // the held "Next" went through with all three values: the second step shows, no field error
  await expect(form.getByRole('heading', { name: 'Your message' })).toBeVisible()
  await form.getByRole('button', { name: 'Back' }).click()
  await expect(form.getByLabel('Topic')).toHaveValue(/\d/)
  await expect(form.getByLabel('Topic').locator('option:checked')).toHaveText('Payments')
  await expect(form.getByLabel('Name')).toHaveValue('Ana')
  expect(problems).toEqual([])
})

test('/login: a submit before the app’s script has even arrived is held by the page’s first script (never a plain HTML submit with the password in the address) and made once the form is live', async ({ page }) => {
  const { problems } = watch(page)
  // hold the entry module: only the server's HTML and web/start-after-paint.js are in the page
  let askedEntry: (route: Route) => void = () => {}
  const entryAsked = new Promise<Route>((resolve) => (askedEntry = resolve))
  await page.route(/\/assets\/index-[^/]*\.js$/, (route) => askedEntry(route))
  await page.goto('/login')
  const entry = await entryAsked
  const form = page.getByTestId('login-form')
  await form.getByLabel('E-mail, account number or nickname').fill('opened@demo.parlay.test')
  await form.getByLabel('Password').fill('parlay-demo-1')
  await form.getByLabel('Password').press('Enter')
  await expect(host(page)).toHaveAttribute('data-form-held', '')
  await expect(host(page)).toHaveAttribute('data-form-used', '')
  expect(new URL(page.url()).pathname).toBe('/login')
  expect(new URL(page.url()).search).toBe('')
  await entry.continue()
  await expect(page.getByTestId('logged-in-as')).toHaveText('You are logged in, Demo.')
  expect(page.url()).not.toContain('password')
  expect(problems).toEqual([])
})

test('/join: a phone number typed before its rule has arrived is joined with the country once it has, and a Next tapped meanwhile goes on to the next step', async ({ page }) => {
  const { problems } = watch(page)
  let askedRule: (route: Route) => void = () => {}
  const ruleAsked = new Promise<Route>((resolve) => (askedRule = resolve))
  await page.route(/\/assets\/phone-rule-[^/]*\.js$/, (route) => askedRule(route))
  await page.goto('/join')
  await appTookOver(page)
  const form = page.getByTestId('join-form-phone')
  await form.getByLabel('Mobile phone').pressSequentially('95101234')
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill('parlay-demo-1')
  await form.getByRole('combobox', { name: 'Country', exact: true }).selectOption({ index: 1 })
  await form.getByTestId('form-submit').click()
  const rule = await ruleAsked
  // still the first step, the digits as typed, no error on the field
  await expect(form.getByLabel('Mobile phone')).toHaveValue('95101234')
  await expect(form.locator('[data-field="phoneNumber"] .form-error')).toHaveCount(0)
  await rule.continue()
  await expect(form.getByLabel('Date of birth')).toBeVisible()
  await form.getByRole('button', { name: 'Back' }).click()
  await expect(form.getByLabel('Mobile phone')).toHaveValue('9 510 1234')
  expect(problems).toEqual([])
})
