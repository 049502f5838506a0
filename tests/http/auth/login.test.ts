import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recordFailure, THROTTLE } from '../../../server/auth/throttle'
import { useMessageSender } from '../../../server/auth/unlock'
import { ARGON2_HASHER, usePasswordHasher } from '../../../server/punters/password'
import { findPunterByLogin, saveServerSettings } from '../../../server/punters/repository'
import type { OutgoingMessage } from '../../../server/signup/outbox'
import { startAuthServer, freshIp, DEMO_PASSWORD, type AuthTestServer } from './support'

let server: AuthTestServer
beforeAll(async () => {
  server = await startAuthServer()
}, 60_000) // the demo punters' argon2 hashes take seconds on a busy machine
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

/** Counts password verifications on this server (the injected hasher), keeping argon2's answers. */
function countVerifications() {
  const hashes: string[] = []
  const restore = usePasswordHasher(server.deps.db, {
    dummyHash: ARGON2_HASHER.dummyHash,
    verify: (hash, password) => {
      hashes.push(hash)
      return ARGON2_HASHER.verify(hash, password)
    },
  })
  return { hashes, restore }
}

const punterId = async (email: string) => (await findPunterByLogin(server.deps.data, 'curacao', 'email', email))!.id
const FAILED = JSON.stringify({ status: 'ERROR', errorCode: 'INCORRECT_PASSWORD' })

describe('no enumeration: unknown login, wrong password and locked login take the same path and answer the same', () => {
  it('each runs exactly one password verification (a dummy hash for the unknown login) and answers the same status and body', async () => {
    const lockedLogin = 'vip@demo.parlay.test'
    const keys = { login: `email:${lockedLogin}`, accountId: await punterId(lockedLogin), client: freshIp() }
    for (let i = 0; i < THROTTLE.lockAfter; i++) await recordFailure(server.deps.data, keys, server.clock.now)
    const captcha = await server.solvedCaptcha()
    const verifications = countVerifications()
    try {
      const unknown = await server.login('nobody@demo.parlay.test', 'wrong-password')
      const wrong = await server.login('10000001', 'wrong-password')
      // The locked login has the RIGHT password and a valid captcha, and still gets the same answer.
      const locked = await server.login(lockedLogin, DEMO_PASSWORD, { captcha })
      for (const answer of [unknown, wrong, locked]) {
        expect(answer.status).toBe(400)
        expect(answer.text).toBe(FAILED)
      }
      expect(verifications.hashes).toHaveLength(3)
      expect(verifications.hashes[0]).toBe(await ARGON2_HASHER.dummyHash())
      expect(verifications.hashes[0]).toMatch(/^\$argon2id\$/)
      expect(verifications.hashes.slice(1)).not.toContain(verifications.hashes[0])
    } finally {
      verifications.restore()
    }
  })
})

describe('captcha before counting; limits per identifier, per account and per client (ASVS 2.2.1)', () => {
  it('an unsolved or invalid captcha is never a password attempt: 30 junk captchas do not lock the login', async () => {
    const login = 'Opened'
    for (let i = 0; i < THROTTLE.captchaAfter; i++) await server.login(login, 'wrong')
    for (let i = 0; i < 30; i++) expect((await server.login(login, 'wrong', { captcha: `junk-${i}` })).json.errorCode).toBe('INVALID_CAPTCHA')
    for (let i = 0; i < 10; i++) expect((await server.login(login, 'wrong')).json.errorCode).toBe('CAPTCHA_REQUIRED')
    const ok = await server.login(login, DEMO_PASSWORD, { captcha: await server.solvedCaptcha() })
    expect(ok.status).toBe(200)
  })

  it(`failures over an account's four identifiers add up: ${THROTTLE.lockAfter} lock the account, whichever identifier is used`, async () => {
    const identifiers = ['zero@demo.parlay.test', '10000009', 'ZeroBalance']
    const phone = '+59995101009'
    const perIdentifier = THROTTLE.lockAfter / 4
    for (const login of identifiers) for (let i = 0; i < perIdentifier; i++) expect((await server.login(login, 'wrong')).json.errorCode).toBe('INCORRECT_PASSWORD')
    for (let i = 0; i < perIdentifier; i++) await server.call('POST', 'auth/v2/login/phone-number', { body: { phoneNumber: phone, password: 'wrong' } })
    for (const login of identifiers) {
      const locked = await server.login(login, DEMO_PASSWORD, { captcha: await server.solvedCaptcha() })
      expect(locked.text).toBe(FAILED)
    }
  })

  it('a lock sends the owner one single-use unlock link; opening it lets the owner log in at once', async () => {
    const email = 'legal@demo.parlay.test'
    const sent: OutgoingMessage[] = []
    useMessageSender(server.deps.db, { send: (message) => void sent.push(message) })
    const outbox = () => sent.filter((m) => m.to === email)
    const before = outbox().length
    for (let i = 0; i < THROTTLE.lockAfter + 5; i++) await server.login(email, 'wrong', i < THROTTLE.captchaAfter ? {} : { captcha: await server.solvedCaptcha() })
    await expect.poll(() => outbox().length).toBe(before + 1)
    expect((await server.login(email, DEMO_PASSWORD, { captcha: await server.solvedCaptcha() })).text).toBe(FAILED)
    const link = /https?:\/\/\S+\/auth\/login\/unlock\?token=(\S+)/.exec(outbox().at(-1)!.body)
    expect(link).not.toBeNull()
    const opened = await fetch(server.url + new URL(link![0]).pathname + new URL(link![0]).search, { redirect: 'manual' })
    expect(opened.status).toBe(303)
    expect((await server.login(email)).status).toBe(200)
    const again = await server.call('POST', 'auth/login/unlock', { body: { token: decodeURIComponent(link![1]) } })
    expect(again.json).toEqual({ status: 'ERROR', errorCode: 'TOKEN_NOT_FOUND' })
  }, 60_000) // 20-odd logins with argon2 and proof-of-work each: over 20 s on a loaded 2-core machine

  it("the unlock message is in the owner's saved language (issue 9), not the site's default", async () => {
    const email = 'need-document@demo.parlay.test'
    const sent: OutgoingMessage[] = []
    useMessageSender(server.deps.db, { send: (message) => void sent.push(message) })
    const owner = (await findPunterByLogin(server.deps.data, 'curacao', 'email', email))!
    await saveServerSettings(server.deps.data, owner.id, { locale: 'pt' }, server.clock.now)
    for (let i = 0; i < THROTTLE.lockAfter; i++)
      await server.login(email, 'wrong', i < THROTTLE.captchaAfter ? {} : { captcha: await server.solvedCaptcha() })
    await expect.poll(() => sent.filter((m) => m.to === email).length).toBe(1)
    const [message] = sent.filter((m) => m.to === email)
    expect(message.subject).toBe('O acesso à sua conta Parlay foi pausado')
    expect(message.body).toContain('Se foi você, abra este link')
    expect(message.body).toMatch(/\/auth\/login\/unlock\?token=\S+/)
  }, 60_000) // 20-odd logins with argon2 and proof-of-work each: over 20 s on a loaded 2-core machine

  it(`a lock ends by itself an hour after the failures stop; attempts while locked do not extend it`, async () => {
    const login = '10000012'
    for (let i = 0; i < THROTTLE.lockAfter; i++) await server.login(login, 'wrong', i < THROTTLE.captchaAfter ? {} : { captcha: await server.solvedCaptcha() })
    server.clock.now += THROTTLE.lockWindowMs / 2
    for (let i = 0; i < 5; i++) expect((await server.login(login, 'wrong', { captcha: await server.solvedCaptcha() })).text).toBe(FAILED)
    server.clock.now += THROTTLE.lockWindowMs / 2 + 1
    expect((await server.login(login)).status).toBe(200)
  }, 60_000) // 20-odd logins with argon2 and proof-of-work each: over 20 s on a loaded 2-core machine
})

describe('the unlock link takes no bad input', () => {
  it.each([
    ['no token', {}],
    ['a number', { token: 5 }],
    ['an over-long token', { token: 'x'.repeat(201) }],
    ['an extra field', { token: 'abc', punterId: 1 }],
  ])('POST unlock with %s answers 400 in the envelope', async (_name, body) => {
    const res = await server.call('POST', 'auth/login/unlock', { body })
    expect(res.status).toBe(400)
    expect(res.json.status).toBe('ERROR')
  })

  it('an unknown token answers TOKEN_NOT_FOUND; the link without a usable token still just goes home', async () => {
    expect((await server.call('POST', 'auth/login/unlock', { body: { token: 'made-up' } })).json).toEqual({ status: 'ERROR', errorCode: 'TOKEN_NOT_FOUND' })
    for (const query of ['', '?token=', '?token=made-up', '?token=a&token=b'])
      expect((await fetch(`${server.url}/mobile-gate/api/v1/auth/login/unlock${query}`, { redirect: 'manual' })).status).toBe(303)
  })
})

describe('token answers are never cached (RFC 6749 §5.1)', () => {
  it('login, refresh and a failed login answer Cache-Control: no-store and Pragma: no-cache', async () => {
    const login = await server.login('Opened')
    const refresh = await server.call('POST', 'auth/v2/token/refresh', { body: { token: login.json.payload.refreshToken } })
    const failed = await server.login('Opened', 'wrong')
    for (const res of [login, refresh, failed]) {
      expect(res.headers.get('cache-control')).toBe('no-store')
      expect(res.headers.get('pragma')).toBe('no-cache')
    }
    expect(refresh.status).toBe(200)
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

  it('50 parallel wrong attempts on one login: exactly the limit get a password check, the rest CAPTCHA_REQUIRED', async () => {
    const verifications = countVerifications()
    try {
      const results = await Promise.all(Array.from({ length: 50 }, () => server.login('NeedDocument', 'wrong')))
      expect(results.filter((r) => r.json.errorCode === 'INCORRECT_PASSWORD').length).toBe(THROTTLE.captchaAfter)
      expect(results.filter((r) => r.json.errorCode === 'CAPTCHA_REQUIRED').length).toBe(50 - THROTTLE.captchaAfter)
      expect(verifications.hashes.length).toBe(THROTTLE.captchaAfter)
    } finally {
      verifications.restore()
    }
  })

  it('100 simultaneous right logins over 5 accounts from one client all succeed (only failures count)', async () => {
    const ip = freshIp()
    const logins = ['opened@demo.parlay.test', 'vip@demo.parlay.test', 'blocked-id@demo.parlay.test', 'japan@demo.parlay.test', 'protection@demo.parlay.test']
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => server.login(logins[i % 5], DEMO_PASSWORD, {}, ip)))
    expect(results.map((r) => r.status)).toEqual(Array(100).fill(200))
  })
})
