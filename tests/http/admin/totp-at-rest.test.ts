/**
 * Staff TOTP secrets at rest (docs/security.md "Staff second factor"): the database holds each
 * secret sealed with AES-256-GCM under a key outside it, with the key's id beside it; plain text
 * from earlier versions is sealed at the next start; keys rotate; a production start without the
 * key runs on a key file beside the data and warns. Codes are computed per RFC 6238 by tests/support/rfc6238.ts (node:crypto alone, not
 * the otpauth library the server uses), the stored column is read from the database itself, and
 * the sealed text is opened here with node:crypto from the key file, not with the server's code.
 */
import { createDecipheriv, createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { createAdmin } from '../../../server/admin/staff'
import { base32Decode, rfc6238, rfc6238Base32 } from '../../support/rfc6238'
import { OPERATOR, postJson, startTestServer, type TestServer } from './support'

let clock = Date.UTC(2026, 10, 29, 9, 0, 0)
const now = () => clock
/** The next 30-second step: a code is accepted once per step. */
const nextStep = () => void (clock += 30_000)
const servers: TestServer[] = []
afterAll(() => Promise.all(servers.map((s) => s.dispose())))

// every test starts servers (several, one after another), on a machine shared with other work
vi.setConfig({ testTimeout: 180_000 })

async function start(options: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const server = await startTestServer({ now, ...options })
  servers.push(server)
  return server
}
async function stop(server: TestServer) {
  servers.splice(servers.indexOf(server), 1)
  await server.dispose()
}

const stored = (server: TestServer, email: string) =>
  server.deps.data.db.selectFrom('admin_users').select(['totp_secret', 'totp_key_id']).where('email', '=', email).executeTakeFirstOrThrow()

/** Opens a sealed secret with node:crypto: base64url of IV (12 bytes) ‖ ciphertext ‖ tag (16), the e-mail as additional data. */
function openIndependently(sealed: string, keyHex: string, email: string): string {
  const raw = Buffer.from(sealed, 'base64url')
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(keyHex, 'hex'), raw.subarray(0, 12)).setAAD(Buffer.from(`parlay-admin-totp:${email}`))
  decipher.setAuthTag(raw.subarray(raw.length - 16))
  return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString('utf8')
}
const keyIdOf = (keyHex: string) => createHash('sha256').update('parlay-totp-key-id\0').update(Buffer.from(keyHex, 'hex')).digest('hex').slice(0, 12)

type Who = { email: string; password: string }
let admins = 0
async function newAdmin(server: TestServer): Promise<Who> {
  const who = { email: `staff${++admins}@example.com`, password: 'a long enough staff passphrase' }
  expect(await createAdmin(server.deps.data, { ...who, name: 'Staff', role: 'operator' }, now())).toMatchObject({ ok: true })
  return who
}

/** The first sign-in: the enrolment's secret, its URI and QR code, and the answer to the first code. */
async function enrol(server: TestServer, who: Who) {
  const first = await postJson(server, '/admin/api/login', who)
  expect(first.json().payload.step).toBe('enrol')
  const { challenge, enrolment } = first.json().payload
  const challengeRow = await server.deps.data.db.selectFrom('admin_challenges').select(['secret', 'secret_key_id']).where('user_id', '=', (await userId(server, who.email))).executeTakeFirstOrThrow()
  const answer = await postJson(server, '/admin/api/login/enrol', { challenge, code: rfc6238Base32(enrolment.secret, now()) })
  return { enrolment: enrolment as { secret: string; uri: string; qr: string }, challengeRow, answer }
}
const userId = async (server: TestServer, email: string) => (await server.deps.data.db.selectFrom('admin_users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id

async function signInStatus(server: TestServer, who: Who, secret: string): Promise<number> {
  nextStep()
  const first = await postJson(server, '/admin/api/login', { email: who.email, password: who.password })
  expect(first.json().payload.step).toBe('totp')
  return (await postJson(server, '/admin/api/login/second-factor', { challenge: first.json().payload.challenge, code: rfc6238Base32(secret, now()) })).status
}

describe('staff TOTP secrets are encrypted at rest', () => {
  it('the RFC 6238 oracle gives the RFC’s own SHA-1 vectors', () => {
    const key = Buffer.from('12345678901234567890')
    expect(rfc6238(key, 59_000, 8)).toBe('94287082')
    expect(rfc6238(key, 1_111_111_109_000, 8)).toBe('07081804')
    expect(base32Decode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ').equals(key)).toBe(true)
  })

  it('an enrolled secret is stored AES-256-GCM-sealed under the data dir key with its key id, never as text; codes computed from the enrolment’s secret sign in', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'parlay-totp-')), 'data')
    const server = await start({ dataDir })
    const who = await newAdmin(server)
    const { enrolment, challengeRow, answer } = await enrol(server, who)
    expect(answer.status).toBe(200)
    expect(enrolment.uri).toMatch(new RegExp(`^otpauth://totp/.*[?&]secret=${enrolment.secret}(&|$)`))
    expect(enrolment.qr).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/)
    const key = readFileSync(join(dataDir, 'totp.key'), 'utf8').trim()
    // the enrolment in flight was sealed too
    expect(challengeRow.secret).not.toContain(enrolment.secret)
    expect(openIndependently(challengeRow.secret!, key, who.email)).toBe(enrolment.secret)
    const row = await stored(server, who.email)
    expect(row.totp_secret).not.toContain(enrolment.secret)
    expect(Buffer.from(row.totp_secret!, 'base64url').toString('latin1')).not.toContain(base32Decode(enrolment.secret).toString('latin1'))
    expect(row.totp_key_id).toBe(keyIdOf(key))
    expect(openIndependently(row.totp_secret!, key, who.email)).toBe(enrolment.secret)
    expect(await signInStatus(server, who, enrolment.secret)).toBe(200)
    // the demo accounts' (published) secrets are sealed the same way
    const demo = await stored(server, OPERATOR.email)
    expect(demo.totp_secret).not.toContain(OPERATOR.totpSecret)
    expect(openIndependently(demo.totp_secret!, key, OPERATOR.email)).toBe(OPERATOR.totpSecret)
    expect(await signInStatus(server, OPERATOR, OPERATOR.totpSecret)).toBe(200)
  })

  it('a sealed secret copied into another admin’s row does not open there: that admin’s codes are refused with 401 INVALID_CODE, never a 500', async () => {
    const server = await start({})
    const who = await newAdmin(server)
    const { answer } = await enrol(server, who)
    expect(answer.status).toBe(200)
    const operatorRow = await stored(server, OPERATOR.email)
    await server.deps.data.db.updateTable('admin_users').set({ totp_secret: operatorRow.totp_secret, totp_key_id: operatorRow.totp_key_id }).where('email', '=', who.email).execute()
    nextStep()
    const first = await postJson(server, '/admin/api/login', who)
    const res = await postJson(server, '/admin/api/login/second-factor', { challenge: first.json().payload.challenge, code: rfc6238Base32(OPERATOR.totpSecret, now()) })
    expect(res.status).toBe(401)
    expect(res.json()).toMatchObject({ status: 'ERROR', errorCode: 'INVALID_CODE' })
  })

  it('a secret stored in plain text (as before q135) is sealed at the next start, audited, and its admin still signs in with the same authenticator', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'parlay-totp-')), 'data')
    let server = await start({ dataDir })
    const who = await newAdmin(server)
    const { enrolment } = await enrol(server, who)
    // what earlier versions stored: the base32 secret itself, no key id
    await server.deps.data.db.updateTable('admin_users').set({ totp_secret: enrolment.secret, totp_key_id: null }).where('email', '=', who.email).execute()
    await stop(server)
    server = await start({ dataDir })
    const row = await stored(server, who.email)
    const key = readFileSync(join(dataDir, 'totp.key'), 'utf8').trim()
    expect(row.totp_secret).not.toBe(enrolment.secret)
    expect(row.totp_key_id).toBe(keyIdOf(key))
    expect(openIndependently(row.totp_secret!, key, who.email)).toBe(enrolment.secret)
    const audited = await server.deps.data.db.selectFrom('audit_log').select(['action', 'details']).where('action', '=', 'admin.totp-secrets-sealed').execute()
    expect(audited).toHaveLength(1)
    expect(JSON.parse(audited[0].details)).toMatchObject({ sealed: 1, resealed: 0 })
    expect(await signInStatus(server, who, enrolment.secret)).toBe(200)
  })

  it('keys rotate: a start with a new PARLAY_TOTP_KEY and the old one in PARLAY_TOTP_PREVIOUS_KEYS reseals every secret; a start without the key that sealed them refuses, naming the admins and what to do', async () => {
    const [a, b, c] = ['a', 'b', 'c'].map((k) => createHash('sha256').update(`rotation-${k}`).digest('hex'))
    const dataDir = join(mkdtempSync(join(tmpdir(), 'parlay-totp-')), 'data')
    let server = await start({ dataDir, demo: false, totpKeys: { current: a } })
    const who = await newAdmin(server)
    const { enrolment } = await enrol(server, who)
    expect((await stored(server, who.email)).totp_key_id).toBe(keyIdOf(a))
    await stop(server)
    server = await start({ dataDir, demo: false, totpKeys: { current: b, previous: [a] } })
    const row = await stored(server, who.email)
    expect(row.totp_key_id).toBe(keyIdOf(b))
    expect(openIndependently(row.totp_secret!, b, who.email)).toBe(enrolment.secret)
    expect(await signInStatus(server, who, enrolment.secret)).toBe(200)
    await stop(server)
    server = await start({ dataDir, demo: false, totpKeys: { current: b } }) // the old key dropped
    expect(await signInStatus(server, who, enrolment.secret)).toBe(200)
    await stop(server)
    await expect(start({ dataDir, demo: false, totpKeys: { current: c } })).rejects.toThrow(
      new RegExp(`TOTP secrets of ${who.email} do not decrypt .*key ${keyIdOf(b)}.*PARLAY_TOTP_PREVIOUS_KEYS.*reset-two-factor`),
    )
  })

  it('a production start without PARLAY_TOTP_KEY starts on a key file beside the data (0600) and warns at every start; a malformed key is refused by name', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'parlay-totp-')), 'data')
    const warnings: string[] = []
    const log = { info: () => {}, error: () => {}, warn: (event: string) => void warnings.push(event) }
    const first = await start({ dataDir, demo: false, totpKeys: undefined, log })
    const key = readFileSync(join(dataDir, 'totp.key'), 'utf8').trim()
    expect(key).toMatch(/^[0-9a-f]{64}$/)
    expect(statSync(join(dataDir, 'totp.key')).mode & 0o777).toBe(0o600)
    expect(warnings).toEqual(['totp.key.beside-data'])
    await stop(first)
    // the next start reads the same key (nothing sealed under it is lost) and warns again
    const second = await start({ dataDir, demo: false, totpKeys: undefined, log })
    expect(readFileSync(join(dataDir, 'totp.key'), 'utf8').trim()).toBe(key)
    expect(warnings).toEqual(['totp.key.beside-data', 'totp.key.beside-data'])
    await stop(second)
    // a key given in the environment: no warning
    await stop(await start({ demo: false, totpKeys: { current: 'a'.repeat(64) }, log }))
    expect(warnings).toHaveLength(2)
    await expect(start({ demo: false, totpKeys: { current: 'not-a-key' } })).rejects.toThrow(/PARLAY_TOTP_KEY must be 64 hex characters/)
  })
})
