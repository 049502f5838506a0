/**
 * Sign-up codes (REFERENCES: 6 digits, single use, bound to the flow, 10 minutes, attempts counted
 * atomically, resend refused inside 60 s with 429). A real server on an ephemeral port; the clock
 * is injected and moved, nobody sleeps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { curacaoBody, HARNESS_START_MS, startHarness, type Harness } from './helpers'

let h: Harness
beforeAll(async () => void (h = await startHarness()), HARNESS_START_MS)
afterAll(() => h.server.dispose())

async function begin(overrides: Record<string, unknown> = {}) {
  const body = curacaoBody(overrides)
  const res = await h.call('curacao', 'POST', '/account/v3/signup/phone/begin', body)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return { body, state: res.body.payload, token: res.body.payload.verificationToken as string, code: await h.lastCode(body.phoneNumber as string) }
}

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')

describe('sign-up code', () => {
  it('is 6 random digits sent to the outbox, valid 10 minutes, 5 attempts, resend after 60 s', async () => {
    const { state, code } = await begin()
    expect(code).toMatch(/^\d{6}$/)
    expect(state).toMatchObject({ status: 'PENDING', channelType: 'sms', attemptCodeCount: 5, codeExpiredAfterMillis: 600_000, nextVerificationAfterMillis: 60_000, attemptVerificationCount: 4 })
    expect(state.phoneNumber).toMatch(/^\+5999\d{7}$/)
  })

  it('50 concurrent wrong codes: at most 5 are compared, then the flow is locked even for the right code', async () => {
    const { token, code, body } = await begin()
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => h.call('curacao', 'POST', '/account/v3/signup/phone/complete', { verificationToken: token, verificationCode: wrong(code) })),
    )
    const codes = answers.map((a) => a.body.errorCode)
    const compared = codes.filter((c) => c === 'CODE_NO_MATCH').length
    expect(compared).toBeLessThanOrEqual(4) // the 5th wrong code answers EXCEEDED_LIMIT
    expect(codes.filter((c) => c === 'EXCEEDED_LIMIT').length).toBe(50 - compared)
    expect(answers.every((a) => a.status < 500)).toBe(true)
    const attempts = await h.server.deps.data.db.selectFrom('signup_verifications').select(['attempts', 'status']).where('contact', '=', body.phoneNumber).executeTakeFirst()
    expect(attempts).toEqual({ attempts: 5, status: 'LOCKED' })
    const right = await h.call('curacao', 'POST', '/account/v3/signup/phone/complete', { verificationToken: token, verificationCode: code })
    expect(right.body.errorCode).toBe('EXCEEDED_LIMIT')
    expect(await h.server.deps.data.db.selectFrom('punters').select('id').where('phone', '=', body.phoneNumber as string).executeTakeFirst()).toBeUndefined()
  })

  it('a wrong code says how many attempts are left; the right one creates the punter and logs in, once', async () => {
    const { token, code, body } = await begin()
    const miss = await h.call('curacao', 'POST', '/account/v3/signup/phone/complete', { verificationToken: token, verificationCode: wrong(code) })
    expect(miss.status).toBe(400)
    expect(miss.body).toMatchObject({ errorCode: 'CODE_NO_MATCH', payload: { attemptCodeCount: 4 } })
    const ok = await h.call('curacao', 'POST', '/account/v3/signup/phone/complete', { verificationToken: token, verificationCode: code })
    expect(ok.status).toBe(200)
    expect(ok.body.payload).toMatchObject({ status: 'OK', loginByAuthType: 'complete_registration' })
    expect(ok.body.payload.accessToken).toBeTruthy()
    const again = await h.call('curacao', 'POST', '/account/v3/signup/phone/complete', { verificationToken: token, verificationCode: code })
    expect(again.body.errorCode).toBe('SESSION_ALREADY_VERIFIED')
    const rows = await h.server.deps.data.db.selectFrom('punters').select('id').where('phone', '=', body.phoneNumber as string).execute()
    expect(rows).toHaveLength(1)
    // The new punter logs in with the password of the sign-up.
    const login = await h.call('curacao', 'POST', '/auth/v2/login/phone-number', { phoneNumber: body.phoneNumber, password: body.password })
    expect(login.status).toBe(200)
  })

  it('expires after 10 minutes (injected clock)', async () => {
    const { token, code } = await begin()
    h.clock.now += 10 * 60_000
    const late = await h.call('curacao', 'POST', '/account/v3/signup/phone/complete', { verificationToken: token, verificationCode: code })
    expect(late.status).toBe(400)
    expect(late.body.errorCode).toBe('CODE_EXPIRED')
  })

  it('resend inside 60 s is refused with 429 and the next allowed time; after it, the old code is overridden', async () => {
    const { token, code, body } = await begin()
    h.clock.now += 59_000
    const early = await h.call('curacao', 'POST', '/account/signup/phone/resend-notification-sms', { verificationToken: token })
    expect(early.status).toBe(429)
    expect(early.body).toMatchObject({ errorCode: 'TEMPORARY_BLOCKED', payload: { nextVerificationAfterMillis: 1000 } })
    h.clock.now += 1000
    const racing = await Promise.all(Array.from({ length: 10 }, () => h.call('curacao', 'POST', '/account/signup/phone/resend-notification-sms', { verificationToken: token })))
    expect(racing.filter((r) => r.status === 200).length).toBe(1) // two racing resends send one message
    const fresh = await h.lastCode(body.phoneNumber)
    if (fresh !== code) {
      const old = await h.call('curacao', 'POST', '/account/v3/signup/phone/complete', { verificationToken: token, verificationCode: code })
      expect(old.body.errorCode).toBe('CODE_OVERRIDDEN')
    }
    const ok = await h.call('curacao', 'POST', '/account/v3/signup/phone/complete', { verificationToken: token, verificationCode: fresh })
    expect(ok.status).toBe(200)
  })

  it('starting again for the same phone inside the cooldown is TEMPORARY_BLOCKED (no SMS bombing by restarting)', async () => {
    const { body } = await begin()
    const again = await h.call('curacao', 'POST', '/account/v3/signup/phone/begin', { ...body })
    expect(again.status).toBe(429)
    expect(again.body.errorCode).toBe('TEMPORARY_BLOCKED')
  })

  it('a code is bound to its flow: another flow token or another site does not accept it', async () => {
    const a = await begin()
    const b = await begin()
    const crossed = await h.call('curacao', 'POST', '/account/v3/signup/phone/complete', { verificationToken: b.token, verificationCode: a.code === b.code ? wrong(a.code) : a.code })
    expect(crossed.body.errorCode).toBe('CODE_NO_MATCH')
    const otherSite = await h.call('alderney', 'POST', '/account/v3/signup/phone/complete', { verificationToken: a.token, verificationCode: a.code })
    expect(otherSite.body.errorCode).toBe('UNKNOWN_HASH')
    const otherVariant = await h.call('belarus', 'POST', '/account/belarus/signup/complete', { verificationToken: a.token, verificationCode: a.code })
    expect(otherVariant.body.errorCode).toBe('UNKNOWN_HASH')
  })

  it('three locked flows for one phone within a day block the phone (PUNTER_BLOCKED)', async () => {
    const phone = curacaoBody().phoneNumber
    for (let i = 0; i < 3; i++) {
      const { token, code } = await begin({ phoneNumber: phone })
      for (let k = 0; k < 5; k++) await h.call('curacao', 'POST', '/account/v3/signup/phone/complete', { verificationToken: token, verificationCode: wrong(code) })
      h.clock.now += 61_000
    }
    const blocked = await h.call('curacao', 'POST', '/account/v3/signup/phone/begin', curacaoBody({ phoneNumber: phone }))
    expect(blocked.status).toBe(403)
    expect(blocked.body.errorCode).toBe('PUNTER_BLOCKED')
  })
})
