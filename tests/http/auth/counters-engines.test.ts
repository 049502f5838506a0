/**
 * The login-failure counters (server/auth/throttle.ts) and the credential request budgets
 * (server/credentials/throttle.ts), the first stores on the query layer (issue 16), run the same
 * rules on both engines: SQLite (no DATABASE_URL) and a throw-away
 * PostgreSQL cluster (tests/support/postgres.ts).
 * On PostgreSQL also: two instances on one database count together, and an outage answers 503.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recordFailure, THROTTLE } from '../../../server/auth/throttle'
import { RECOVERY_BUDGET } from '../../../server/credentials/recovery'
import { useMessageSender } from '../../../server/auth/unlock'
import { findPunterByLogin } from '../../../server/punters/repository'
import type { OutgoingMessage } from '../../../server/signup/outbox'
import { engines, type Engine, type Pair } from '../../support/postgres'
import { DEMO_PASSWORD, freshIp, startAuthServer, type AuthTestServer } from './support'

const FAILED = JSON.stringify({ status: 'ERROR', errorCode: 'INCORRECT_PASSWORD' })
const { havePostgres, each: ENGINES, cluster, on: onEngine, pair } = engines()

/** A server whose converted stores run on `engine` (PostgreSQL: a fresh database of the cluster). */
const serverOn = async (engine: Engine) => startAuthServer(await onEngine(engine))

describe.each(ENGINES)('login-failure counters on %s (ASVS 2.2.1)', (engine, runs) => {
  let server: AuthTestServer
  beforeAll(async () => {
    if (runs) server = await serverOn(engine)
  }, 90_000)
  afterAll(async () => server?.dispose())

  it.runIf(runs)(`${THROTTLE.captchaAfter} failures of one identifier require a captcha; the right password with one clears them`, async () => {
    expect(server.deps.data.engine).toBe(engine)
    for (let i = 0; i < THROTTLE.captchaAfter; i++) expect((await server.login('Suspended', 'wrong')).text).toBe(FAILED)
    expect((await server.login('Suspended')).json).toEqual({ status: 'ERROR', errorCode: 'CAPTCHA_REQUIRED' })
    expect((await server.login('Suspended', DEMO_PASSWORD, { captcha: await server.solvedCaptcha() })).status).toBe(200)
    expect((await server.login('Suspended')).status).toBe(200)
  })

  it.runIf(runs)(`${THROTTLE.captchaAfter} failures from one client address require a captcha for every login from it, not from others`, async () => {
    const ip = freshIp()
    for (let i = 0; i < THROTTLE.captchaAfter; i++) await server.login(`spray-${i}@demo.parlay.test`, 'wrong', {}, ip)
    expect((await server.login('closed@demo.parlay.test', DEMO_PASSWORD, {}, ip)).json.errorCode).toBe('CAPTCHA_REQUIRED')
    expect((await server.login('closed@demo.parlay.test', DEMO_PASSWORD, {}, freshIp())).status).toBe(200)
  })

  it.runIf(runs)(`the ${THROTTLE.lockAfter}th failure locks the account; the owner gets one unlock link, and opening it lets the owner in`, async () => {
    const email = 'legal@demo.parlay.test'
    const sent: OutgoingMessage[] = []
    useMessageSender(server.deps.db, { send: (message) => void sent.push(message) })
    await seedFailures(server, `email:${email}`, THROTTLE.lockAfter - 1)
    expect((await server.login(email, 'wrong', { captcha: await server.solvedCaptcha() })).text).toBe(FAILED)
    await expect.poll(() => sent.filter((m) => m.to === email).length).toBe(1)
    expect((await server.login(email, DEMO_PASSWORD, { captcha: await server.solvedCaptcha() })).text).toBe(FAILED)
    const token = /\/auth\/login\/unlock\?token=(\S+)/.exec(sent.find((m) => m.to === email)!.body)![1]
    expect((await server.call('POST', 'auth/login/unlock', { body: { token: decodeURIComponent(token) } })).json).toEqual({ status: 'OK', payload: { unlocked: true } })
    expect((await server.login(email)).status).toBe(200)
  }, 60_000)

  it.runIf(runs)('a lock ends by itself an hour after the failures stop; attempts while locked do not extend it', async () => {
    const login = '10000012'
    await seedFailures(server, `account_number:${login}`, THROTTLE.lockAfter)
    server.clock.now += THROTTLE.lockWindowMs / 2
    for (let i = 0; i < 2; i++) expect((await server.login(login, DEMO_PASSWORD, { captcha: await server.solvedCaptcha() })).text).toBe(FAILED)
    server.clock.now += THROTTLE.lockWindowMs / 2 + 1
    expect((await server.login(login)).status).toBe(200)
  }, 60_000)
})

describe.each(ENGINES)('credential request budgets on %s', (engine, runs) => {
  let server: AuthTestServer
  beforeAll(async () => {
    if (runs) server = await serverOn(engine)
  }, 90_000)
  afterAll(async () => server?.dispose())

  it.runIf(runs)('a second recovery request for one address within a minute is TEMPORARY_BLOCKED until the minute is over', async () => {
    const recover = () => server.call('POST', 'account/password/recover', { body: { login: 'nobody-recovers@demo.parlay.test' } })
    expect((await recover()).status).toBe(200)
    const again = await recover()
    expect(again.status).toBe(429)
    expect(again.json).toEqual({ status: 'ERROR', errorCode: 'TEMPORARY_BLOCKED', payload: { nextAttemptAt: new Date(server.clock.now + RECOVERY_BUDGET.perTargetCooldownMs).toISOString() } })
    server.clock.now += RECOVERY_BUDGET.perTargetCooldownMs
    expect((await recover()).status).toBe(200)
  })
})

/** `count` failures of one identifier of an existing account, recorded through the store itself on the server's engine. */
async function seedFailures(server: AuthTestServer, login: string, count: number): Promise<void> {
  const [kind, value] = login.split(/:(.*)/)
  const accountId = (await findPunterByLogin(server.deps.data, 'curacao', kind as 'email', value))!.id
  for (let i = 0; i < count; i++) await recordFailure(server.deps.data, { login, accountId, client: freshIp() }, server.clock.now)
}

describe.runIf(havePostgres)('login-failure counters on PostgreSQL across instances and outages (issue 16)', () => {
  let a: AuthTestServer
  let b: AuthTestServer
  let instances: Pair<AuthTestServer> | undefined
  beforeAll(async () => {
    instances = await pair('postgres', startAuthServer)
    ;({ a, b } = instances)
    b.clock.now = a.clock.now
  }, 120_000)
  afterAll(async () => instances?.dispose())

  it('failures counted on one instance count on the other: alternating wrong passwords reach the captcha on both', async () => {
    for (let i = 0; i < THROTTLE.captchaAfter; i++) expect((await (i % 2 ? b : a).login('ghost-ab@demo.parlay.test', 'wrong')).text).toBe(FAILED)
    for (const server of [a, b]) expect((await server.login('ghost-ab@demo.parlay.test', 'wrong')).json.errorCode).toBe('CAPTCHA_REQUIRED')
  })

  it('the failures that reach the lock, sent in parallel to both instances, lock the account once: exactly one unlock link', async () => {
    const email = 'zero@demo.parlay.test'
    const ids = await Promise.all([a, b].map(async (server) => (await findPunterByLogin(server.deps.data, 'curacao', 'email', email))?.id))
    expect(ids[0]).toBe(ids[1]) // both instances' demo punters are seeded alike: one account id on both
    const sent: OutgoingMessage[] = []
    for (const server of [a, b]) useMessageSender(server.deps.db, { send: (message) => void sent.push(message) })
    await seedFailures(a, `email:${email}`, THROTTLE.lockAfter - 2)
    const captchas = [await a.solvedCaptcha(), await b.solvedCaptcha(), await a.solvedCaptcha(), await b.solvedCaptcha()]
    const attempts = await Promise.all(captchas.map((captcha, i) => (i % 2 ? b : a).login(email, 'wrong', { captcha })))
    for (const res of attempts) expect(res.text).toBe(FAILED)
    await expect.poll(() => sent.filter((m) => m.to === email).length).toBe(1)
    expect((await b.login(email, DEMO_PASSWORD, { captcha: await b.solvedCaptcha() })).text).toBe(FAILED)
    expect(sent.filter((m) => m.to === email)).toHaveLength(1)
  }, 60_000)

  it('a recovery request on one instance spends the budget on the other', async () => {
    const recover = (server: AuthTestServer) => server.call('POST', 'account/password/recover', { body: { login: 'nobody-ab@demo.parlay.test' } })
    expect((await recover(a)).status).toBe(200)
    expect((await recover(b)).json.errorCode).toBe('TEMPORARY_BLOCKED')
  })

  it('PostgreSQL stopped: a login answers 503 STORAGE_UNAVAILABLE (never a 500); started again: logins work without a restart', async () => {
    cluster().stopServer()
    try {
      const down = await a.login('Opened', 'wrong')
      expect(down.status).toBe(503)
      expect(down.json).toEqual({ status: 'ERROR', errorCode: 'STORAGE_UNAVAILABLE' })
    } finally {
      cluster().startServer()
    }
    expect((await a.login('Opened')).status).toBe(200)
  }, 60_000)
})
