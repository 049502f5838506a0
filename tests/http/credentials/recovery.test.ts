import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { usePasswordHasher, ARGON2_HASHER } from '../../../server/punters/password'
import { RECOVERY_BUDGET } from '../../../server/credentials/recovery'
import { linkToken, smsCode, startCredentialsServer, type CredentialsServer } from './support'

let server: CredentialsServer
beforeAll(async () => {
  server = await startCredentialsServer()
})
afterAll(async () => server?.dispose())

const recover = (login: string) => server.call('POST', 'account/password/recover', { body: { login } })
const withoutToken = (payload: Record<string, unknown>) => ({ ...payload, recoveryToken: typeof payload.recoveryToken })

describe('lost password by e-mail link (RECOVERING)', () => {
  it('an e-mail address gets a link to /change-password; the new password logs in, the old one no longer does, and every session ends', async () => {
    const punter = await server.punter()
    const before = await server.loginHash(punter.email, punter.password)
    const res = await recover(punter.email)
    expect(res.status).toBe(200)
    expect(res.json.payload).toEqual({ channel: 'email', linkExpiredAfterMillis: 30 * 60_000 })
    const mail = await server.lastMessage(punter.email)
    expect(mail.body).toMatch(/\/change-password\?token=/)
    const token = linkToken(mail.body)
    expect((await server.call('POST', 'account/password/recover/token', { body: { token } })).json.payload).toEqual({ secretQuestion: null, secretQuestionPassed: false })
    const reset = await server.call('POST', 'account/password/reset', { body: { token, password: 'a brand new secret' } })
    expect(reset.status, JSON.stringify(reset.json)).toBe(200)
    expect((await server.call('GET', 'heartbeat', { session: before })).status).toBe(401)
    expect((await server.call('POST', 'auth/v2/login', { body: { login: punter.email, password: punter.password } })).json.errorCode).toBe('INCORRECT_PASSWORD')
    await server.loginHash(punter.email, 'a brand new secret')
  })

  it('a link works once: the second reset with it is TOKEN_NOT_FOUND', async () => {
    const punter = await server.punter()
    await recover(punter.email)
    const token = linkToken((await server.lastMessage(punter.email)).body)
    expect((await server.call('POST', 'account/password/reset', { body: { token, password: 'once is enough 1' } })).status).toBe(200)
    const again = await server.call('POST', 'account/password/reset', { body: { token, password: 'once is enough 2' } })
    expect(again.json).toEqual({ status: 'ERROR', errorCode: 'TOKEN_NOT_FOUND' })
  })

  it('a link expires after 30 minutes', async () => {
    const punter = await server.punter()
    await recover(punter.email)
    const token = linkToken((await server.lastMessage(punter.email)).body)
    server.clock.now += 30 * 60_000
    try {
      expect((await server.call('POST', 'account/password/reset', { body: { token, password: 'too late for this' } })).json.errorCode).toBe('TOKEN_NOT_FOUND')
    } finally {
      server.clock.now -= 30 * 60_000
    }
  })

  it('a newer request makes the older link useless', async () => {
    const punter = await server.punter()
    await recover(punter.email)
    const first = await server.lastMessage(punter.email)
    server.clock.now += RECOVERY_BUDGET.perTargetCooldownMs
    await recover(punter.email)
    await server.lastMessage(punter.email, first.id)
    expect((await server.call('POST', 'account/password/reset', { body: { token: linkToken(first.body), password: 'older link here' } })).json.errorCode).toBe('TOKEN_NOT_FOUND')
  })
})

describe('lost password by SMS code', () => {
  it('a phone number gets a 6-digit code; the right code gives a password token that sets the password', async () => {
    const punter = await server.punter()
    const res = await recover(punter.phone)
    expect(res.json.payload).toMatchObject({ channel: 'sms', codeExpiredAfterMillis: 600_000, attemptCodeCount: 5 })
    const code = smsCode((await server.lastMessage(punter.phone)).body)
    const checked = await server.call('POST', 'account/password/recover/code', { body: { recoveryToken: res.json.payload.recoveryToken, code } })
    expect(checked.status).toBe(200)
    expect(checked.json.payload.secretQuestion).toBeNull()
    expect((await server.call('POST', 'account/password/reset', { body: { token: checked.json.payload.passwordToken, password: 'sms chosen secret' } })).status).toBe(200)
    await server.loginHash(punter.phone, 'sms chosen secret')
  })

  it('a code is single use: the same right code again is refused', async () => {
    const punter = await server.punter()
    const { recoveryToken } = (await recover(punter.phone)).json.payload
    const code = smsCode((await server.lastMessage(punter.phone)).body)
    expect((await server.call('POST', 'account/password/recover/code', { body: { recoveryToken, code } })).status).toBe(200)
    expect((await server.call('POST', 'account/password/recover/code', { body: { recoveryToken, code } })).json.errorCode).toBe('CODE_NO_MATCH_OR_EXPIRED')
  })

  it('a code allows 5 tries counted before checking: 20 parallel wrong codes spend them all, and the right code is refused after', async () => {
    const punter = await server.punter()
    const { recoveryToken } = (await recover(punter.phone)).json.payload
    const code = smsCode((await server.lastMessage(punter.phone)).body)
    const wrong = code === '000000' ? '000001' : '000000'
    const answers = await Promise.all(Array.from({ length: 20 }, () => server.call('POST', 'account/password/recover/code', { body: { recoveryToken, code: wrong } })))
    expect(answers.every((a) => a.status === 400)).toBe(true)
    expect(answers.filter((a) => a.json.errorCode === 'EXCEEDED_LIMIT').length).toBeGreaterThanOrEqual(16)
    expect((await server.call('POST', 'account/password/recover/code', { body: { recoveryToken, code } })).json.errorCode).toBe('EXCEEDED_LIMIT')
  })

  it('a code expires after 10 minutes', async () => {
    const punter = await server.punter()
    const { recoveryToken } = (await recover(punter.phone)).json.payload
    const code = smsCode((await server.lastMessage(punter.phone)).body)
    server.clock.now += 10 * 60_000
    try {
      expect((await server.call('POST', 'account/password/recover/code', { body: { recoveryToken, code } })).json.errorCode).toBe('CODE_NO_MATCH_OR_EXPIRED')
    } finally {
      server.clock.now -= 10 * 60_000
    }
  })

  it('the code is stored hashed: the database holds neither the code nor the recovery token', async () => {
    const punter = await server.punter()
    const { recoveryToken } = (await recover(punter.phone)).json.payload
    const code = smsCode((await server.lastMessage(punter.phone)).body)
    const rows = JSON.stringify(await server.deps.data.db.selectFrom('credential_secrets').selectAll().where('punter_id', '=', punter.id).execute())
    expect(rows).not.toContain(code)
    expect(rows).not.toContain(recoveryToken)
  })
})

describe('no account enumeration (ASVS 5.0 6.3.8)', () => {
  it('an unknown e-mail gets the same answer as a known one, and no message is sent', async () => {
    const punter = await server.punter()
    const known = await recover(punter.email)
    const unknown = await recover('nobody-here@test.parlay.test')
    expect(unknown.status).toBe(known.status)
    expect(unknown.json).toEqual(known.json)
    await new Promise((resolve) => setImmediate(resolve))
    expect(await server.messagesTo('nobody-here@test.parlay.test')).toEqual([])
  })

  it('an unknown phone gets the same answer shape with a recovery token that accepts no code, and runs out of tries the same way', async () => {
    const punter = await server.punter()
    const known = await recover(punter.phone)
    const unknown = await recover('+59995299999')
    expect(unknown.status).toBe(known.status)
    expect(withoutToken(unknown.json.payload)).toEqual(withoutToken(known.json.payload))
    const { recoveryToken } = unknown.json.payload
    const tries = []
    for (let i = 0; i < 6; i++) tries.push((await server.call('POST', 'account/password/recover/code', { body: { recoveryToken, code: String(100000 + i) } })).json.errorCode)
    expect(tries).toEqual(['CODE_NO_MATCH_OR_EXPIRED', 'CODE_NO_MATCH_OR_EXPIRED', 'CODE_NO_MATCH_OR_EXPIRED', 'CODE_NO_MATCH_OR_EXPIRED', 'EXCEEDED_LIMIT', 'EXCEEDED_LIMIT'])
  })

  it('the same work either way: no password hashing on a recovery request, known or unknown', async () => {
    let verifications = 0
    const restore = usePasswordHasher(server.deps.db, { verify: (h, p) => (verifications++, ARGON2_HASHER.verify(h, p)), dummyHash: ARGON2_HASHER.dummyHash })
    try {
      const punter = await server.punter()
      await recover(punter.email)
      await recover('not-a-punter@test.parlay.test')
      await recover(punter.phone)
      await recover('+59995288888')
      expect(verifications).toBe(0)
    } finally {
      restore()
    }
  })

  it('a second request for the same address within a minute is TEMPORARY_BLOCKED, known or unknown alike', async () => {
    const punter = await server.punter()
    for (const login of [punter.email, 'ghost-in-the-shell@test.parlay.test']) {
      expect((await recover(login)).status).toBe(200)
      const again = await recover(login)
      expect(again.status).toBe(429)
      expect(again.json.errorCode).toBe('TEMPORARY_BLOCKED')
      expect(Date.parse(again.json.payload.nextAttemptAt)).toBe(server.clock.now + RECOVERY_BUDGET.perTargetCooldownMs)
    }
  })
})

describe('recovery bad input gets a clear 4xx', () => {
  it('a login that is neither an e-mail nor a phone, a malformed code, unknown fields, no body', async () => {
    expect((await recover('Opened')).json).toEqual({ status: 'ERROR', errorCode: 'ValidationError', payload: [{ field: 'login', code: 'emailOrPhone' }] })
    expect((await server.call('POST', 'account/password/recover/code', { body: { recoveryToken: 'x', code: '12ab56' } })).json.errorCode).toBe('ValidationError')
    expect((await server.call('POST', 'account/password/reset', { body: { token: 'x', password: 'long enough', admin: true } })).json.payload).toEqual({ field: 'admin', code: 'unknownField' })
    const none = await server.call('POST', 'account/password/recover')
    expect(none.status).toBeGreaterThanOrEqual(400)
    expect(none.status).toBeLessThan(500)
    expect((await server.call('POST', 'account/password/reset', { body: { token: 'made-up', password: 'long enough' } })).json.errorCode).toBe('TOKEN_NOT_FOUND')
  })
})
