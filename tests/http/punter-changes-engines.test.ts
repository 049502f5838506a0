/**
 * The punters row as credentials, identity, self-exclusion and sign-up change it (issue 16: these
 * statements on the query layer) keeps its rules on both engines: SQLite (one server) and
 * PostgreSQL, where two instances share one database and two requests that race for one name, one address or
 * one exclusion go one to each instance, at the same moment.
 */
import { describe, expect, it } from 'vitest'
import { lowerIs } from '../../server/punters/repository'
import { selfExclude } from '../../server/regulation/self-exclusion'
import { engines } from '../support/postgres'
import { linkToken, startCredentialsServer, type CredentialsServer } from './credentials/support'
import { countryId } from './signup/helpers'

const { each: ENGINES, pairEach } = engines()

describe.each(ENGINES)('punter changes on %s (two instances on PostgreSQL)', (engine, runs) => {
  let a: CredentialsServer
  let b: CredentialsServer
  let n = 0

  /** A Curaçao punter (nickname applies there): one row both instances read (one table on PostgreSQL; on SQLite a and b are one server). */
  async function punterOnBoth(input: { email?: string | null } = {}): Promise<{ id: number; email: string; phone: string; password: string }> {
    n++
    return a.punter({ phone: `+59995310${String(n).padStart(3, '0')}`, password: `changes-secret-${n}`, profile: { countryCode: 'CW' } as never, email: `changes-${engine}-${n}@test.parlay.test`, ...input })
  }
  /** A session of the punter opened on each instance (each request of a race may then go to either). */
  const sessionsOf = async (login: string, password: string) => Promise.all([a, b].map((server) => server.loginHash(login, password)))
  const emailCount = async (email: string) => (await a.deps.data.db.selectFrom('punters').select('id').where(lowerIs('email', email)).execute()).length

  pairEach(engine, runs, startCredentialsServer, (both) => ({ a, b } = both))

  it.runIf(runs)('one nickname claimed by two punters at once (one per instance, another letter case): one 200, the other 409 NICKNAME_ALREADY_EXIST', async () => {
    expect(a.deps.data.engine).toBe(engine)
    const first = await punterOnBoth()
    const second = await punterOnBoth()
    const [onA] = await sessionsOf(first.phone, first.password)
    const [, onB] = await sessionsOf(second.phone, second.password)
    const claims = await Promise.all([
      a.call('PUT', 'nickname', { session: onA, body: { nickname: `Racer${engine}` } }),
      b.call('PUT', 'nickname', { session: onB, body: { nickname: `racer${engine.toUpperCase()}` } }),
    ])
    expect(claims.map((c) => c.status).sort()).toEqual([200, 409])
    expect(claims.find((c) => c.status === 409)!.json).toMatchObject({ errorCode: 'NICKNAME_ALREADY_EXIST', payload: { field: 'nickname', code: 'NICKNAME_ALREADY_EXIST' } })
    const holders = await a.deps.data.db.selectFrom('punters').select('id').where(lowerIs('nickname', `RACER${engine}`)).execute()
    expect(holders).toHaveLength(1)
  })

  it.runIf(runs)('one address confirmed for two accounts at once (one per instance): one gets it, the other DUPLICATE_EMAIL, and one account holds it', async () => {
    const address = `contested-${engine}@test.parlay.test`
    const punters = [await punterOnBoth({ email: null }), await punterOnBoth({ email: null })]
    for (const [i, punter] of punters.entries()) {
      const [session] = await sessionsOf(punter.phone, punter.password)
      const asked = await a.call('POST', 'account/add-email', { session, body: { email: i === 0 ? address : address.toUpperCase() } })
      expect(asked.status, JSON.stringify(asked.json)).toBe(200)
    }
    let links: { body: string }[] = []
    await expect.poll(async () => (links = await a.messagesTo(address)).length, { timeout: 5000 }).toBe(2)
    const confirmations = await Promise.all(links.map((link, i) => (i % 2 ? b : a).call('POST', 'account/email/confirm', { body: { token: linkToken(link.body) } })))
    expect(confirmations.map((c) => c.json.status ?? c.json.errorCode).sort()).toEqual(['ERROR', 'OK'])
    expect(confirmations.find((c) => c.status !== 200)!.json.errorCode).toBe('DUPLICATE_EMAIL')
    expect(await emailCount(address)).toBe(1)
  })

  it.runIf(runs)('a permanent exclusion and a one-day timeout asked at once (one per instance) never shorten each other: the permanent one is taken and stays', async () => {
    const punter = await punterOnBoth()
    // the calls themselves, not HTTP: whichever runs first ends the punter's sessions, which would refuse the other request before it reaches the rule
    const policy = { periods: ['P6M'], timeoutDays: [1], permanent: true }
    const [permanent, timeout] = await Promise.all([
      selfExclude(a.deps, punter.id, { kind: 'permanent' }, policy),
      selfExclude(b.deps, punter.id, { kind: 'timeout', daysCount: 1 }, policy),
    ])
    expect(permanent.ok).toBe(true)
    // the timeout either came first (the permanent one then lengthened it) or was refused as shorter
    if (!timeout.ok) expect(timeout).toMatchObject({ httpStatus: 409, code: 'SELF_EXCLUSION_CANNOT_BE_SHORTENED' })
    const row = await a.deps.data.db.selectFrom('punters').select(['state', 'profile']).where('id', '=', punter.id).executeTakeFirstOrThrow()
    expect([row.state, JSON.parse(row.profile).selfExclude]).toEqual(['SELF_EXCLUDED', { endDate: null, permanent: true, selfExcludedByRegulator: false, timeout: null }])
  })

  it.runIf(runs)('an auto-verification answer is used once: the service answering one state on both instances at once changes the punter once', async () => {
    const punter = await punterOnBoth()
    const [session] = await sessionsOf(punter.phone, punter.password)
    const started = await a.call('POST', 'verification/start-punter-auto-verification', { session })
    expect(started.json.payload.autoVerificationState).toBe('STARTED')
    const state = new URL(started.json.payload.link, a.url).searchParams.get('state')!
    const answers = await Promise.all(
      (['CONFIRMED', 'UNCONFIRMED'] as const).map(async (outcome, i) => {
        const server = i % 2 ? b : a
        const res = await fetch(`${server.url}/dev/identity/auto-verification`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ state, outcome }),
        })
        return new URL(res.headers.get('location')!, server.url).searchParams.get('autoVerification')
      }),
    )
    expect(answers.filter((answer) => answer === 'UNKNOWN')).toHaveLength(1)
  })

  it.runIf(runs)('two sign-ups with one e-mail at once (one per instance, another letter case): exactly one account, the other 409 DUPLICATE_EMAIL', async () => {
    const email = `twice-${engine}@test.parlay.test`
    const body = (address: string, i: number) => ({ email: address, password: `a long passphrase ${i}`, countryId: countryId('CW'), firstName: 'Twin', lastName: 'Racer', birthDay: '1990-01-01', terms: true })
    const signups = await Promise.all([email, email.toUpperCase()].map((address, i) => (i % 2 ? b : a).call('POST', 'account/v3/signup/email', { body: body(address, i) })))
    expect(signups.map((s) => s.status).sort(), JSON.stringify(signups.map((s) => s.json))).toEqual([200, 409])
    expect(signups.find((s) => s.status === 409)!.json.errorCode).toBe('DUPLICATE_EMAIL')
    expect(await emailCount(email)).toBe(1)
  })
})
