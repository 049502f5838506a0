/**
 * Sign-up in the browser (spec §4 phone-code registration, registration by registration token;
 * §2 after sign-up; issue 4): a new punter signs up on /join of each site
 * (http://<jurisdiction>.localhost:<port>), reads the code or the confirmation link from the dev
 * outbox (GET /api/dev/outbox?to=…), and lands where the jurisdiction's afterSignUp says.
 */
import { expect, test } from './fixtures'
import type { Page } from '@playwright/test'
import { PASSWORD, accept, enterCode, fillPersonal, lastMessage, next, signUpByPhone, siteUrl, unique } from './signup-helpers'

test('Curaçao: a phone sign-up confirms the SMS code and lands on the deposit page with the welcome line', async ({ page, request, baseURL }) => {
  await page.goto(siteUrl(baseURL!, 'curacao', '/join'))
  await expect(page.getByTestId('page-title')).toHaveText('Sign up')
  const phone = await signUpByPhone(page, { national: `9${unique()}`, dial: '599', country: 'Curaçao' })
  await enterCode(page, request, baseURL!, phone)
  await expect(page).toHaveURL(/\/account\/deposit\?isAfterSignUp=true$/)
  await expect(page.getByTestId('deposit-welcome')).toBeVisible()
  await expect(page.getByTestId('page-title')).toHaveText('Deposit')
})

const loggedIn = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('sessionHash') ?? 'null') !== null)

test('Curaçao: an e-mail sign-up shows the check-your-e-mail popup, and the confirmation link logs the punter in', async ({ page, request, baseURL }) => {
  await page.goto(siteUrl(baseURL!, 'curacao', '/join'))
  await page.getByTestId('join-by-email').click()
  const form = page.getByTestId('join-form-email')
  const email = `ana.${unique()}@example.com`
  await form.getByRole('textbox', { name: 'E-mail' }).fill(email)
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD)
  await form.getByRole('combobox', { name: 'Country', exact: true }).selectOption({ label: 'Curaçao' })
  await next(form)
  await fillPersonal(form)
  await accept(form)
  await expect(page.locator('[data-popup-id="join-thank-you-for-registration"]')).toBeVisible()
  expect(await loggedIn(page)).toBe(false)

  const mail = await lastMessage(request, baseURL!, email)
  const link = /https?:\/\/\S+\/join\/confirm-email\?token=\S+/.exec(mail.body)?.[0]
  expect(link).toBeTruthy()
  await page.goto(link!)
  await expect.poll(() => loggedIn(page)).toBe(true)
  await expect(page).not.toHaveURL(/confirm-email/)
})

test('Belarus: a phone sign-up confirms the SMS code and lands on the document upload page', async ({ page, request, baseURL }) => {
  await page.goto(siteUrl(baseURL!, 'belarus', '/en/join'))
  const phone = await signUpByPhone(page, {
    national: `29${unique()}`,
    dial: '375',
    country: 'Belarus',
    personal: async (form) => {
      await form.getByRole('combobox', { name: 'Secret question' }).selectOption({ index: 1 })
      await form.getByRole('textbox', { name: 'Secret answer' }).fill('Lantern')
    },
  })
  await enterCode(page, request, baseURL!, phone)
  await expect(page).toHaveURL(/\/account\/upload$/)
  await expect(page.getByTestId('page-title')).toBeVisible()
})

test('Russia: after the SMS code an unidentified punter lands on the identity page, and moves to deposit once identified', async ({ page, request, baseURL }) => {
  const site = (path: string) => siteUrl(baseURL!, 'russia', path)
  await page.goto(site('/en/join'))
  const phone = await signUpByPhone(page, { national: `916${unique()}`, dial: '7', country: 'Russia', skipNames: true })
  await enterCode(page, request, baseURL!, phone)
  await expect(page).toHaveURL(/\/account\/tsupis\/identity$/)
  await expect(page.getByTestId('identity-waiting')).toBeVisible()

  // the punter identifies with the national service (simplified identification by passport)
  // (called from the page: Node does not resolve *.localhost, the browser does)
  const status = await page.evaluate(async () => {
    const hash = JSON.parse(localStorage.getItem('sessionHash') ?? 'null') as string
    const body = { lastName: 'Ivanova', firstName: 'Anna', birthDay: '1990-05-17', passportSeries: '4510', passportNumber: '123456', passportIssueDate: '2010-06-01' }
    const answer = await fetch('/mobile-gate/api/v1/punter/cps/one/identify-punter/simplified', { method: 'POST', headers: { 'content-type': 'application/json', 'punter-session-hash': hash }, body: JSON.stringify(body) })
    return answer.status
  })
  expect(status).toBe(200)
  await expect(page).toHaveURL(/\/account\/deposit\?isAfterSignUp=true$/)
  await expect(page.getByTestId('deposit-welcome')).toBeVisible()
})
