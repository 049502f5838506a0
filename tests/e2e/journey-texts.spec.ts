/**
 * What regulated journeys say, at phone size, in English and another language (issue 34, the
 * "misleading texts" and the login popup's headings): a self-excluded login is refused because of
 * the exclusion, until its end; the exclusion-ended popup says only that it has ended and what
 * happens next; a card declined before 3-D Secure is not a failed 3-D Secure; a restricted
 * punter's refused deposit gives the reason alone; a punter without a first name is greeted without
 * one; the login popup and page show "Log in" once. Demo punters of localhost (Curaçao), whose
 * site speaks English and Russian (/ru/…); the greeting's punter signs up on Russia's site.
 */
import type { Locator, Page } from '@playwright/test'
import { DEMO_PASSWORD, expect, logInByApi, test } from './fixtures'
import { enterCode, signUpByPhone, siteUrl, unique } from './signup-helpers'

/** 'D MMM YYYY HH:mm' (spec §5) in any language: day, month word, year, time. */
const DATE = String.raw`\d{1,2} \S+ \d{4},? \d{2}:\d{2}`

const LOCALES = {
  en: {
    prefix: '',
    login: 'E-mail, account number or nickname',
    password: 'Password',
    refusedUntil: new RegExp(`^You cannot log in: your account is self-excluded until (${DATE})\\.$`),
    until: 'Until ',
    loginRefused: 'You cannot log in while the exclusion lasts.',
    ended: 'Your self-exclusion has ended.',
    endedNext: 'Open it with the button below and you are logged in',
    loginHeading: 'Log in',
    declined: 'Your card was declined before 3-D Secure. No money was taken.',
    threeDsFailed: 'Your bank did not confirm the payment',
    restricted: new RegExp(`^A player protection measure is on your account until ${DATE}: this is closed until then\\.$`),
    generic: /Something went wrong|We could not send the form/,
    greeting: 'Hello!',
  },
  ru: {
    prefix: '/ru',
    login: 'E-mail, номер счёта или никнейм',
    password: 'Пароль',
    refusedUntil: new RegExp(`^Войти нельзя: ваш счёт в самоисключении до (${DATE})\\.$`),
    until: 'До ',
    loginRefused: 'Пока действует исключение, войти в аккаунт нельзя.',
    ended: 'Срок вашего самоисключения истёк.',
    endedNext: 'Откройте его кнопкой ниже, и вы войдёте',
    loginHeading: 'Вход',
    declined: 'Карта отклонена до проверки 3-D Secure. Деньги не списаны.',
    threeDsFailed: 'Банк не подтвердил платёж',
    restricted: new RegExp(`^К вашему счёту применена мера защиты игрока до ${DATE}: до этого времени это недоступно\\.$`),
    generic: /Что-то пошло не так|Не удалось отправить форму/,
    greeting: 'Здравствуйте!',
  },
} as const

type Texts = (typeof LOCALES)[keyof typeof LOCALES]

test.beforeEach(async ({ context, baseURL }) => {
  test.slow()
  await context.addCookies([{ name: 'ConsentCookie', value: 'necessary', url: baseURL! }])
})

async function logInOnPage(page: Page, texts: Texts, login: string): Promise<Locator> {
  await page.goto(`${texts.prefix}/login`)
  const form = page.getByTestId('login-form')
  await form.getByLabel(texts.login).fill(login)
  await form.getByLabel(texts.password).fill(DEMO_PASSWORD)
  await form.getByTestId('form-submit').click()
  return form
}

for (const [locale, texts] of Object.entries(LOCALES)) {
  test(`${locale}: a self-excluded login is refused because of the exclusion and says until when; nothing about signing up`, async ({ page }) => {
    const form = await logInOnPage(page, texts, 'self-excluded@demo.parlay.test')
    const alert = form.getByTestId('form-alert')
    await expect(alert).toHaveText(texts.refusedUntil)
    const date = texts.refusedUntil.exec((await alert.textContent()) ?? '')![1]
    // the popup gives the same end
    const popup = page.locator('[data-popup-id="self-exclude"]')
    await expect(popup).toContainText(`${texts.until}${date}`)
    await expect(popup).toContainText(texts.loginRefused)
    await expect(page.getByText(/cannot sign up|регистрация невозможна/i)).toHaveCount(0)
  })

  test(`${locale}: the exclusion-ended popup says only that it has ended and what happens next`, async ({ page }) => {
    await logInOnPage(page, texts, 'exclusion-ended@demo.parlay.test')
    const popup = page.locator('[data-popup-id="self-exclude"]')
    await expect(popup).toContainText(texts.ended)
    await expect(popup).toContainText(texts.endedNext)
    await expect(popup.getByTestId('self-exclude-open')).toBeVisible()
    await expect(popup).not.toContainText(texts.loginRefused)
    await expect(popup).not.toContainText(texts.until)
  })

  test(`${locale}: a card declined before 3-D Secure has its own text, not the 3-D Secure one`, async ({ page, baseURL }) => {
    // Russian on Russia's site: the provider's return lands on the site's default language
    const { login, amount, path } = locale === 'en' ? { login: 'opened@demo.parlay.test', amount: '20', path: '/account/deposit?method=card' } : { login: 'russia@demo.parlay.test', amount: '500', path: siteUrl(baseURL!, 'russia', '/account/deposit?method=card') }
    await logInByApi(page, login, path)
    await page.locator('#root_amount').fill(amount)
    await page.getByTestId('form-submit').click()
    await page.getByTestId('pay-card').fill('4000 0000 0000 0002')
    await page.getByTestId('pay-submit').click()
    await expect(page).toHaveURL(/\/account\/deposit$/)
    const notices = page.getByTestId('notifications')
    await expect(notices).toContainText(texts.declined)
    await expect(notices).not.toContainText(texts.threeDsFailed)
  })

  test(`${locale}: a restricted punter's refused deposit gives the deciding restriction alone, no generic failure beside it`, async ({ page }) => {
    await logInByApi(page, 'restricted@demo.parlay.test', `${texts.prefix}/account/deposit?method=card`)
    await page.locator('#root_amount').fill('20')
    await page.getByTestId('form-submit').click()
    await expect(page.getByTestId('form-alert')).toHaveText(texts.restricted)
    await expect(page.getByText(texts.restricted)).toHaveCount(1)
    await expect(page.getByText(texts.generic)).toHaveCount(0)
  })

  test(`${locale}: the login popup and the login page show their title once`, async ({ page }) => {
    await page.goto(`${texts.prefix}/sport/live/popular`)
    await page.locator('header.app-header [data-header-item="login"]').click()
    const popup = page.locator('[data-popup-id="login"]')
    await expect(popup.getByLabel(texts.login)).toBeVisible()
    await expect(popup.getByRole('heading', { name: texts.loginHeading, exact: true })).toHaveCount(1)
    await page.goto(`${texts.prefix}/login`)
    await expect(page.getByTestId('login-form').getByLabel(texts.login)).toBeVisible()
    await expect(page.getByRole('heading', { name: texts.loginHeading, exact: true })).toHaveCount(1)
  })
}

test('a punter who signed up without a first name is greeted without one, in Russian and in English', async ({ page, request, baseURL }) => {
  const site = (path: string) => siteUrl(baseURL!, 'russia', path)
  await page.goto(site('/en/join'))
  const phone = await signUpByPhone(page, { national: `916${unique()}`, dial: '7', country: 'Russia', skipNames: true })
  await enterCode(page, request, baseURL!, phone)
  await expect(page).toHaveURL(/\/account\/tsupis\/identity$/)
  for (const [path, greeting] of [
    ['/account/settings', LOCALES.ru.greeting],
    ['/en/account/settings', LOCALES.en.greeting],
  ] as const) {
    await page.goto(site(path))
    await expect(page.getByText(greeting, { exact: true })).toBeVisible()
    await expect(page.getByText(/,\s*!/)).toHaveCount(0)
  }
})
