import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reserveFailure, THROTTLE } from '../../../server/auth/throttle'
import { startAuthServer, freshIp, DEMO_PASSWORD, type AuthTestServer } from './support'

let server: AuthTestServer
beforeAll(async () => {
  server = await startAuthServer()
})
afterAll(async () => server?.dispose())

describe('login by every method (spec §3 login payload, §5 login validation)', () => {
  it.each([
    ['e-mail', 'opened@demo.parlay.test', 'email'],
    ['e-mail, trimmed and in any case', '  Opened@Demo.Parlay.Test ', 'email'],
    ['account number (6–20 digits)', '10000001', 'account_number'],
    ['nickname (3–33, starting with a letter)', 'Opened', 'nickname'],
  ])('logs in by %s', async (_name, login, kind) => {
    const res = await server.login(login)
    expect(res.status).toBe(200)
    expect(res.json.status).toBe('OK')
    expect(res.json.payload).toMatchObject({ status: 'OK', loginByAuthType: kind, loginTimeout: 15 * 60_000, creationTime: server.clock.now })
    expect(res.headers.get('punter-session-hash')).toBe(res.json.payload.punterHash)
  })

  it.each(['+599 9510 1001', '+59995101001', '00599 9510-1001'])('logs in by phone number %s (normalised)', async (phone) => {
    const res = await server.call('POST', 'auth/v2/login/phone-number', { body: { phoneNumber: phone, password: DEMO_PASSWORD } })
    expect(res.status).toBe(200)
    expect(res.json.payload.loginByAuthType).toBe('phone_number')
  })

  it('a phone number sent to the login call answers PHONE_NUMBER_AUTH_TYPE_NEEDED carrying the normalised login', async () => {
    const res = await server.login('+599 9510 1001', 'whatever')
    expect(res.status).toBe(400)
    expect(res.json).toEqual({ status: 'ERROR', errorCode: 'PHONE_NUMBER_AUTH_TYPE_NEEDED', payload: { login: '+59995101001' } })
  })

  it.each([
    ['opened@demo.parlay.test', 'EMAIL_AUTH_TYPE_NEEDED'],
    ['Opened', 'NICKNAME_AUTH_TYPE_NEEDED'],
    ['10000001', 'LOGIN_AUTH_TYPE_NEEDED'],
  ])('%s sent to the phone-number call answers %s carrying the login', async (login, code) => {
    const res = await server.call('POST', 'auth/v2/login/phone-number', { body: { phoneNumber: login, password: 'x' } })
    expect(res.json.errorCode).toBe(code)
    expect(res.json.payload.login.toLowerCase()).toBe(login.toLowerCase())
  })

  it('every login opens a new session with a fresh session hash of at least 128 bits', async () => {
    const a = await server.login('opened@demo.parlay.test')
    const b = await server.login('opened@demo.parlay.test')
    const hashA = a.json.payload.punterHash as string
    expect(hashA).not.toBe(b.json.payload.punterHash)
    expect(Buffer.from(hashA, 'base64url').length * 8).toBeGreaterThanOrEqual(128)
    expect(a.json.payload.accessToken).not.toBe(b.json.payload.accessToken)
    expect(a.json.payload.refreshToken).not.toBe(b.json.payload.refreshToken)
  })

  it('a punter of another site cannot log in here, and is told the same as a wrong password', async () => {
    const res = await server.call('POST', 'auth/v2/login', { body: { login: 'opened@demo.parlay.test', password: DEMO_PASSWORD }, headers: { 'x-parlay-target': 'spain' } })
    expect(res.status).toBe(400)
    expect(res.json).toEqual({ status: 'ERROR', errorCode: 'INCORRECT_PASSWORD' })
  })
})

describe('account answers come only after the right password (spec §8 login codes)', () => {
  it('CANNOT_LOGIN_NO_EMAIL_CONFIRMED carries a confirmation token and the e-mail', async () => {
    const res = await server.login('unconfirmed@demo.parlay.test')
    expect(res.json.errorCode).toBe('CANNOT_LOGIN_NO_EMAIL_CONFIRMED')
    expect(res.json.payload).toEqual({ confirmationToken: expect.any(String), email: 'unconfirmed@demo.parlay.test' })
  })
  it('CANNOT_LOGIN_PENDING_CONFIRMATION carries a token and the phone', async () => {
    const res = await server.login('PendingPhone')
    expect(res.json.errorCode).toBe('CANNOT_LOGIN_PENDING_CONFIRMATION')
    expect(res.json.payload).toEqual({ confirmationToken: expect.any(String), phoneNumber: '+59995101014' })
  })
  it('LOGIN_DENIED_BY_PERMISSION carries the disabled-until time', async () => {
    const res = await server.login('denied@demo.parlay.test')
    expect(res.json.errorCode).toBe('LOGIN_DENIED_BY_PERMISSION')
    expect(Date.parse(res.json.payload.disabledUntil)).toBeGreaterThan(server.clock.now)
  })
  it.each(['unconfirmed@demo.parlay.test', 'PendingPhone', 'denied@demo.parlay.test'])('with a wrong password %s answers like any wrong password', async (login) => {
    const res = await server.login(login, 'wrong-password')
    expect(res.json).toEqual({ status: 'ERROR', errorCode: 'INCORRECT_PASSWORD' })
  })
})

describe('no enumeration: unknown login, wrong password and locked login answer the same', () => {
  it('same status, same body, roughly the same time (one argon2 verify each)', async () => {
    const lockedLogin = 'vip@demo.parlay.test'
    const ip = freshIp()
    for (let i = 0; i < THROTTLE.lockAfter; i++) reserveFailure(server.deps.db, `email:${lockedLogin}`, ip, server.clock.now)
    const captcha = await server.solvedCaptcha()
    const locked = await server.login(lockedLogin, DEMO_PASSWORD, { captcha })
    const samples = { unknown: [] as number[], wrong: [] as number[] }
    for (let i = 0; i < 6; i++) {
      const unknown = await server.login(`nobody-${i}@demo.parlay.test`, 'wrong-password')
      const wrong = await server.login(i % 2 ? 'Opened' : '10000001', 'wrong-password')
      expect(unknown.status).toBe(wrong.status)
      expect(unknown.text).toBe(wrong.text)
      samples.unknown.push(unknown.ms)
      samples.wrong.push(wrong.ms)
    }
    // The locked login had the RIGHT password and a valid captcha, and still got the same answer.
    expect(locked.status).toBe(400)
    expect(locked.text).toBe(JSON.stringify({ status: 'ERROR', errorCode: 'INCORRECT_PASSWORD' }))
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
    const [u, w] = [median(samples.unknown), median(samples.wrong)]
    console.info(`login timing median: unknown ${u.toFixed(1)} ms, wrong password ${w.toFixed(1)} ms, locked ${locked.ms.toFixed(1)} ms`)
    expect(Math.max(u, w) / Math.min(u, w)).toBeLessThan(2)
    expect(Math.max(u, locked.ms) / Math.min(u, locked.ms)).toBeLessThan(3)
  })
})

describe('throttling and captcha (spec §5 captcha; ASVS 2.2.1)', () => {
  it(`after ${THROTTLE.captchaAfter} failures for one login the login needs a captcha, even with the right password`, async () => {
    for (let i = 0; i < THROTTLE.captchaAfter; i++) expect((await server.login('Suspended', 'wrong')).json.errorCode).toBe('INCORRECT_PASSWORD')
    const refused = await server.login('Suspended')
    expect(refused.json).toEqual({ status: 'ERROR', errorCode: 'CAPTCHA_REQUIRED' })
    const ok = await server.login('Suspended', DEMO_PASSWORD, { captcha: await server.solvedCaptcha() })
    expect(ok.status).toBe(200)
    // The right password cleared the login's failures.
    expect((await server.login('Suspended')).status).toBe(200)
  })

  it('an unknown login is throttled exactly like an existing one (no enumeration through the captcha)', async () => {
    for (let i = 0; i < THROTTLE.captchaAfter; i++) await server.login('ghost@demo.parlay.test', 'wrong')
    expect((await server.login('ghost@demo.parlay.test', 'wrong')).json.errorCode).toBe('CAPTCHA_REQUIRED')
  })

  it(`after ${THROTTLE.captchaAfter} failures from one client address every login from it needs a captcha`, async () => {
    const ip = freshIp()
    for (let i = 0; i < THROTTLE.captchaAfter; i++) await server.login(`spray-${i}@demo.parlay.test`, 'wrong', {}, ip)
    expect((await server.login('closed@demo.parlay.test', DEMO_PASSWORD, {}, ip)).json.errorCode).toBe('CAPTCHA_REQUIRED')
    expect((await server.login('closed@demo.parlay.test', DEMO_PASSWORD, {}, freshIp())).status).toBe(200)
  })

  it('a captcha solution works once; a forged or reused one is INVALID_CAPTCHA', async () => {
    const ip = freshIp()
    for (let i = 0; i < THROTTLE.captchaAfter; i++) await server.login(`reuse-${i}@demo.parlay.test`, 'wrong', {}, ip)
    const captcha = await server.solvedCaptcha()
    expect((await server.login('Protected', DEMO_PASSWORD, { captcha }, ip)).status).toBe(200)
    expect((await server.login('Protected', DEMO_PASSWORD, { captcha }, ip)).json.errorCode).toBe('INVALID_CAPTCHA')
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(await server.solvedCaptcha(), 'base64').toString()), number: 1 })).toString('base64')
    expect((await server.login('Protected', DEMO_PASSWORD, { captcha: forged }, ip)).json.errorCode).toBe('INVALID_CAPTCHA')
    expect((await server.login('Protected', DEMO_PASSWORD, { captcha: 'not base64 json' }, ip)).json.errorCode).toBe('INVALID_CAPTCHA')
  })

  it('an expired captcha is refused (the clock is injected)', async () => {
    const ip = freshIp()
    for (let i = 0; i < THROTTLE.captchaAfter; i++) await server.login(`expiry-${i}@demo.parlay.test`, 'wrong', {}, ip)
    const captcha = await server.solvedCaptcha()
    server.clock.now += 6 * 60_000
    try {
      for (let i = 0; i < THROTTLE.captchaAfter; i++) await server.login(`expiry2-${i}@demo.parlay.test`, 'wrong', {}, ip)
      expect((await server.login('Protected', DEMO_PASSWORD, { captcha }, ip)).json.errorCode).toBe('INVALID_CAPTCHA')
    } finally {
      server.clock.now -= 6 * 60_000
    }
  })

  it('failures age out of the window', async () => {
    for (let i = 0; i < THROTTLE.captchaAfter; i++) await server.login('Closed', 'wrong')
    expect((await server.login('Closed')).json.errorCode).toBe('CAPTCHA_REQUIRED')
    server.clock.now += THROTTLE.captchaWindowMs + 1
    expect((await server.login('Closed')).status).toBe(200)
  })

  it('50 parallel wrong attempts on one login: at most the limit get a password check, the rest CAPTCHA_REQUIRED', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => server.login('NeedDocument', 'wrong')))
    const checked = results.filter((r) => r.json.errorCode === 'INCORRECT_PASSWORD').length
    expect(checked).toBeLessThanOrEqual(THROTTLE.captchaAfter)
    expect(results.filter((r) => r.json.errorCode === 'CAPTCHA_REQUIRED').length).toBe(50 - checked)
  })
})
