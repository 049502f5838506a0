/**
 * Issue 34 item 2: every SMS and e-mail in the punter's language. The oracle is the translations
 * file itself (schemas/i18n/<locale>-outbox.json, read here from disk): the message sent must be
 * exactly that text with the values substituted — so no raw key and no leftover `{{placeholder}}`.
 * The locale is the request's at sign-up and recovery (the site's default when it asks for none),
 * the punter's saved one otherwise; no jurisdiction id decides it.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OUTBOX_TEMPLATES, type OutboxTemplateName } from '../../../kernel/messages/outbox-templates'
import { composeMessage } from '../../../server/signup/message-texts'
import { SCHEMAS_DIR } from '../../support/server'
import { belarusPhone, countryId, curacaoBody, HARNESS_START_MS, russianPhone, startHarness, type Harness } from './helpers'

const LOCALES = ['en', 'ru', 'be', 'es', 'it', 'da', 'pt'] as const
const textsOf = (locale: string) => (JSON.parse(readFileSync(join(SCHEMAS_DIR, 'i18n', `${locale}-outbox.json`), 'utf8')) as { resources: Record<string, string> }).resources
const fill = (text: string, values: Record<string, string>) => Object.entries(values).reduce((out, [name, value]) => out.split(`{{${name}}}`).join(value), text)
/** The text of a template in a locale with the values in: what the punter must receive. */
const expected = (locale: string, key: string, values: Record<string, string>) => fill(textsOf(locale)[key], values)

let h: Harness
beforeAll(async () => void (h = await startHarness()), HARNESS_START_MS)
afterAll(() => h.server.dispose())

const codeIn = (body: string) => /\b(\d{6})\b/.exec(body)![1]
const linkIn = (body: string) => /https?:\/\/\S+/.exec(body)![0]

async function phoneBegin(site: string, path: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await h.call(site, 'POST', path, body, headers)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  const sms = (await h.lastMessage(body.phoneNumber as string))!
  return sms.body
}

const russiaBegin = (headers: Record<string, string> = {}) =>
  phoneBegin('russia', '/account/v2/ru/signup/begin', { phoneNumber: russianPhone(), password: 'long enough pass', countryId: countryId('RU'), birthDay: '1985-02-03', terms: true }, headers)

describe('sign-up and recovery: the language the request asks for, else the site\'s default', () => {
  it('Russia\'s sign-up SMS is the Russian text with the code in it (no Accept-Language: the site\'s default, ru)', async () => {
    const sms = await russiaBegin()
    expect(sms).toBe(expected('ru', 'outbox.signupCode.body', { code: codeIn(sms) }))
    expect(sms).not.toBe(expected('en', 'outbox.signupCode.body', { code: codeIn(sms) }))
  })

  it('the same sign-up on Russia asked in English (Accept-Language: en) is the English text', async () => {
    const sms = await russiaBegin({ 'accept-language': 'en' })
    expect(sms).toBe(expected('en', 'outbox.signupCode.body', { code: codeIn(sms) }))
  })

  it('Russia\'s recovery SMS is the Russian text with the code', async () => {
    const res = await h.call('russia', 'POST', '/account/password/recover', { login: '+79161000001' })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const sms = (await h.lastMessage('+79161000001'))!.body
    expect(sms).toBe(expected('ru', 'outbox.recoveryCode.body', { code: codeIn(sms) }))
  })

  it('Spain\'s confirmation e-mail is the Spanish subject and text with the link', async () => {
    const body = { password: 'a long passphrase', firstName: 'Lucía', lastName: 'García', birthDay: '1988-03-04', terms: true, email: 'lucia.idioma@example.es', countryId: countryId('ES'), documentNumber: '12345678Z' }
    const res = await h.call('spain', 'POST', '/account/spain/signup', body)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const mail = (await h.lastMessage(body.email))!
    expect(mail.subject).toBe(textsOf('es')['outbox.signupConfirmEmail.subject'])
    expect(mail.body).toBe(expected('es', 'outbox.signupConfirmEmail.body', { link: linkIn(mail.body) }))
    expect(linkIn(mail.body)).toMatch(/token=/)
  })

  it('Russia\'s "send the confirmation e-mail again" to an account with no saved language: the site\'s default, Russian', async () => {
    const login = 'russia.unconfirmed@demo.parlay.test'
    expect((await h.call('russia', 'POST', '/account/signup/send-confirmation-mail', { login }, { 'accept-language': 'en' })).status).toBe(200)
    const mail = (await h.lastMessage(login))!
    expect(mail.subject).toBe(textsOf('ru')['outbox.confirmEmailAgain.subject'])
    expect(mail.body).toBe(expected('ru', 'outbox.confirmEmailAgain.body', { link: linkIn(mail.body) }))
  })
})

describe('every locale: a real message over HTTP in it', () => {
  const curacaoPhones: Array<[string, string]> = [['en', 'en'], ['ru', 'ru'], ['es', 'es'], ['pt', 'pt']]
  for (const [locale, asked] of curacaoPhones)
    it(`${locale}: Curaçao's sign-up SMS asked in ${asked} is the ${locale} text`, async () => {
      const sms = await phoneBegin('curacao', '/account/v3/signup/phone/begin', curacaoBody(), { 'accept-language': asked })
      expect(sms).toBe(expected(locale, 'outbox.signupCode.body', { code: codeIn(sms) }))
    })

  it('be: Belarus\'s sign-up SMS asked in Belarusian is the be text', async () => {
    const body = { phoneNumber: belarusPhone(), password: 'long enough pass', countryId: countryId('BY'), firstName: 'Алесь', lastName: 'Бурак', birthDay: '1980-01-01', secretQuestion: 'FirstPetName', secretAnswer: 'Барсік', terms: true }
    const sms = await phoneBegin('belarus', '/account/v2/belarus/signup/begin', body, { 'accept-language': 'be' })
    expect(sms).toBe(expected('be', 'outbox.signupCode.body', { code: codeIn(sms) }))
  })

  it('da: Denmark\'s confirmation e-mail is the Danish text; it: Italy\'s is the Italian text', async () => {
    const base = { password: 'a long passphrase', firstName: 'Freja', lastName: 'Holm', birthDay: '1988-03-04', terms: true }
    const dk = { ...base, email: 'freja.sprog@example.dk', countryId: countryId('DK'), cpr: '010190-1234' }
    expect((await h.call('denmark', 'POST', '/account/v3/signup/email', dk)).status).toBe(200)
    const it1 = { ...base, email: 'mario.lingua@example.it', countryId: countryId('IT'), fiscalCode: 'RSSMRA85T10A562S', provinceId: 1, communeId: 101 }
    expect((await h.call('italy', 'POST', '/account/v2/italy/signup', it1)).status).toBe(200)
    for (const [locale, email] of [['da', dk.email], ['it', it1.email]]) {
      const mail = (await h.lastMessage(email))!
      expect(mail.subject).toBe(textsOf(locale)['outbox.signupConfirmEmail.subject'])
      expect(mail.body).toBe(expected(locale, 'outbox.signupConfirmEmail.body', { link: linkIn(mail.body) }))
    }
  })
})

describe('every template in every locale', () => {
  const names = Object.keys(OUTBOX_TEMPLATES) as OutboxTemplateName[]
  for (const locale of LOCALES)
    it(`${locale}: each template is its own text with the values in, no raw key, no placeholder left`, () => {
      const site = h.server.deps.documents.sites().find((s) => s.locales.includes(locale))!
      const where = { site, jurisdiction: site.jurisdiction, locale, platform: 'web' }
      for (const name of names) {
        const values = Object.fromEntries(OUTBOX_TEMPLATES[name].values.map((v) => [v, v === 'code' ? '482913' : 'https://example.test/t?token=abc']))
        const message = composeMessage(h.server.deps, where, locale, name, values)
        expect(message.body).toBe(expected(locale, `outbox.${name}.body`, values))
        expect(message.body).not.toMatch(/\{\{|outbox\./)
        if (OUTBOX_TEMPLATES[name].channel === 'email') expect(message.subject).toBe(textsOf(locale)[`outbox.${name}.subject`])
        if (locale !== 'en') expect(message.body).not.toBe(expected('en', `outbox.${name}.body`, values))
      }
    })
})

describe('later messages: the language the punter signed up in, not the site\'s default', () => {
  /** Signs up on Russia by phone with the page in `locale`; answers the session header. */
  async function russiaSignup(locale: string) {
    const phone = russianPhone()
    const lang = { 'accept-language': locale }
    const begin = await h.call('russia', 'POST', '/account/v2/ru/signup/begin', { phoneNumber: phone, password: 'long enough pass', countryId: countryId('RU'), birthDay: '1985-02-03', terms: true }, lang)
    expect(begin.status, JSON.stringify(begin.body)).toBe(200)
    const { registrationToken, verificationToken } = begin.body.payload
    const done = await h.call('russia', 'POST', '/account/ru/signup/complete', { registrationToken, verificationToken, verificationCode: await h.lastCode(phone) }, lang)
    expect(done.status, JSON.stringify(done.body)).toBe(200)
    return { 'punter-session-hash': done.body.payload.punterHash as string }
  }
  /** The e-mail sent to `to` once it is in the outbox (it is sent after the answer). */
  const mailTo = async (to: string) => {
    await expect.poll(async () => (await h.lastMessage(to))?.body ?? '', { timeout: 10_000 }).not.toBe('')
    return (await h.lastMessage(to))!
  }

  it('a punter who signed up in English on Russia gets the add-e-mail confirmation in English, asked from a Russian page', async () => {
    const auth = await russiaSignup('en')
    const email = `english.${Date.now()}@example.ru`
    const asked = await h.call('russia', 'POST', '/account/add-email', { email }, { ...auth, 'accept-language': 'ru' })
    expect(asked.status, JSON.stringify(asked.body)).toBe(200)
    const mail = await mailTo(email)
    expect(mail.subject).toBe(textsOf('en')['outbox.emailChangeConfirm.subject'])
    expect(mail.body).toBe(expected('en', 'outbox.emailChangeConfirm.body', { link: linkIn(mail.body) }))
  })

  it('a punter who signed up in Russian on Russia gets it in Russian, asked from an English page', async () => {
    const auth = await russiaSignup('ru')
    const email = `russian.${Date.now()}@example.ru`
    expect((await h.call('russia', 'POST', '/account/add-email', { email }, { ...auth, 'accept-language': 'en' })).status).toBe(200)
    const mail = await mailTo(email)
    expect(mail.subject).toBe(textsOf('ru')['outbox.emailChangeConfirm.subject'])
    expect(mail.body).toBe(expected('ru', 'outbox.emailChangeConfirm.body', { link: linkIn(mail.body) }))
  })
})
