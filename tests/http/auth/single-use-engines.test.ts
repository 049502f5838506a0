/**
 * The single-use secrets of sign-up and login on the query layer (issue 16): captcha solutions
 * (server/auth/captcha.ts) keep their rule on both engines, SQLite (no DATABASE_URL) and a
 * throw-away PostgreSQL cluster (tests/support/postgres.ts, through the test-only seam
 * `convertedStoresOnPostgresForTests`), and on PostgreSQL across two instances of one database:
 * what one instance used up, the other refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { THROTTLE } from '../../../server/auth/throttle'
import { POSTGRES_MISSING, postgresBinaries, startPostgres, type ThrowawayPostgres } from '../../support/postgres'
import { DEMO_PASSWORD, startAuthServer, type AuthTestServer } from './support'

const havePostgres = postgresBinaries() !== undefined
if (!havePostgres) console.warn(POSTGRES_MISSING)

let cluster: ThrowawayPostgres | undefined
beforeAll(async () => {
  if (havePostgres) cluster = await startPostgres()
}, 120_000) // initdb on a loaded 2-core machine
afterAll(() => cluster?.dispose())

/** A server whose converted stores run on `engine` (PostgreSQL: the given database, or a fresh one of the cluster). */
async function serverOn(engine: 'sqlite' | 'postgres', databaseUrl?: string): Promise<AuthTestServer> {
  if (engine === 'sqlite') return startAuthServer()
  return startAuthServer({ databaseUrl: databaseUrl ?? (await cluster!.createDatabase()), convertedStoresOnPostgresForTests: true })
}

/** Failures enough that the login needs a captcha. */
async function requireCaptcha(server: AuthTestServer, login: string): Promise<void> {
  for (let i = 0; i < THROTTLE.captchaAfter; i++) await server.login(login, 'wrong')
  expect((await server.login(login)).json.errorCode).toBe('CAPTCHA_REQUIRED')
}

describe.each([
  ['sqlite', true],
  ['postgres', havePostgres],
] as const)('captcha solutions on %s', (engine, runs) => {
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
  })
})

describe.runIf(havePostgres)('captcha solutions on PostgreSQL across instances (issue 16)', () => {
  let a: AuthTestServer
  let b: AuthTestServer
  beforeAll(async () => {
    const databaseUrl = await cluster!.createDatabase()
    a = await serverOn('postgres', databaseUrl)
    b = await serverOn('postgres', databaseUrl)
    b.clock.now = a.clock.now
  }, 120_000)
  afterAll(async () => {
    await a?.dispose()
    await b?.dispose()
  })

  it('a challenge issued by one instance is verified by the other, and a solution used on one is refused on the other', async () => {
    const login = 'Opened'
    await requireCaptcha(a, login)
    const captcha = await a.solvedCaptcha()
    expect((await b.login(login, 'wrong', { captcha })).json.errorCode).toBe('INCORRECT_PASSWORD')
    expect((await a.login(login, DEMO_PASSWORD, { captcha })).json.errorCode).toBe('INVALID_CAPTCHA')
    expect((await a.login(login, DEMO_PASSWORD, { captcha: await b.solvedCaptcha() })).status).toBe(200)
  })
})
