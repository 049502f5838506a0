/**
 * Identity, documents, nickname and MitID in the browser at phone size (issue 13 items 4, 5, 7):
 * Belarus's upload after sign-up, the nickname-required popup leading to the nickname form, the
 * Russian identity page's passport form with an identification error, and Denmark's MitID button
 * in the login popup. Codes come from the dev outbox; sites are http://<jurisdiction>.localhost.
 */
import type { APIRequestContext, Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { PASSWORD, chooseDate, lastMessage, next, siteUrl, unique } from './signup-helpers'

test.use({ viewport: { width: 360, height: 740 } })

const DEMO_PASSWORD = 'parlay-demo-1'
const popup = (page: Page, id: string) => page.locator(`[data-popup-id="${id}"]`)

/** A phone sign-up up to the code popup, the code typed: the site's afterSignUp runs next. */
async function signUpByPhone(page: Page, request: APIRequestContext, base: string, options: { national: string; dial: string; country: string; personal: (form: Locator) => Promise<void> }) {
  const form = page.getByTestId('join-form-phone')
  await form.getByLabel('Mobile phone').fill(options.national)
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD)
  await form.getByRole('combobox', { name: 'Country', exact: true }).selectOption({ label: options.country })
  await next(form)
  await expect(form.getByLabel('Date of birth')).toBeVisible()
  await options.personal(form)
  await chooseDate(form, 'Date of birth', '1990-05-17')
  await next(form)
  await expect(form.getByRole('checkbox')).toBeVisible()
  await form.getByRole('checkbox').check()
  await next(form)
  const dialog = popup(page, 'join-code-verification')
  await expect(dialog).toBeVisible()
  const sms = await lastMessage(request, base, `+${options.dial}${options.national}`)
  await dialog.getByRole('textbox', { name: 'Code' }).fill(/\b(\d{6})\b/.exec(sms.body)![1])
  await dialog.getByTestId('form-submit').click()
  await expect(dialog).toHaveCount(0)
}

const heartbeat = (page: Page) =>
  page.evaluate(async () => {
    const hash = JSON.parse(localStorage.getItem('sessionHash') ?? 'null') as string
    const answer = await fetch('/mobile-gate/api/v1/heartbeat', { headers: { 'punter-session-hash': hash } })
    return ((await answer.json()) as { payload: { documentsUploadState: string } }).payload
  })

test('Belarus: after sign-up the punter uploads a passport scan; a file of another type or over 5 MB is refused on the field before it is sent', async ({ page, request, baseURL }) => {
  await page.goto(siteUrl(baseURL!, 'belarus', '/en/join'))
  await signUpByPhone(page, request, baseURL!, {
    national: `29${unique()}`,
    dial: '375',
    country: 'Belarus',
    personal: async (form) => {
      await form.getByLabel('First name').fill('Ales')
      await form.getByLabel('Last name').fill('Burak')
      await form.getByRole('combobox', { name: 'Secret question' }).selectOption({ index: 1 })
      await form.getByRole('textbox', { name: 'Secret answer' }).fill('Lantern')
    },
  })
  await expect(page).toHaveURL(/\/account\/upload$/)
  const form = page.getByTestId('upload-form')
  await form.getByRole('combobox', { name: 'Document type' }).selectOption({ label: 'Passport' })
  const file = form.getByLabel('File')
  const sent: string[] = []
  page.on('request', (r) => r.url().includes('/punter/documents/upload') && sent.push(r.url()))

  await file.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a document') })
  await next(form)
  await expect(form.getByText('This type of file is not accepted. Choose a JPEG, PNG or PDF file.')).toBeVisible()
  await file.setInputFiles({ name: 'huge.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(5 * 1024 * 1024 + 1, 0xff) })
  await next(form)
  await expect(form.getByText('This file is larger than 5 MB. Choose a smaller photo or scan.')).toBeVisible()
  expect(sent).toEqual([])

  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])
  await file.setInputFiles({ name: 'passport.png', mimeType: 'image/png', buffer: png })
  await expect(form.getByTestId('file-chosen')).toHaveText('passport.png (0.0 MB)')
  await next(form)
  await expect(page.getByText('Your document is uploaded. We will check it and let you know the result.')).toBeVisible()
  expect(sent).toHaveLength(1)
  expect((await heartbeat(page)).documentsUploadState).toBe('UPLOADED')
})

test('the no-nickname punter follows the nickname-required popup to the form; a taken nickname is refused on the field, a free one is saved and shown in the header', async ({ page }) => {
  await page.goto('/login')
  const login = page.getByTestId('login-form')
  await login.getByLabel('E-mail, account number or nickname').fill('no-nickname@demo.parlay.test')
  await login.getByLabel('Password').fill(DEMO_PASSWORD)
  await login.getByTestId('form-submit').click()
  const prompt = popup(page, 'nickname-required')
  await expect(prompt).toBeVisible()
  await prompt.getByRole('button', { name: 'Choose a nickname' }).click()
  await expect(page).toHaveURL(/\/account\/user-details\/nickname$/)

  const form = page.getByTestId('nickname-form')
  const field = form.getByRole('textbox', { name: 'Nickname' })
  await field.fill('7up')
  await next(form)
  await expect(form.getByText('This value has an invalid format.')).toBeVisible()
  await field.fill('highroller') // the VIP demo punter's, in another case
  await next(form)
  await expect(form.getByText('This nickname is taken.')).toBeVisible()
  await field.fill('LuckyAna')
  await next(form)
  await expect(page.getByText('Your nickname is saved.')).toBeVisible()
  await expect(page).toHaveURL(/\/account\/settings$/)
  // the header's avatar takes the nickname's initial; the page shows the nickname now in use
  await expect(page.getByRole('button', { name: 'Account menu' })).toHaveText('L')
  await page.goto('/account/user-details/nickname')
  await expect(page.getByTestId('nickname-current')).toHaveText('Your nickname now: LuckyAna')
})

test('Russia: on the identity page a passport the service refuses shows the reason; corrected details identify the punter and go on to deposit', async ({ page, request, baseURL }) => {
  await page.goto(siteUrl(baseURL!, 'russia', '/en/join'))
  await signUpByPhone(page, request, baseURL!, { national: `916${unique()}`, dial: '7', country: 'Russia', personal: async () => {} })
  await expect(page).toHaveURL(/\/account\/tsupis\/identity$/)
  await expect(page.getByTestId('identity-agreement')).toContainText('national identification service (TSUPIS)')

  const form = page.getByTestId('identity-form')
  await form.getByRole('combobox', { name: 'Identification method' }).selectOption({ label: 'Simplified: passport details' })
  await form.getByRole('textbox', { name: 'Last name' }).fill('Ivanova')
  await form.getByRole('textbox', { name: 'First name' }).fill('Anna')
  await chooseDate(form, 'Date of birth', '1990-05-17')
  await form.getByRole('textbox', { name: 'Passport series (4 digits)' }).fill('4510')
  await form.getByRole('textbox', { name: 'Passport number (6 digits)' }).fill('000000') // the simulator's invalid passport
  // the date of issue in the calendar popup (spec §2), by keyboard: from today a year back per
  // Shift+Page Up, a month per Page Up, a week per arrow up, to the 1st of June 2010
  const issued = form.getByRole('button', { name: 'Date of issue' })
  await issued.focus()
  await page.keyboard.press('Enter')
  const calendar = page.getByRole('dialog', { name: 'Date of issue' })
  await expect(calendar).toHaveAttribute('aria-modal', 'true')
  const today = new Date(await page.evaluate(() => new Date().toISOString().slice(0, 10)) + 'T00:00:00Z')
  await expect(calendar.locator('button[data-date]:focus')).toHaveAttribute('data-date', today.toISOString().slice(0, 10))
  await page.keyboard.press('Escape')
  await expect(calendar).toHaveCount(0)
  await expect(issued).toBeFocused()
  await page.keyboard.press('Enter')
  for (let i = 0; i < today.getUTCFullYear() - 2010; i++) await page.keyboard.press('Shift+PageUp')
  const months = today.getUTCMonth() - 5
  for (let i = 0; i < Math.abs(months); i++) await page.keyboard.press(months > 0 ? 'PageUp' : 'PageDown')
  await expect(calendar.locator('button[data-date]:focus')).toHaveAttribute('data-date', /^2010-06-/)
  while (((await calendar.locator('button[data-date]:focus').getAttribute('data-date')) ?? '') > '2010-06-07') await page.keyboard.press('ArrowUp')
  while (((await calendar.locator('button[data-date]:focus').getAttribute('data-date')) ?? '') > '2010-06-01') await page.keyboard.press('ArrowLeft')
  await page.keyboard.press('Enter')
  await expect(calendar).toHaveCount(0)
  await expect(issued).toHaveText('2010-06-01')
  await form.getByRole('checkbox').check()
  const firstTry = page.waitForRequest((r) => r.method() === 'POST' && r.url().includes('/identify-punter/'))
  await next(form)
  expect(((await firstTry).postDataJSON() as { passportIssueDate: string }).passportIssueDate).toBe('2010-06-01')
  await expect(form.getByTestId('form-alert')).toHaveText('This passport is not valid. Check the number or use another document.')

  await form.getByRole('textbox', { name: 'Passport number (6 digits)' }).fill('123456')
  // and by a tap: the popup opens on the chosen month; the 15th is tapped
  await issued.click()
  await calendar.getByRole('button', { name: /\b15\b.*2010/ }).click()
  await expect(issued).toHaveText('2010-06-15')
  const secondTry = page.waitForRequest((r) => r.method() === 'POST' && r.url().includes('/identify-punter/'))
  await next(form)
  expect(((await secondTry).postDataJSON() as { passportIssueDate: string }).passportIssueDate).toBe('2010-06-15')
  await expect(page).toHaveURL(/\/account\/deposit\?isAfterSignUp=true$/)
  await expect(page.getByTestId('deposit-welcome')).toBeVisible()
})

test('Denmark: the login popup offers MitID and its button starts the broker flow; the Curaçao popup does not offer it', async ({ page, baseURL }) => {
  const openLoginPopup = async (url: string) => {
    await page.goto(url)
    await page.getByRole('button', { name: 'Log in' }).first().click()
    const dialog = popup(page, 'login')
    await expect(dialog.getByTestId('login-popup-form')).toBeVisible()
    return dialog
  }
  await expect((await openLoginPopup(siteUrl(baseURL!, 'curacao', '/en/casino/lobby'))).getByTestId('login-mitid')).toHaveCount(0)

  const dialog = await openLoginPopup(siteUrl(baseURL!, 'denmark', '/en/casino/lobby'))
  await dialog.getByTestId('login-mitid').click()
  await expect(page).toHaveURL((url) => url.pathname === '/dev/mitid/authorize' && (url.searchParams.get('state') ?? '').length > 20)
  await expect(page.getByTestId('mitid-approve')).toBeVisible()
})

test("Curaçao sign-up hides the nickname field for a Japanese resident (the jurisdiction document's skipCountries) and shows it for Curaçao", async ({ page }) => {
  await page.goto('/join')
  const form = page.getByTestId('join-form-phone')
  const toLastStep = async (country: string) => {
    await form.getByRole('combobox', { name: 'Country', exact: true }).selectOption({ label: country })
    await next(form)
    await form.getByLabel('First name').fill('Aiko')
    await form.getByLabel('Last name').fill('Tanaka')
    await chooseDate(form, 'Date of birth', '1990-05-17')
    await next(form)
    await expect(form.getByRole('checkbox')).toBeVisible()
  }
  await form.getByLabel('Mobile phone').fill(`9${unique()}`)
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD)
  await toLastStep('Japan')
  await expect(form.getByRole('textbox', { name: 'Nickname' })).toHaveCount(0)
  await form.getByRole('button', { name: 'Back' }).click()
  await form.getByRole('button', { name: 'Back' }).click()
  await toLastStep('Curaçao')
  await expect(form.getByRole('textbox', { name: 'Nickname' })).toBeVisible()
})
