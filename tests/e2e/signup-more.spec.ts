/**
 * Sign-up in the browser for the other jurisdictions (spec §4 phone-code registration,
 * registration by registration token; §5 per-jurisdiction fields; §2 after sign-up; issue 4):
 * Alderney by phone, Spain, Italy and Denmark by e-mail, and Denmark's MitID login with the CPR
 * re-ask. Same helpers as signup.spec.ts: each site is http://<jurisdiction>.localhost:<port>,
 * codes and confirmation links come from the dev outbox (GET /api/dev/outbox?to=…).
 */
import type { APIRequestContext, Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { PASSWORD, chooseDate, finishPhoneSignUp, lastMessage, next, siteUrl, unique } from './signup-helpers'

async function accept(form: Locator) {
  await expect(form.getByRole('checkbox')).toBeVisible()
  await form.getByRole('checkbox').check()
  await next(form)
}

const loggedIn = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('sessionHash') ?? 'null') !== null)

/** Spanish DNI: 8 digits and the check letter (number mod 23). */
function dni(digits: string): string {
  return `${digits}${'TRWAGMYFPDXBNJZSQVHLCKE'[Number(digits) % 23]}`
}

/** Italian codice fiscale: 15 characters and the check letter (odd/even tables, mod 26). */
function codiceFiscale(first15: string): string {
  const ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23]
  let sum = 0
  for (let i = 0; i < 15; i++) {
    const c = first15[i]
    const n = /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 65
    sum += i % 2 === 0 ? ODD[n] : n
  }
  return `${first15}${String.fromCharCode(65 + (sum % 26))}`
}

/** The e-mail flow's account step (e-mail, password, country). */
async function emailAccount(page: Page, country: string): Promise<{ form: Locator; email: string }> {
  const form = page.getByTestId('join-form-email')
  const email = `ana.${unique()}@example.com`
  await form.getByRole('textbox', { name: 'E-mail' }).fill(email)
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD)
  await form.getByRole('combobox', { name: 'Country', exact: true }).selectOption({ label: country })
  await next(form)
  await expect(form.getByLabel('First name')).toBeVisible()
  await form.getByLabel('First name').fill('Ana')
  await form.getByLabel('Last name').fill('Lopez')
  await chooseDate(form, 'Date of birth', '1990-05-17')
  return { form, email }
}

/** After the last step: the check-your-e-mail popup, not logged in; the link logs in. */
async function confirmByMail(page: Page, request: APIRequestContext, base: string, email: string) {
  await expect(page.locator('[data-popup-id="join-thank-you-for-registration"]')).toBeVisible()
  expect(await loggedIn(page)).toBe(false)
  const mail = await lastMessage(request, base, email)
  const link = /https?:\/\/\S+\/join\/confirm-email\?token=\S+/.exec(mail.body)?.[0]
  expect(link).toBeTruthy()
  await page.goto(link!)
  await expect.poll(() => loggedIn(page)).toBe(true)
}

test('Alderney: a phone sign-up (Guernsey mobile) confirms the SMS code and lands on the deposit page as afterSignUp says', async ({ page, request, baseURL }) => {
  await page.goto(siteUrl(baseURL!, 'alderney', '/join'))
  await expect(page.getByTestId('page-title')).toHaveText('Sign up')
  const form = page.getByTestId('join-form-phone')
  const national = `7781${unique().slice(-6)}`
  await form.getByLabel('Mobile phone').fill(national)
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD)
  await form.getByRole('combobox', { name: 'Country', exact: true }).selectOption({ label: 'Guernsey' })
  await next(form)
  await finishPhoneSignUp(page, request, baseURL!, `+44${national}`, { first: 'Ana', last: 'Lopez', birthDay: '1990-05-17' })
})

test('Spain: an e-mail sign-up with a valid DNI shows the check-your-e-mail popup, and the confirmation link logs in and goes to the root (the sport lobby)', async ({ page, request, baseURL }) => {
  await page.goto(siteUrl(baseURL!, 'spain', '/en/join'))
  const { form, email } = await emailAccount(page, 'Spain')
  await form.getByRole('textbox', { name: 'DNI / NIE' }).fill(dni(`4${unique()}`))
  await next(form)
  await accept(form)
  await confirmByMail(page, request, baseURL!, email)
  // the root of a sport site (mainProduct: sport) is the sport lobby
  await expect(page).toHaveURL(/^http:\/\/spain\.localhost:\d+\/sport\/live\/popular$/)
})

test('Italy: an e-mail sign-up with a valid codice fiscale and a commune of the chosen province confirms by mail and goes to the root (the sport lobby)', async ({ page, request, baseURL }) => {
  await page.goto(siteUrl(baseURL!, 'italy', '/en/join'))
  const { form, email } = await emailAccount(page, 'Italy')
  await form.getByRole('textbox', { name: 'Codice fiscale' }).fill(codiceFiscale('LPZNAA90E57H501'))
  await form.getByRole('combobox', { name: 'Province' }).selectOption({ label: 'Roma' })
  await form.getByRole('combobox', { name: 'Commune' }).selectOption({ label: 'Fiumicino' })
  await next(form)
  await accept(form)
  await confirmByMail(page, request, baseURL!, email)
  await expect(page).toHaveURL(/^http:\/\/italy\.localhost:\d+\/sport\/live\/popular$/)
})

test('Denmark: an e-mail sign-up with a CPR of a real date confirms by mail and goes to the root (the casino lobby)', async ({ page, request, baseURL }) => {
  await page.goto(siteUrl(baseURL!, 'denmark', '/en/join'))
  const { form, email } = await emailAccount(page, 'Denmark')
  await form.getByRole('textbox', { name: 'CPR number' }).fill(`170590-${unique().slice(-4)}`)
  await next(form)
  await accept(form)
  await confirmByMail(page, request, baseURL!, email)
  // the root of a casino site (mainProduct: casino) is the casino lobby
  await expect(page).toHaveURL(/^http:\/\/denmark\.localhost:\d+\/casino\/lobby$/)
})

test('Denmark: a MitID login whose identity carries no CPR is re-asked with the personal number (NEED_CPR_REQUEST), then logs in the punter with that CPR', async ({ page, request, baseURL }) => {
  const site = (path: string) => siteUrl(baseURL!, 'denmark', path)
  // a Danish punter signs up by e-mail with a CPR and confirms
  await page.goto(site('/en/join'))
  const { form, email } = await emailAccount(page, 'Denmark')
  const cpr = `170590-${unique().slice(-4)}`
  await form.getByRole('textbox', { name: 'CPR number' }).fill(cpr)
  await next(form)
  await accept(form)
  await confirmByMail(page, request, baseURL!, email)
  // a guest again: storage is cleared from a plain resource of the same origin, so no live page of
  // the site writes its session back afterwards
  await page.goto(site('/favicon.ico'))
  await page.evaluate(() => localStorage.clear())

  const visited: string[] = []
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname + new URL(frame.url()).search)
  })
  // the sign-up page's MitID button starts at the broker (GET account/mitId/params?askCpr=false)
  await page.goto(site('/en/join'))
  await page.getByTestId('join-mitid').click()
  await expect(page).toHaveURL((url) => url.pathname === '/dev/mitid/authorize')
  const firstState = new URL(page.url()).searchParams.get('state')
  expect(firstState).toBeTruthy()

  // first approval: a MitID identity without a CPR and not linked yet → NEED_CPR_REQUEST
  const subject = `mitid-${unique()}`
  await page.getByTestId('mitid-subject').fill(subject)
  await page.getByTestId('mitid-approve').click()
  // the client re-asks with askCpr=true: back on the simulator's page with a new state
  await expect(page).toHaveURL((url) => url.pathname === '/dev/mitid/authorize' && url.searchParams.get('state') !== firstState)
  expect(visited.some((path) => path.startsWith('/join/mitid?mitIdCode='))).toBe(true)
  await page.getByTestId('mitid-subject').fill(subject)
  await page.getByTestId('mitid-cpr').fill(cpr)
  await page.getByTestId('mitid-approve').click()
  // the CPR is kept only when the broker was asked for it, so this login proves the re-ask
  await expect.poll(() => loggedIn(page)).toBe(true)
  await expect(page).toHaveURL(/^http:\/\/denmark\.localhost:\d+\/casino\/lobby$/)
  // both broker answers came back to /join/mitid; the re-ask went straight back to the broker
  // (no detour through the root while leaving, which used to remember "sport" as the last product)
  const returns = visited.map((path, index) => ({ path, index })).filter(({ path }) => path.startsWith('/join/mitid?mitIdCode='))
  expect(new Set(returns.map(({ path }) => path)).size).toBe(2)
  const secondBroker = visited.findIndex((path, index) => index > returns[0].index && path.startsWith('/dev/mitid/authorize'))
  expect(visited.slice(returns[0].index, secondBroker)).not.toContain('/')
})
