/**
 * The single-use secrets of sign-up and login on the query layer (issue 16): captcha solutions
 * (server/auth/captcha.ts) and sign-up codes (server/signup/verification.ts) keep their rules on both engines, SQLite (no DATABASE_URL) and a
 * throw-away PostgreSQL cluster (tests/support/postgres.ts), and on PostgreSQL across two instances of one database:
 * what one instance used up, the other refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { THROTTLE } from '../../../server/auth/throttle'
import { createVerificationService, VERIFICATION_LIMITS, type VerificationService } from '../../../server/signup/verification'
import { engines, type Engine, type Pair } from '../../support/postgres'
import { DEMO_PASSWORD, startAuthServer, type AuthTestServer } from './support'

const { havePostgres, each: ENGINES, on: onEngine, pair } = engines()

/** A server whose converted stores run on `engine` (PostgreSQL: a fresh database of the cluster). */
const serverOn = async (engine: Engine) => startAuthServer(await onEngine(engine))

/** Failures enough that the login needs a captcha. */
async function requireCaptcha(server: AuthTestServer, login: string): Promise<void> {
  for (let i = 0; i < THROTTLE.captchaAfter; i++) await server.login(login, 'wrong')
  expect((await server.login(login)).json.errorCode).toBe('CAPTCHA_REQUIRED')
}

describe.each(ENGINES)('captcha solutions on %s', (engine, runs) => {
  let server: AuthTestServer
  beforeAll(async () => {
    if (runs) server = await serverOn(engine)
  }, 90_000)
  afterAll(async () => server?.dispose())

  it.runIf(runs)('one solution is accepted once: the same solution sent twice at once is one attempt and one INVALID_CAPTCHA', async () => {
    expect(server.deps.data.engine).toBe(engine)
    const login = 'Suspended'
    await requireCaptcha(server, login)
    const captcha = await server.solvedCaptcha()
    const answers = await Promise.all([server.login(login, 'wrong', { captcha }), server.login(login, 'wrong', { captcha })])
    expect(answers.map((a) => a.json.errorCode).sort()).toEqual(['INCORRECT_PASSWORD', 'INVALID_CAPTCHA'])
    expect((await server.login(login, DEMO_PASSWORD, { captcha })).json.errorCode).toBe('INVALID_CAPTCHA')
    expect((await server.login(login, DEMO_PASSWORD, { captcha: await server.solvedCaptcha() })).status).toBe(200)
  }, 60_000) // seven argon2 logins and two proof-of-work solutions on a loaded 2-core machine
})

describe.runIf(havePostgres)('captcha solutions on PostgreSQL across instances (issue 16)', () => {
  let a: AuthTestServer
  let b: AuthTestServer
  let instances: Pair<AuthTestServer> | undefined
  beforeAll(async () => {
    instances = await pair('postgres', startAuthServer)
    ;({ a, b } = instances)
    b.clock.now = a.clock.now
  }, 120_000)
  afterAll(async () => instances?.dispose())

  it('a challenge issued by one instance is verified by the other, and a solution used on one is refused on the other', async () => {
    const login = 'Opened'
    await requireCaptcha(a, login)
    const captcha = await a.solvedCaptcha()
    expect((await b.login(login, 'wrong', { captcha })).json.errorCode).toBe('INCORRECT_PASSWORD')
    expect((await a.login(login, DEMO_PASSWORD, { captcha })).json.errorCode).toBe('INVALID_CAPTCHA')
    expect((await a.login(login, DEMO_PASSWORD, { captcha: await b.solvedCaptcha() })).status).toBe(200)
  }, 60_000)
})

/** A flow started on `service`; the code that was sent and the flow's token. */
async function startFlow(service: VerificationService, now: number) {
  const contact = `+5999${String(5_000_000 + Math.floor(Math.random() * 999_999))}`
  const started = await service.start({ flow: 'phone', jurisdiction: 'curacao', channel: 'sms', contact, payload: {} }, now)
  if (!started.ok) throw new Error(started.code)
  const wrong = String((Number(started.value.code) + 1) % 1_000_000).padStart(6, '0')
  return { token: started.value.verificationToken, code: started.value.code, wrong }
}

describe.each(ENGINES)('sign-up codes on %s (REFERENCES: single use, attempts counted before the check)', (engine, runs) => {
  let instances: Pair<AuthTestServer> | undefined
  let services: VerificationService[] = []
  beforeAll(async () => {
    if (!runs) return
    // PostgreSQL: two instances of one database, the requests alternating between them
    instances = await pair(engine, startAuthServer)
    services = instances.servers.map((server) => createVerificationService(server.deps.data))
  }, 120_000)
  afterAll(async () => instances?.dispose())
  const now = Date.UTC(2025, 5, 15, 12)
  const on = (i: number) => services[i % services.length]

  it.runIf(runs)(`50 wrong codes at once: exactly ${VERIFICATION_LIMITS.maxCodeAttempts} attempts are counted and compared, then even the right code is EXCEEDED_LIMIT`, async () => {
    const flow = await startFlow(on(0), now)
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => on(i).verify(flow.token, flow.wrong, 'phone', 'curacao', now)))
    const codes = answers.map((a) => (a.ok ? 'OK' : a.code))
    expect(codes.filter((c) => c === 'CODE_NO_MATCH')).toHaveLength(VERIFICATION_LIMITS.maxCodeAttempts - 1) // the 5th wrong code locks the flow
    expect(codes.filter((c) => c === 'EXCEEDED_LIMIT')).toHaveLength(50 - (VERIFICATION_LIMITS.maxCodeAttempts - 1))
    expect(await on(1).attempts(flow.token)).toBe(VERIFICATION_LIMITS.maxCodeAttempts)
    expect((await on(1).verify(flow.token, flow.code, 'phone', 'curacao', now)).ok).toBe(false)
  })

  it.runIf(runs)('the right code sent 10 times at once verifies the flow once, and the verified flow completes once', async () => {
    const flow = await startFlow(on(0), now)
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => on(i).verify(flow.token, flow.code, 'phone', 'curacao', now)))
    expect(answers.filter((a) => a.ok)).toHaveLength(1)
    // the others: counted while the winner was verifying (already verified), or past the 5 attempts
    for (const answer of answers.filter((a) => !a.ok)) expect(['SESSION_ALREADY_VERIFIED', 'EXCEEDED_LIMIT']).toContain(answer.ok ? '' : answer.code)
    const verified = answers.find((a) => a.ok)
    const digest = verified?.ok ? verified.value.tokenDigest : ''
    expect((await Promise.all([on(0).complete(digest), on(1).complete(digest)])).sort()).toEqual([false, true])
  })

  it.runIf(runs)('two resends at once send one new code; the old code then answers CODE_OVERRIDDEN', async () => {
    const flow = await startFlow(on(0), now)
    const later = now + VERIFICATION_LIMITS.resendCooldownMs
    const resends = await Promise.all([on(0).resend(flow.token, 'phone', 'curacao', later), on(1).resend(flow.token, 'phone', 'curacao', later)])
    expect(resends.map((r) => (r.ok ? 'OK' : r.code)).sort()).toEqual(['OK', 'TEMPORARY_BLOCKED'])
    const old = await on(1).verify(flow.token, flow.code, 'phone', 'curacao', later)
    expect(old.ok ? 'OK' : old.code).toBe('CODE_OVERRIDDEN')
  })
})
