/**
 * Sign-up per jurisdiction (spec §4 sign-up stages, §5 validation, §8 codes): every variant end to
 * end over HTTP, duplicates, steps out of order, the rules JSON Schema cannot say, bad input
 * (never a 500, nothing half-registered), identity simulators, Belarus upload, dictionary caching.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { belarusPhone, countryId, curacaoBody, GATE, russianPhone, HARNESS_START_MS, startHarness, type Harness } from './helpers'
import { SITES } from '../../support/sites'

let h: Harness
beforeAll(async () => void (h = await startHarness()), HARNESS_START_MS)
afterAll(() => h.server.dispose())

/** Punters with this e-mail or phone, read through the query layer (the punters table may be on PostgreSQL). */
const punters = async (column: 'email' | 'phone', value: string) => (await h.server.deps.data.db.selectFrom('punters').select('id').where(column, '=', value).execute()).length

async function phoneSignup(overrides: Record<string, unknown> = {}) {
  const body = curacaoBody(overrides)
  const begin = await h.call('curacao', 'POST', '/account/v3/signup/phone/begin', body)
  expect(begin.status, JSON.stringify(begin.body)).toBe(200)
  const code = await h.lastCode(body.phoneNumber as string)
  const done = await h.call('curacao', 'POST', '/account/v3/signup/phone/complete', { verificationToken: begin.body.payload.verificationToken, verificationCode: code })
  expect(done.status).toBe(200)
  return { body, login: done.body.payload }
}

const fieldCodes = (res: { body: any }) => (Array.isArray(res.body.payload) ? res.body.payload.map((e: { field: string; code: string }) => `${e.field}:${e.code}`) : [])

describe('duplicates', () => {
  it('an existing phone, e-mail or nickname is refused with its code before any code is sent', async () => {
    const { body } = await phoneSignup({ nickname: 'Pioneer01' })
    h.clock.now += 61_000
    const phone = await h.call('curacao', 'POST', '/account/v3/signup/phone/begin', curacaoBody({ phoneNumber: body.phoneNumber }))
    expect([phone.status, phone.body.errorCode]).toEqual([409, 'DUPLICATE_PHONE_NUMBER'])
    const nickname = await h.call('curacao', 'POST', '/account/v3/signup/phone/begin', curacaoBody({ nickname: 'pioneer01' }))
    expect([nickname.status, nickname.body.errorCode]).toEqual([409, 'NICKNAME_ALREADY_EXIST'])
    const email = { email: 'dup@example.com', password: 'a long passphrase', countryId: countryId('CW'), firstName: 'A', lastName: 'B', birthDay: '1990-01-01', terms: true }
    expect((await h.call('curacao', 'POST', '/account/v3/signup/email', email)).status).toBe(200)
    const again = await h.call('curacao', 'POST', '/account/v3/signup/email', { ...email, email: 'DUP@example.com' })
    expect([again.status, again.body.errorCode]).toEqual([409, 'DUPLICATE_EMAIL'])
    expect(await punters('email', 'dup@example.com')).toBe(1)
  })
})

describe('steps out of order are refused', () => {
  it('Russia: complete before the code step, a made-up token, a token of another variant', async () => {
    const phone = russianPhone()
    const begin = await h.call('russia', 'POST', '/account/v2/ru/signup/begin', { phoneNumber: phone, password: 'long enough pass', countryId: countryId('RU'), birthDay: '1985-02-03', terms: true })
    expect(begin.status, JSON.stringify(begin.body)).toBe(200)
    const { verificationToken, registrationToken } = begin.body.payload
    expect(registrationToken).toBeTruthy()
    const early = await h.call('russia', 'POST', '/account/ru/signup/complete', { registrationToken, verificationToken })
    expect([early.status, early.body.errorCode]).toEqual([409, 'VERIFICATION_ERROR'])
    const madeUp = await h.call('curacao', 'POST', '/account/v3/signup/phone/complete', { verificationToken: 'x'.repeat(43), verificationCode: '123456' })
    expect(madeUp.body.errorCode).toBe('UNKNOWN_HASH')
    const wrongPair = await h.call('russia', 'POST', '/account/ru/signup/complete', { registrationToken: 'y'.repeat(43), verificationToken })
    expect(wrongPair.body.errorCode).toBe('UNKNOWN_HASH')
    const state = await h.call('russia', 'POST', '/account/ru/signup/continue', { registrationToken })
    expect(state.body.payload).toMatchObject({ status: 'PENDING', phoneNumber: phone, attemptCodeCount: 5 })
    expect(state.body.payload.verificationToken).toBeUndefined()
    const code = await h.lastCode(phone)
    const confirmed = await h.call('russia', 'POST', '/account/ru/signup/confirmation/phone-number', { verificationToken, verificationCode: code })
    expect(confirmed.status).toBe(200)
    expect(await punters('phone', phone)).toBe(0)
    const done = await h.call('russia', 'POST', '/account/ru/signup/complete', { registrationToken, verificationToken })
    expect(done.status).toBe(200)
    expect(done.body.payload.identityState).toBe('none')
    expect(await punters('phone', phone)).toBe(1)
    const twice = await h.call('russia', 'POST', '/account/ru/signup/complete', { registrationToken, verificationToken })
    expect(twice.body.errorCode).toBe('SESSION_ALREADY_VERIFIED')

    // Identity (simulator): not identified → simplified → limited level counts as identified.
    const auth = { 'punter-session-hash': done.body.payload.punterHash }
    const info = await h.call('russia', 'GET', '/punter/cps/one/info', undefined, auth)
    expect(info.body.payload.cupisOneInfo).toMatchObject({ result: 'none', identified: false, clientStatus: 'ok' })
    const passport = { lastName: 'Иванов', firstName: 'Иван', birthDay: '1985-02-03', passportSeries: '4510', passportNumber: '123456', passportIssueDate: '2010-01-01' }
    const simple = await h.call('russia', 'POST', '/punter/cps/one/identify-punter/simplified', passport, auth)
    expect(simple.body.payload.cupisOneInfo).toMatchObject({ result: 'simple_success', level: 'limited', identified: true })
    const heartbeat = await h.call('russia', 'GET', '/heartbeat', undefined, auth)
    expect(heartbeat.body.payload.punterIdentityState).toBe('simple_success')
    const invalid = await h.call('russia', 'POST', '/punter/cps/one/identify-punter/simplified/with-verification', { ...passport, passportNumber: '000000' }, auth)
    expect(invalid.body.payload).toMatchObject({ baseResult: { status: 'ERROR', errorCode: 'passportInvalid' }, cupisOneInfo: { result: 'fail' } })
  })
})

describe('rules the schema cannot say (spec §5)', () => {
  const begin = (site: string, path: string, body: unknown) => h.call(site, 'POST', path, body)

  it('minimum age comes from the jurisdiction document: 18 in Curacao, 21 in Belarus', async () => {
    const seventeen = new Date(h.clock.now - 17.5 * 365.25 * 86_400_000).toISOString().slice(0, 10)
    const twenty = new Date(h.clock.now - 20.5 * 365.25 * 86_400_000).toISOString().slice(0, 10)
    const twentyTwo = new Date(h.clock.now - 22 * 365.25 * 86_400_000).toISOString().slice(0, 10)
    expect(fieldCodes(await begin('curacao', '/account/v3/signup/phone/begin', curacaoBody({ birthDay: seventeen })))).toContain('birthDay:minimumAge')
    const by = (birthDay: string, extra: Record<string, unknown> = {}) => ({
      phoneNumber: belarusPhone(), password: 'long enough pass', countryId: countryId('BY'), firstName: 'Алесь', lastName: 'Каліноўскі', birthDay,
      secretQuestion: 'MotherName', secretAnswer: 'Ганна', terms: true, ...extra,
    })
    expect(fieldCodes(await begin('belarus', '/account/v2/belarus/signup/begin', by(twenty)))).toContain('birthDay:minimumAge')
    expect((await begin('belarus', '/account/v2/belarus/signup/begin', by(twentyTwo))).status).toBe(200)
    const secret = await begin('belarus', '/account/v2/belarus/signup/begin', by('1990-05-12', { secretAnswer: 'born 12.05.1990' }))
    expect(secret.body.errorCode).toBe('SECRET_QUESTION_ANSWER_CONTAINS_BIRTHDAY')
  })

  it('names in any script, single spaces; passwords 8..128 without composition rules; phone per country', async () => {
    expect((await begin('curacao', '/account/v3/signup/phone/begin', curacaoBody({ firstName: '山田', lastName: 'Ñúñez Ölz' }))).status).toBe(200)
    expect(fieldCodes(await begin('curacao', '/account/v3/signup/phone/begin', curacaoBody({ firstName: 'Ana  Maria' })))).toContain('firstName:pattern')
    expect(fieldCodes(await begin('curacao', '/account/v3/signup/phone/begin', curacaoBody({ password: 'short12' })))).toContain('password:minLength')
    expect(fieldCodes(await begin('curacao', '/account/v3/signup/phone/begin', curacaoBody({ password: 'password' })))).toContain('password:breachedPassword')
    expect((await begin('curacao', '/account/v3/signup/phone/begin', curacaoBody({ password: 'x'.repeat(64) }))).status).toBe(200)
    const badPhone = await begin('curacao', '/account/v3/signup/phone/begin', curacaoBody({ phoneNumber: '+5999123' }))
    expect(badPhone.body.errorCode).toBe('INCORRECT_PHONE_NUMBER')
    const nigeria = await begin('curacao', '/account/v3/signup/phone/begin', curacaoBody({ phoneNumber: '+2348031234567' }))
    expect(nigeria.body.errorCode).toBe('DISABLED_SMS_REGION')
  })

  it('nickname skipped for JP/KR/BY/NG in Curacao; country check blocks listed countries unless the locale is ru', async () => {
    expect(fieldCodes(await begin('curacao', '/account/v3/signup/phone/begin', curacaoBody({ countryId: countryId('JP'), nickname: 'Tanaka77' })))).toContain('nickname:notAllowed')
    const us = countryId('US')
    const blocked = h.server.deps.documents.resolve('jurisdiction', 'curacao', { jurisdiction: 'curacao', locale: 'en', platform: 'web' })
    expect((blocked?.source as any).countryCheck.blockedCountries).toContain('US')
    // US is not in the flow's country list either: the schema refuses it first.
    expect(fieldCodes(await begin('curacao', '/account/v3/signup/phone/begin', curacaoBody({ countryId: us })))).toContain('countryId:enum')
  })

  it('promo code is checked together with the country: a code of other countries and an unknown code answer different codes', async () => {
    const ok = await h.call('curacao', 'POST', '/bonus/check-promo-code', { promoCode: 'welcome100', countryId: countryId('CW') })
    expect(ok.body.payload).toMatchObject({ valid: true, promoCode: 'WELCOME100' })
    const local = await h.call('curacao', 'POST', '/bonus/check-promo-code', { promoCode: 'LOCAL50', countryId: countryId('BR') })
    expect([local.status, local.body.errorCode]).toEqual([400, 'PROMO_CODE_NOT_FOR_COUNTRY'])
    const nonsense = await h.call('curacao', 'POST', '/bonus/check-promo-code', { promoCode: 'XQZ7NONSENSE', countryId: countryId('CW') })
    expect([nonsense.status, nonsense.body.errorCode]).toEqual([400, 'INVALID_PROMO_CODE'])
    expect((await h.call('curacao', 'POST', '/bonus/check-promo-code', { promoCode: 'LOCAL50', countryId: countryId('CW') })).status).toBe(200)
    expect(fieldCodes(await begin('curacao', '/account/v3/signup/phone/begin', curacaoBody({ countryId: countryId('BR'), promoCode: 'LOCAL50' })))).toContain('promoCode:PROMO_CODE_NOT_FOR_COUNTRY')
    expect(fieldCodes(await begin('curacao', '/account/v3/signup/phone/begin', curacaoBody({ promoCode: 'XQZ7NONSENSE' })))).toContain('promoCode:INVALID_PROMO_CODE')
  })
})

describe('e-mail variants and registration by token', () => {
  const confirmLink = async (email: string) => {
    const mail = await h.lastMessage(email)
    return /token=([A-Za-z0-9_%-]+)/.exec(mail?.body ?? '')![1]
  }

  it('Curacao e-mail: mail with link → login by registration token → e-mail confirmed; the token works once', async () => {
    const body = { email: 'new.punter@example.com', password: 'a long passphrase', countryId: countryId('CW'), firstName: 'Nia', lastName: 'Tromp', birthDay: '1992-07-01', terms: true }
    const res = await h.call('curacao', 'POST', '/account/v3/signup/email', body)
    expect(res.body.payload).toMatchObject({ needEmailConfirmation: true })
    const before = await h.call('curacao', 'POST', '/auth/v2/login', { login: body.email, password: body.password })
    expect(before.body.errorCode).toBe('CANNOT_LOGIN_NO_EMAIL_CONFIRMED')
    const token = decodeURIComponent(await confirmLink(body.email))
    const login = await h.call('curacao', 'POST', '/auth/v2/login-by-registration-token', { token })
    expect(login.body.payload).toMatchObject({ status: 'OK' })
    expect((await h.call('curacao', 'POST', '/auth/v2/login-by-registration-token', { token })).body.errorCode).toBe('TOKEN_NOT_FOUND')
    expect((await h.call('curacao', 'POST', '/auth/v2/login', { login: body.email, password: body.password })).status).toBe(200)
  })

  it('Spain (DNI checked), Italy (codice fiscale, commune of the province), Denmark (CPR, then MitID with the CPR re-ask)', async () => {
    const base = { password: 'a long passphrase', firstName: 'Lucía', lastName: 'García', birthDay: '1988-03-04', terms: true }
    const es = await h.call('spain', 'POST', '/account/spain/signup', { ...base, email: 'lucia@example.es', countryId: countryId('ES'), documentNumber: '12345678A' })
    expect(fieldCodes(es)).toContain('documentNumber:checksum')
    expect((await h.call('spain', 'POST', '/account/spain/signup', { ...base, email: 'lucia@example.es', countryId: countryId('ES'), documentNumber: '12345678Z' })).status).toBe(200)
    const it1 = { ...base, email: 'mario@example.it', countryId: countryId('IT'), fiscalCode: 'RSSMRA85T10A562S', provinceId: 1, communeId: 201 }
    expect(fieldCodes(await h.call('italy', 'POST', '/account/v2/italy/signup', it1))).toContain('communeId:enum')
    expect((await h.call('italy', 'POST', '/account/v2/italy/signup', { ...it1, communeId: 101 })).status).toBe(200)
    // Denmark
    const dk = { ...base, email: 'freja@example.dk', countryId: countryId('DK'), cpr: '010190-1234' }
    expect((await h.call('denmark', 'POST', '/account/v3/signup/email', { ...dk, cpr: '320190-1234' })).body.errorCode).toBe('CPR_CODE_INVALID')
    expect((await h.call('denmark', 'POST', '/account/v3/signup/email', dk)).status).toBe(200)
    await h.call('denmark', 'POST', '/auth/v2/login-by-registration-token', { token: decodeURIComponent(await confirmLink(dk.email)) })
    const mitid = async (askCpr: boolean, cpr?: string) => {
      const params = await h.call('denmark', 'GET', `/account/mitId/params?askCpr=${askCpr}`)
      const state = params.body.payload.state as string
      const form = new URLSearchParams({ state, subject: 'freja-mitid', ...(cpr ? { cpr } : {}) })
      const approve = await fetch(`${h.server.url}/dev/mitid/authorize`, { method: 'POST', body: form, redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
      const location = new URL(approve.headers.get('location')!, h.server.url)
      expect(location.pathname).toBe('/join/mitid') // the screen that completes the MitID login
      return h.call('denmark', 'POST', '/auth/mitId/login', { authorizationCode: location.searchParams.get('mitIdCode'), state: location.searchParams.get('mitIdState') })
    }
    expect((await mitid(false)).body.errorCode).toBe('NEED_CPR_REQUEST')
    expect((await mitid(true, '020202-2222')).body.errorCode).toBe('PUNTER_NOT_LINKED_WITH_EXTERNAL_SYSTEM')
    const linked = await mitid(true, '010190-1234')
    expect(linked.body.payload).toMatchObject({ status: 'OK', loginByAuthType: 'mitId' })
    expect((await mitid(false)).body.payload).toMatchObject({ status: 'OK' }) // linked now: no CPR needed
  })
})

describe('Belarus upload after sign-up', () => {
  it('accepts a PNG, refuses a disguised text file (415) and a file over 5 MB (413)', async () => {
    const phone = belarusPhone()
    const begin = await h.call('belarus', 'POST', '/account/v2/belarus/signup/begin', {
      phoneNumber: phone, password: 'long enough pass', countryId: countryId('BY'), firstName: 'Алесь', lastName: 'Бурак', birthDay: '1980-01-01',
      secretQuestion: 'FirstPetName', secretAnswer: 'Барсік', terms: true,
    })
    const done = await h.call('belarus', 'POST', '/account/belarus/signup/complete', { verificationToken: begin.body.payload.verificationToken, verificationCode: await h.lastCode(phone) })
    expect(done.status).toBe(200)
    const hash = done.body.payload.punterHash as string
    const upload = async (bytes: Uint8Array, name: string, type: string) => {
      const form = new FormData()
      form.set('documentType', 'PASSPORT')
      form.set('document', new Blob([bytes as unknown as BlobPart], { type }), name)
      const res = await fetch(`${h.server.url}${GATE}/punter/documents/upload`, { method: 'POST', body: form, headers: { 'x-parlay-target': 'belarus', 'punter-session-hash': hash } })
      return { status: res.status, body: await res.json() }
    }
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])
    expect((await upload(png, 'passport.png', 'image/png')).body.payload).toMatchObject({ documentsUploadState: 'UPLOADED', type: 'image/png' })
    expect((await upload(new TextEncoder().encode('not an image'), 'passport.png', 'image/png')).status).toBe(415)
    expect((await upload(new Uint8Array(5 * 1024 * 1024 + 1), 'big.pdf', 'application/pdf')).status).toBe(413)
    const anonymous = await fetch(`${h.server.url}${GATE}/punter/documents/upload`, { method: 'POST', headers: { 'x-parlay-target': 'belarus' } })
    expect(anonymous.status).toBe(401)
  })
})

describe('dictionary', () => {
  it('phone config has ~230 countries; answers are cached 15 minutes per method, language, site and params', async () => {
    const first = await h.call('curacao', 'GET', '/account/signup/phone/config')
    expect(first.body.payload.countries.length).toBeGreaterThan(220)
    expect(first.headers.get('x-dictionary-cache')).toBe('miss')
    expect((await h.call('curacao', 'GET', '/account/signup/phone/config')).headers.get('x-dictionary-cache')).toBe('hit')
    expect((await h.call('russia', 'GET', '/account/signup/phone/config')).headers.get('x-dictionary-cache')).toBe('miss')
    h.clock.now += 15 * 60_000
    expect((await h.call('curacao', 'GET', '/account/signup/phone/config')).headers.get('x-dictionary-cache')).toBe('miss')
    const communes = await h.call('italy', 'GET', '/dictionary/italy/provinces/1/communes')
    expect(communes.body.payload.map((c: { name: string }) => c.name)).toContain('Roma')
    expect((await h.call('italy', 'GET', '/dictionary/italy/provinces/abc/communes')).status).toBe(400)
    const address = await h.call('italy', 'POST', `/dictionary/address-search/${countryId('IT')}`, { query: 'roma' })
    expect(address.body.payload[0]).toMatchObject({ city: 'Roma' })
    const countries = await h.call('russia', 'GET', '/dictionary/all-platform-countries?locale=ru')
    expect(countries.body.payload.find((c: { code: string }) => c.code === 'RU')).toMatchObject({ id: countryId('RU'), name: 'Россия' })
  })
})

describe('bad input never answers 500 and leaves nothing behind', () => {
  const endpoints = [
    '/account/v3/signup/phone/begin',
    '/account/v3/signup/phone/complete',
    '/account/signup/phone/resend-notification-sms',
    '/account/v2/ru/signup/begin',
    '/account/ru/signup/complete',
    '/account/ru/signup/continue',
    '/account/v2/belarus/signup/begin',
    '/account/v3/signup/email',
    '/account/v2/italy/signup',
    '/account/spain/signup',
    '/account/signup/send-confirmation-mail',
    '/auth/v2/login-by-registration-token',
    '/bonus/check-promo-code',
    '/auth/mitId/login',
  ]
  const sites = SITES

  it('fixed cases: not JSON, arrays, wrong types, unknown fields, huge values', async () => {
    const punterCount = async () => (await h.server.deps.data.db.selectFrom('punters').select('id').execute()).length
    const before = await punterCount()
    for (const path of endpoints)
      for (const body of ['{', '[]', 'null', '"x"', JSON.stringify({ unknown: 1 }), JSON.stringify({ phoneNumber: 5, password: [] }), JSON.stringify({ verificationToken: 'a'.repeat(10_000) })]) {
        const res = await h.call('curacao', 'POST', path, body)
        expect(res.status, `${path} ${body}`).toBeGreaterThanOrEqual(400)
        expect(res.status, `${path} ${body}`).toBeLessThan(500)
      }
    expect(await punterCount()).toBe(before)
  })

  it('property: any JSON object to any sign-up call on any site answers 2xx/4xx', async () => {
    const value = fc.oneof(fc.string({ maxLength: 40 }), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }))
    const keys = fc.constantFrom('phoneNumber', 'password', 'email', 'countryId', 'birthDay', 'firstName', 'verificationToken', 'verificationCode', 'registrationToken', 'token', 'promoCode', 'nickname', 'terms', 'cpr', 'x')
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...endpoints), fc.constantFrom(...sites), fc.dictionary(keys, value, { maxKeys: 8 }), async (path, site, body) => {
        const res = await h.call(site, 'POST', path, body)
        return res.status < 500 && typeof res.body === 'object'
      }),
      { numRuns: 150 },
    )
  })
})
