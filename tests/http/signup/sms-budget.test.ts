/**
 * SMS pumping (issue 11 item 3): sending a sign-up code spends from hourly budgets per client, per
 * number range and per dial code, and past the client's first few sends needs a solved
 * proof-of-work captcha. The numbers live in the jurisdiction document, server-only. A real
 * server on an ephemeral port; the clock is injected and moved, nobody sleeps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_SMS_BUDGET, smsBudgetOf, SMS_BUDGET_WINDOW_MS } from '../../../server/signup/sms-budget'
import { curacaoBody, freshIp, HARNESS_START_MS, startHarness, type Harness } from './helpers'

let h: Harness
beforeAll(async () => void (h = await startHarness()), HARNESS_START_MS)
afterAll(() => h.server.dispose())

const BEGIN = '/account/v3/signup/phone/begin'
const budget = () => smsBudgetOf(h.server.deps.documents.resolve('jurisdiction', 'curacao', { jurisdiction: 'curacao', locale: 'en', platform: 'web' } as never)?.source)
const smsTo = async (phones: string[]) =>
  Number(
    (await h.server.deps.data.db.selectFrom('signup_outbox').select((eb) => eb.fn.countAll<number>().as('n')).where('channel', '=', 'sms').where('recipient', 'in', phones.length ? phones : ['']).executeTakeFirstOrThrow()).n,
  )

/** A valid Curaçao mobile number in one 10 000-number range per `range`. */
let serial = 0
const numberInRange = (range: number) => `+59995${String(range).padStart(2, '0')}${String(++serial).padStart(4, '0')}`

describe('the SMS budget numbers live in the jurisdiction document and never reach the browser', () => {
  it('Curaçao states its budget server-only; the served document and site settings do not carry it', async () => {
    expect(budget()).toEqual({ freeSendsPerClient: 3, perClientPerHour: 10, perRangePerHour: 10, rangeHiddenDigits: 4, perDialCodePerHour: 300 })
    for (const path of ['/api/documents/jurisdiction/curacao', '/mobile-gate/api/v1/dictionary/settings']) {
      const res = await h.call('curacao', 'GET', path)
      expect(res.status).toBe(200)
      expect(JSON.stringify(res.body)).not.toMatch(/serverOnly|smsBudget|perClientPerHour/)
    }
  })

  it('a missing or malformed number falls back to the default, never to "unlimited"', () => {
    expect(smsBudgetOf(undefined)).toEqual(DEFAULT_SMS_BUDGET)
    expect(smsBudgetOf({ regulatory: { serverOnly: { smsBudget: { perClientPerHour: -1, freeSendsPerClient: 'many', perRangePerHour: 2.5 } } } })).toEqual(DEFAULT_SMS_BUDGET)
  })
})

describe('one client, many numbers (the pumping attack)', () => {
  it('30 begins from one client to 30 numbers: 3 free, then a captcha each, and no more than 10 SMS an hour (then 429 until the oldest ages out)', async () => {
    const ip = freshIp()
    const bodies = Array.from({ length: 30 }, (_, i) => curacaoBody({ phoneNumber: numberInRange(10 + i) }))
    const plain = []
    for (const body of bodies) plain.push(await h.call('curacao', 'POST', BEGIN, body, { 'x-forwarded-for': ip }))
    expect(plain.slice(0, 3).map((r) => r.status)).toEqual([200, 200, 200])
    expect(new Set(plain.slice(3).map((r) => `${r.status} ${r.body.errorCode}`))).toEqual(new Set(['400 CAPTCHA_REQUIRED']))

    const solved = []
    for (const body of bodies.slice(3)) solved.push(await h.call('curacao', 'POST', BEGIN, { ...body, captcha: await h.solvedCaptcha() }, { 'x-forwarded-for': ip }))
    expect(solved.slice(0, 7).every((r) => r.status === 200)).toBe(true)
    const refused = solved.slice(7)
    expect(refused.every((r) => r.status === 429 && r.body.errorCode === 'TEMPORARY_BLOCKED')).toBe(true)
    expect(refused[0].body.payload.nextVerificationAfterMillis).toBe(SMS_BUDGET_WINDOW_MS)
    expect(await smsTo(bodies.map((b) => b.phoneNumber as string))).toBe(budget().perClientPerHour)

    h.clock.now += SMS_BUDGET_WINDOW_MS + 1
    const later = await h.call('curacao', 'POST', BEGIN, curacaoBody({ phoneNumber: numberInRange(50) }), { 'x-forwarded-for': ip })
    expect(later.status).toBe(200)
  }, 120_000)

  it('a junk or reused captcha is INVALID_CAPTCHA and sends nothing', async () => {
    const ip = freshIp()
    for (let i = 0; i < 3; i++) await h.call('curacao', 'POST', BEGIN, curacaoBody({ phoneNumber: numberInRange(60 + i) }), { 'x-forwarded-for': ip })
    const junk = curacaoBody({ phoneNumber: numberInRange(63), captcha: 'junk' })
    expect((await h.call('curacao', 'POST', BEGIN, junk, { 'x-forwarded-for': ip })).body.errorCode).toBe('INVALID_CAPTCHA')
    const captcha = await h.solvedCaptcha()
    expect((await h.call('curacao', 'POST', BEGIN, curacaoBody({ phoneNumber: numberInRange(64), captcha }), { 'x-forwarded-for': ip })).status).toBe(200)
    const reused = curacaoBody({ phoneNumber: numberInRange(65), captcha })
    expect((await h.call('curacao', 'POST', BEGIN, reused, { 'x-forwarded-for': ip })).body.errorCode).toBe('INVALID_CAPTCHA')
    expect(await smsTo([junk.phoneNumber as string, reused.phoneNumber as string])).toBe(0)
  })

  it('20 parallel begins from one client without a captcha: exactly the 3 free sends go out', async () => {
    const ip = freshIp()
    const bodies = Array.from({ length: 20 }, (_, i) => curacaoBody({ phoneNumber: numberInRange(70 + i) }))
    const answers = await Promise.all(bodies.map((body) => h.call('curacao', 'POST', BEGIN, body, { 'x-forwarded-for': ip })))
    expect(answers.filter((a) => a.status === 200).length).toBe(3)
    expect(answers.filter((a) => a.body.errorCode === 'CAPTCHA_REQUIRED').length).toBe(17)
    expect(await smsTo(bodies.map((b) => b.phoneNumber as string))).toBe(3)
  })

  it('a resend spends from the same budget: past the free sends it needs a captcha too', async () => {
    const ip = freshIp()
    const first = await h.call('curacao', 'POST', BEGIN, curacaoBody({ phoneNumber: numberInRange(91) }), { 'x-forwarded-for': ip })
    for (let i = 0; i < 2; i++) await h.call('curacao', 'POST', BEGIN, curacaoBody({ phoneNumber: numberInRange(92 + i) }), { 'x-forwarded-for': ip })
    h.clock.now += 61_000
    const token = first.body.payload.verificationToken
    const plain = await h.call('curacao', 'POST', '/account/signup/phone/resend-notification-sms', { verificationToken: token }, { 'x-forwarded-for': ip })
    expect(plain.body.errorCode).toBe('CAPTCHA_REQUIRED')
    const solved = await h.call('curacao', 'POST', '/account/signup/phone/resend-notification-sms', { verificationToken: token, captcha: await h.solvedCaptcha() }, { 'x-forwarded-for': ip })
    expect(solved.status).toBe(200)
  })
})

describe('many clients, one number range or one country', () => {
  it(`after 10 sends to one number range in an hour, more to that range are EXCEEDED_LIMIT whoever asks`, async () => {
    const answers = []
    for (let i = 0; i < 12; i++) answers.push(await h.call('curacao', 'POST', BEGIN, curacaoBody({ phoneNumber: numberInRange(95) })))
    expect(answers.slice(0, 10).every((a) => a.status === 200)).toBe(true)
    expect(answers.slice(10).map((a) => `${a.status} ${a.body.errorCode}`), JSON.stringify(answers.map((a) => a.body.errorCode))).toEqual(['403 EXCEEDED_LIMIT', '403 EXCEEDED_LIMIT'])
    const otherRange = await h.call('curacao', 'POST', BEGIN, curacaoBody({ phoneNumber: numberInRange(96) }))
    expect(otherRange.status).toBe(200)
  })
})

describe('sign-up answers carrying tokens are never cached (RFC 6749 §5.1)', () => {
  it('begin, a failed code and the completing login answer no-store and no-cache', async () => {
    const body = curacaoBody({ phoneNumber: numberInRange(97) })
    const begun = await h.call('curacao', 'POST', BEGIN, body)
    const token = begun.body.payload.verificationToken
    const code = await h.lastCode(body.phoneNumber as string)
    const miss = await h.call('curacao', 'POST', '/account/v3/signup/phone/complete', { verificationToken: token, verificationCode: code === '000000' ? '000001' : '000000' })
    const done = await h.call('curacao', 'POST', '/account/v3/signup/phone/complete', { verificationToken: token, verificationCode: code })
    expect(done.status).toBe(200)
    for (const res of [begun, miss, done]) {
      expect(res.headers.get('cache-control')).toBe('no-store')
      expect(res.headers.get('pragma')).toBe('no-cache')
    }
  })
})
