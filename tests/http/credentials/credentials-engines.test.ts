/**
 * The credentials part's own tables (one-time secrets, secret questions; server/credentials/store.ts,
 * secret-question.ts) on the query layer (issue 16) keep their single-use and try-budget rules on
 * both engines: SQLite (one server) and PostgreSQL, where two instances share one database and
 * the requests alternate between them, sent in parallel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SECRET_ANSWER } from '../../../server/credentials/secret-question'
import { SECRET_RULES } from '../../../server/credentials/store'
import { findPunterById } from '../../../server/punters/repository'
import { engines } from '../../support/postgres'
import { linkToken, smsCode, startCredentialsServer, type CredentialsServer } from './support'

const { havePostgres, each: ENGINES, cluster, on: onEngine, pairEach } = engines()

describe.each(ENGINES)('credential secrets on %s (two instances on PostgreSQL)', (engine, runs) => {
  let a: CredentialsServer
  let b: CredentialsServer
  /** The i-th request's instance: A and B in turn on PostgreSQL, the one server on SQLite. */
  const at = (i: number) => (i % 2 ? b : a)
  let n = 0
  /** One punter both instances read (the punters store is on the query layer: one table on PostgreSQL). */
  async function punterOnBoth(): Promise<{ id: number; email: string; phone: string; password: string }> {
    const input = { email: `engines-${engine}-${++n}@test.parlay.test`, phone: `+59995300${String(n).padStart(3, '0')}`, password: `engines-secret-${n}` }
    const made = await a.punter(input)
    expect((await findPunterById(b.deps.data, made.id))?.email).toBe(input.email)
    return made
  }

  pairEach(engine, runs, startCredentialsServer, (both) => ({ a, b } = both))

  it.runIf(runs)(`${SECRET_RULES.codeAttempts} wrong recovery codes sent at once spend all ${SECRET_RULES.codeAttempts} tries: the right code after them is EXCEEDED_LIMIT`, async () => {
    expect(a.deps.data.engine).toBe(engine)
    const punter = await punterOnBoth()
    const { recoveryToken } = (await a.call('POST', 'account/password/recover', { body: { login: punter.phone } })).json.payload
    const code = smsCode((await a.lastMessage(punter.phone)).body)
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0')
    const guesses = await Promise.all(
      Array.from({ length: SECRET_RULES.codeAttempts }, (_, i) => at(i).call('POST', 'account/password/recover/code', { body: { recoveryToken, code: wrong } })),
    )
    expect(guesses.map((g) => g.json.errorCode).sort()).toEqual([...Array(SECRET_RULES.codeAttempts - 1).fill('CODE_NO_MATCH_OR_EXPIRED'), 'EXCEEDED_LIMIT'])
    expect((await b.call('POST', 'account/password/recover/code', { body: { recoveryToken, code } })).json.errorCode).toBe('EXCEEDED_LIMIT')
  })

  it.runIf(runs)('a recovery link sent to two resets at once sets the password once: one OK, the other TOKEN_NOT_FOUND', async () => {
    const punter = await punterOnBoth()
    await a.call('POST', 'account/password/recover', { body: { login: punter.email } })
    const token = linkToken((await a.lastMessage(punter.email)).body)
    const resets = await Promise.all([0, 1].map((i) => at(i).call('POST', 'account/password/reset', { body: { token, password: `raced new secret ${i}` } })))
    expect(resets.map((r) => r.json.status ?? r.json.errorCode).sort()).toEqual(['ERROR', 'OK'])
    expect(resets.find((r) => r.status !== 200)!.json.errorCode).toBe('TOKEN_NOT_FOUND')
  }, 60_000)

  it.runIf(runs)(`${SECRET_ANSWER.failuresBeforeBlock + 1} wrong secret answers sent at once share one budget: the ${SECRET_ANSWER.failuresBeforeBlock}th blocks, the one after is SQ_VERIFICATION_BLOCKED`, async () => {
    const punter = await punterOnBoth()
    const session = await a.loginHash(punter.email, punter.password)
    expect((await a.call('POST', 'account/secret-question', { session, body: { questionType: 'FirstPetName', answer: 'Captain Whiskers', password: punter.password } })).status).toBe(200)
    await a.call('POST', 'account/password/recover', { body: { login: punter.email } })
    const token = linkToken((await a.lastMessage(punter.email)).body)
    const answers = await Promise.all(
      Array.from({ length: SECRET_ANSWER.failuresBeforeBlock + 1 }, (_, i) => at(i).call('POST', 'account/secret-question/answer-validation', { body: { token, answer: `Rex ${i}` } })),
    )
    expect(answers.map((r) => r.json.errorCode).sort()).toEqual([
      ...Array(SECRET_ANSWER.failuresBeforeBlock - 1).fill('SQ_ANSWER_NOT_MATCH'),
      'SQ_ATTEMPTS_LIMIT_EXCEEDED',
      'SQ_VERIFICATION_BLOCKED',
    ])
    expect((await b.call('POST', 'account/secret-question/answer-validation', { body: { token, answer: 'Captain Whiskers' } })).json.errorCode).toBe('SQ_VERIFICATION_BLOCKED')
  }, 60_000)
})

describe.runIf(havePostgres)('credential secrets when PostgreSQL goes away (issue 16 item 3)', () => {
  let server: CredentialsServer
  beforeAll(async () => {
    server = await startCredentialsServer(await onEngine('postgres'))
  }, 120_000)
  afterAll(async () => server?.dispose())

  it("a signed-in punter's secret-answer check with the database stopped answers 503 STORAGE_UNAVAILABLE (never an unhandled rejection that ends the process); once it is back the same check answers OK", async () => {
    const punter = await server.punter({ email: 'engines-outage@test.parlay.test', phone: '+59995309001', password: 'engines-outage-secret' })
    const session = await server.loginHash(punter.email, punter.password)
    expect((await server.call('POST', 'account/secret-question', { session, body: { questionType: 'FirstPetName', answer: 'Captain Whiskers', password: punter.password } })).status).toBe(200)
    cluster().stopServer()
    try {
      const refused = await server.call('POST', 'account/secret-question/answer-validation', { session, body: { answer: 'Captain Whiskers' } })
      expect(refused.status).toBe(503)
      expect(refused.json.errorCode).toBe('STORAGE_UNAVAILABLE')
    } finally {
      cluster().startServer()
    }
    await expect
      .poll(async () => (await server.call('POST', 'account/secret-question/answer-validation', { session, body: { answer: 'Captain Whiskers' } })).json.status, { timeout: 30_000 })
      .toBe('OK')
  }, 90_000)
})
