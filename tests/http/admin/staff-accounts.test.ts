/**
 * Issue 30 item 1: staff accounts, not defaults. The demo's accounts exist only in a demo start; the
 * first admin is made with `npm run admin:create` (from the environment, or asked for with the
 * password hidden); every admin role signs in with a second factor (TOTP, codes single use, or a
 * recovery code), enrolled at the first sign-in; admins change their own password; disabling an
 * admin ends their sessions at once; every decision is in the audit log. Codes are computed here
 * from the secret the server showed, as an authenticator app would (tests/support/totp.ts).
 * Runs on SQLite, and on PostgreSQL in the PostgreSQL pass (the CLI then gets DATABASE_URL).
 */
import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawRequest } from '../../support/server'
import { totpCode } from '../../support/totp'
import { clientOf, OPERATOR, postJson, signIn, startTestServer, type AdminClient, type TestServer } from './support'

const ROOT = resolve(import.meta.dirname, '..', '..', '..')
const clock = { now: Date.now() }
let server: TestServer

beforeAll(async () => {
  server = await startTestServer({ now: () => clock.now })
}, 90_000)
afterAll(() => server?.dispose())

/** The real `npm run admin …` against the test server's database (its data folder, or its PostgreSQL). */
function adminTool(args: string[], env: Record<string, string> = {}, input?: string): Promise<{ code: number | null; output: string }> {
  const base: NodeJS.ProcessEnv = { ...process.env, PARLAY_DATA_DIR: server.deps.config.dataDir, ...(server.databaseUrl ? { DATABASE_URL: server.databaseUrl } : {}) }
  delete base.PARLAY_AUDIT_KEY
  for (const name of ['PARLAY_ADMIN_EMAIL', 'PARLAY_ADMIN_ROLE', 'PARLAY_ADMIN_PASSWORD', 'PARLAY_ADMIN_NAME']) delete base[name]
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'tools', 'admin-accounts.ts'), ...args], { cwd: ROOT, env: { ...base, ...env }, stdio: ['pipe', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  child.stdin.end(input ?? '')
  return new Promise((done) => child.once('exit', (code) => done({ code, output })))
}

const auditActions = async (actor?: string) =>
  (await server.deps.data.db.selectFrom('audit_log').select(['actor', 'action', 'details']).orderBy('seq').execute()).filter((e) => !actor || e.actor === actor)

/** Creates an admin with the tool from the environment; answers their credentials. */
async function createdAdmin(email: string, role = 'operator'): Promise<{ email: string; password: string }> {
  const password = `a long passphrase for ${email}`
  const made = await adminTool(['create'], { PARLAY_ADMIN_EMAIL: email, PARLAY_ADMIN_ROLE: role, PARLAY_ADMIN_PASSWORD: password, PARLAY_ADMIN_NAME: 'New Admin' })
  expect(made.output).toContain(`Created ${role} ${email}`)
  expect(made.code).toBe(0)
  return { email, password }
}

/** First sign-in: password, then the enrolment's first code; answers the secret, the recovery codes and the session. */
async function enrolled(who: { email: string; password: string }): Promise<{ secret: string; recoveryCodes: string[]; client: AdminClient }> {
  const first = await postJson(server, '/admin/api/login', who)
  expect(first.json().payload).toMatchObject({ step: 'enrol', enrolment: { secret: expect.stringMatching(/^[A-Z2-7]{32}$/) } })
  const { challenge, enrolment } = first.json().payload as { challenge: string; enrolment: { secret: string; uri: string } }
  expect(enrolment.uri).toBe(`otpauth://totp/Parlay%20admin:${encodeURIComponent(who.email)}?issuer=Parlay%20admin&secret=${enrolment.secret}&algorithm=SHA1&digits=6&period=30`)
  const done = await postJson(server, '/admin/api/login/enrol', { challenge, code: totpCode(enrolment.secret, clock.now) })
  expect(done.status).toBe(200)
  const client = clientOf(server, done)
  return { secret: enrolment.secret, recoveryCodes: done.json().payload.recoveryCodes, client }
}

/** Password, then a code (or a recovery code): the second step's answer. */
async function twoSteps(who: { email: string; password: string }, second: { code?: string; recoveryCode?: string }) {
  const first = await postJson(server, '/admin/api/login', who)
  expect(first.status).toBe(200)
  return postJson(server, '/admin/api/login/second-factor', { challenge: first.json().payload.challenge, ...second })
}

describe('the demo accounts exist only in a demo start', () => {
  it('a start without the demo has no staff account: the published demo passwords sign nobody in', async () => {
    const production = await startTestServer({ demo: false })
    try {
      expect(production.deps.config.demo).toBe(false)
      expect(await production.deps.data.db.selectFrom('admin_users').select('email').execute()).toEqual([])
      expect((await postJson(production, '/admin/api/login', { email: OPERATOR.email, password: OPERATOR.password })).status).toBe(401)
    } finally {
      await production.dispose()
    }
  }, 90_000)

  it('a start without the demo on a folder that ran it disables the demo accounts, ends their sessions, and records it', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'parlay-demo-then-production-')), 'data')
    const demo = await startTestServer({ dataDir })
    const operator = await signIn(demo, OPERATOR)
    expect((await operator.get('/admin/api/session')).status).toBe(200)
    await demo.close()
    const production = await startTestServer({ dataDir, demo: false })
    try {
      expect((await postJson(production, '/admin/api/login', { email: OPERATOR.email, password: OPERATOR.password })).json()).toEqual({ status: 'ERROR', errorCode: 'INVALID_CREDENTIALS' })
      expect((await rawRequest(production.port, { path: '/admin/api/session', headers: { cookie: operator.cookie } })).status).toBe(401)
      const entry = await production.deps.data.db.selectFrom('audit_log').select(['details']).where('action', '=', 'admin.demo-accounts-disabled').executeTakeFirstOrThrow()
      expect(JSON.parse(entry.details).accounts).toHaveLength(4)
    } finally {
      await production.dispose()
    }
  }, 120_000)
})

describe('npm run admin:create', () => {
  it('from PARLAY_ADMIN_EMAIL/_ROLE/_PASSWORD creates an admin who sets up TOTP at the first sign-in (secret as text and otpauth URI) and gets ten recovery codes once', async () => {
    const who = await createdAdmin('first.admin@example.com', 'compliance')
    const { recoveryCodes, client } = await enrolled(who)
    expect(recoveryCodes).toHaveLength(10)
    expect(new Set(recoveryCodes).size).toBe(10)
    expect((await client.get('/admin/api/session')).json().payload.user).toMatchObject({ email: who.email, role: 'compliance' })
    // the codes are stored only as hashes
    const stored = await server.deps.data.db.selectFrom('admin_recovery_codes').selectAll().execute()
    expect(stored.filter((r) => recoveryCodes.some((code) => r.code_hash.includes(code.replace(/-/g, ''))))).toEqual([])
    expect((await client.get('/admin/api/account')).json().payload.twoFactor.recoveryCodesLeft).toBe(10)
    const actions = (await auditActions()).map((e) => e.action)
    expect(actions).toEqual(expect.arrayContaining(['admin.created', 'admin.password-accepted', 'admin.two-factor-enrolled', 'admin.login']))
  }, 60_000)

  it('asked for on the terminal: e-mail, name, role, password twice, the password never echoed; two different passwords are refused', async () => {
    const password = 'typed but never shown 42'
    const made = await adminTool(['create'], {}, `asked@example.com\nAsked Admin\nsupport\n${password}\n${password}\n`)
    expect(made.output).toContain('E-mail: ')
    expect(made.output).toContain('Password (at least 15 characters, not shown): ')
    expect(made.output).not.toContain(password)
    expect(made.code).toBe(0)
    expect((await postJson(server, '/admin/api/login', { email: 'asked@example.com', password })).json().payload.step).toBe('enrol')
    const mismatch = await adminTool(['create'], {}, `other@example.com\nOther\noperator\n${password}\nsomething else entirely\n`)
    expect(mismatch.output).toContain('refused: the two passwords differ')
    expect(mismatch.code).toBe(1)
  }, 60_000)

  it('refuses a short or published password, an unknown role and an e-mail that exists', async () => {
    const refusal = async (env: Record<string, string>) => (await adminTool(['create'], { PARLAY_ADMIN_EMAIL: 'x@example.com', PARLAY_ADMIN_ROLE: 'operator', PARLAY_ADMIN_PASSWORD: 'long enough passphrase', ...env })).output
    expect(await refusal({ PARLAY_ADMIN_PASSWORD: 'fourteen chars' })).toContain('at least 15 characters')
    expect(await refusal({ PARLAY_ADMIN_PASSWORD: OPERATOR.password })).toContain('published')
    expect(await refusal({ PARLAY_ADMIN_ROLE: 'root' })).toContain('the role must be one of operator, compliance, support')
    expect(await refusal({ PARLAY_ADMIN_EMAIL: OPERATOR.email })).toContain('exists already')
  }, 90_000)
})

describe('two-factor sign-in', () => {
  let who: { email: string; password: string }
  let secret: string
  let recoveryCodes: string[]
  beforeAll(async () => {
    who = await createdAdmin('totp.admin@example.com')
    ;({ secret, recoveryCodes } = await enrolled(who))
  }, 60_000)

  it('the password alone opens no session; a code of the secret does', async () => {
    const first = await postJson(server, '/admin/api/login', who)
    expect(first.headers['set-cookie']).toBeUndefined()
    expect(first.json().payload).toEqual({ step: 'totp', challenge: expect.any(String), expiresInSeconds: 300 })
    clock.now += 30_000
    const second = await postJson(server, '/admin/api/login/second-factor', { challenge: first.json().payload.challenge, code: totpCode(secret, clock.now) })
    expect(second.status).toBe(200)
    expect(second.json().payload.checkpoint).toMatchObject({ format: 'parlay-audit-checkpoint/1', entries: expect.any(Number) })
  })

  it('a code is used once: the same code again within its window is refused, the next step\'s code is taken', async () => {
    clock.now += 30_000
    const code = totpCode(secret, clock.now)
    expect((await twoSteps(who, { code })).status).toBe(200)
    const replay = await twoSteps(who, { code })
    expect(replay.json()).toEqual({ status: 'ERROR', errorCode: 'INVALID_CODE' })
    expect((await twoSteps(who, { code: totpCode(secret, clock.now + 30_000) })).status).toBe(200)
    const failed = (await auditActions(who.email)).filter((e) => e.action === 'admin.second-factor-failed').map((e) => JSON.parse(e.details).reason)
    expect(failed).toContain('replayed')
  })

  it('a code from two steps away, or of another secret, is refused', async () => {
    clock.now += 120_000
    expect((await twoSteps(who, { code: totpCode(secret, clock.now + 60_000) })).json().errorCode).toBe('INVALID_CODE')
    expect((await twoSteps(who, { code: totpCode(OPERATOR.totpSecret, clock.now) })).json().errorCode).toBe('INVALID_CODE')
  })

  it('a recovery code signs in once; it is spent after, and the count of codes left drops', async () => {
    const used = await twoSteps(who, { recoveryCode: recoveryCodes[0].toLowerCase() })
    expect(used.status).toBe(200)
    expect(used.json().payload.recoveryCodesLeft).toBe(9)
    expect((await twoSteps(who, { recoveryCode: recoveryCodes[0] })).json().errorCode).toBe('INVALID_CODE')
    expect((await auditActions(who.email)).map((e) => e.action)).toContain('admin.recovery-code-used')
  })

  it('a challenge takes five codes: 50 wrong codes sent at once get at most five answers INVALID_CODE, the rest SIGN_IN_EXPIRED, and then the right code is refused too', async () => {
    const first = await postJson(server, '/admin/api/login', who)
    const challenge = first.json().payload.challenge
    const wrong = await Promise.all(Array.from({ length: 50 }, (_, i) => postJson(server, '/admin/api/login/second-factor', { challenge, code: String(100000 + i) })))
    const codes = wrong.map((r) => r.json().errorCode)
    expect(codes.filter((c) => c === 'INVALID_CODE').length).toBeLessThanOrEqual(5)
    expect(codes.every((c) => c === 'INVALID_CODE' || c === 'SIGN_IN_EXPIRED' || c === 'TOO_MANY_REQUESTS')).toBe(true)
    clock.now += 30_000
    expect((await postJson(server, '/admin/api/login/second-factor', { challenge, code: totpCode(secret, clock.now) })).json().errorCode).toBe('SIGN_IN_EXPIRED')
  })
})

describe('sign-in failures say nothing of the account', () => {
  it('an unknown e-mail, a wrong password and a disabled account get the same 401; after ten failures each gets the same 429', async () => {
    const disabled = await createdAdmin('soon.disabled@example.com')
    expect((await adminTool(['disable', disabled.email])).code).toBe(0)
    const answers = await Promise.all([
      postJson(server, '/admin/api/login', { email: 'nobody@example.com', password: 'whatever it is' }, { 'x-forwarded-for': '10.30.0.1' }),
      postJson(server, '/admin/api/login', { email: OPERATOR.email, password: 'not the password' }, { 'x-forwarded-for': '10.30.0.2' }),
      postJson(server, '/admin/api/login', disabled, { 'x-forwarded-for': '10.30.0.3' }),
    ])
    expect(answers.map((a) => [a.status, a.body])).toEqual(Array(3).fill([401, JSON.stringify({ status: 'ERROR', errorCode: 'INVALID_CREDENTIALS' })]))
    for (const email of ['nobody2@example.com', disabled.email]) {
      for (let i = 0; i < 10; i++) await postJson(server, '/admin/api/login', { email, password: 'wrong wrong wrong' }, { 'x-forwarded-for': `10.31.${i}.1` })
      const blocked = await postJson(server, '/admin/api/login', { email, password: 'wrong wrong wrong' }, { 'x-forwarded-for': '10.32.0.1' })
      expect([blocked.status, blocked.json().errorCode]).toEqual([429, 'TOO_MANY_REQUESTS'])
    }
  }, 60_000)
})

describe('an admin changes their own password', () => {
  it('needs the current password; refuses under 15 characters or a published one; ends the other sessions at once and keeps this one; the old password stops working', async () => {
    const who = await createdAdmin('changes.password@example.com')
    const { secret, client: here } = await enrolled(who)
    clock.now += 30_000
    const elsewhere = clientOf(server, await twoSteps(who, { code: totpCode(secret, clock.now) }))
    expect((await here.post('/admin/api/account/password', { currentPassword: 'not it at all', newPassword: 'a brand new passphrase' })).json().errorCode).toBe('INVALID_CREDENTIALS')
    expect((await here.post('/admin/api/account/password', { currentPassword: who.password, newPassword: 'too short' })).json()).toMatchObject({ errorCode: 'PASSWORD_NOT_ACCEPTED', payload: { problem: 'too-short' } })
    expect((await here.post('/admin/api/account/password', { currentPassword: who.password, newPassword: OPERATOR.password })).json().payload.problem).toBe('published')
    const changed = await here.post('/admin/api/account/password', { currentPassword: who.password, newPassword: 'a brand new passphrase' })
    expect(changed.json().payload).toEqual({ otherSessionsEnded: 1 })
    expect((await elsewhere.get('/admin/api/session')).status).toBe(401)
    expect((await here.get('/admin/api/session')).status).toBe(200)
    expect((await postJson(server, '/admin/api/login', who)).status).toBe(401)
    expect((await postJson(server, '/admin/api/login', { ...who, password: 'a brand new passphrase' })).status).toBe(200)
    const actions = (await auditActions(who.email)).map((e) => e.action)
    expect(actions).toEqual(expect.arrayContaining(['admin.password-check-failed', 'admin.password-change-refused', 'admin.password-changed']))
  }, 60_000)
})

describe('disabling an admin', () => {
  it('npm run admin:disable ends an open session at once (its next call is 401) and no sign-in works until enabled; both are audited', async () => {
    const who = await createdAdmin('to.disable@example.com')
    const { secret, client } = await enrolled(who)
    expect((await client.get('/admin/api/documents')).status).toBe(200)
    const disabled = await adminTool(['disable', who.email])
    expect(disabled.output).toContain('1 session(s) ended')
    expect((await client.get('/admin/api/documents')).status).toBe(401)
    expect((await postJson(server, '/admin/api/login', who)).status).toBe(401)
    expect((await adminTool(['enable', who.email])).code).toBe(0)
    clock.now += 30_000
    expect((await twoSteps(who, { code: totpCode(secret, clock.now) })).status).toBe(200)
    const byTool = (await auditActions()).filter((e) => e.actor.startsWith('cli:')).map((e) => [e.action, JSON.parse(e.details).email])
    expect(byTool).toEqual(expect.arrayContaining([['admin.disabled', who.email], ['admin.enabled', who.email]]))
  }, 60_000)
})

describe('npm run admin -- scope', () => {
  it('limits an account to the documents of some jurisdictions (a draft of another is 403 OUT_OF_SCOPE), audited; no list lifts the limit', async () => {
    const operator = await signIn(server, OPERATOR)
    const italy = 'jurisdictions/italy/flows/signup-email.json'
    const draft = async () => operator.post('/admin/api/drafts', { file: italy, content: '{"kind":"flow","id":"signup-email","changed":true}' })
    const limited = await adminTool(['scope', OPERATOR.email, 'spain,denmark'])
    expect(limited, limited.output).toMatchObject({ code: 0 })
    expect(limited.output).toContain('denmark, spain')
    expect((await draft()).json().errorCode).toBe('OUT_OF_SCOPE')
    expect((await adminTool(['scope', OPERATOR.email, 'Spain!'])).code).toBe(1)
    expect((await adminTool(['scope', OPERATOR.email])).code).toBe(0)
    expect((await draft()).status).toBe(201)
    const byTool = (await auditActions()).filter((e) => e.action === 'admin.scope-changed').map((e) => JSON.parse(e.details).jurisdictions)
    expect(byTool).toEqual([['denmark', 'spain'], null])
  }, 60_000)
})
