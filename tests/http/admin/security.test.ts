import Database from 'better-sqlite3'
import { sql } from 'kysely'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawRequest } from '../../support/server'
import { verifyAuditDatabase, verifyAuditFile } from '../../../tools/audit-verify'
import { totpCode } from '../../support/totp'
import { OPERATOR, SPAIN_SIGNUP, type AdminClient, type TestServer, startWithReviewers } from './support'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'

let server: TestServer
let operator: AdminClient
let compliance: AdminClient
const dataDir = join(mkdtempSync(join(tmpdir(), 'parlay-admin-sec-')), 'data')

beforeAll(async () => void ({ server, operator, compliance } = await startWithReviewers({ dataDir })), 60000)
afterAll(async () => server?.dispose())

const raw = (method: string, path: string, headers: Record<string, string> = {}, body?: string) => rawRequest(server.port, { method, path, headers, body })

describe('the admin is not reachable without login', () => {
  it('the page shows only the sign-in form, and the API answers 401', async () => {
    const page = await raw('GET', '/admin')
    expect(page.status).toBe(200)
    expect(page.body).toContain('login-form')
    expect(page.body).not.toContain('id="app"')
    for (const path of ['/admin/api/documents', '/admin/api/versions', '/admin/api/audit', '/admin/api/session'])
      expect((await raw('GET', path)).status).toBe(401)
    expect((await raw('POST', '/admin/api/drafts', { 'content-type': 'application/json' }, '{}')).status).toBe(401)
  })
  it('the sign-in and account pages have no inline script or style (the CSP forbids them)', async () => {
    for (const page of [await raw('GET', '/admin'), await raw('GET', '/admin/account', { cookie: operator.cookie })]) {
      expect(page.body).toContain('src="/admin/static/admin-account.js"')
      expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
      expect(page.body).not.toMatch(/<style|style=/)
      expect(String(page.headers['content-security-policy'])).toContain("script-src 'self'")
    }
  })
  it('one operator app: signed in, operators and compliance are sent from /admin to the studio; the old hand-written admin script is gone', async () => {
    for (const who of [operator, compliance]) {
      const page = await raw('GET', '/admin', { cookie: who.cookie })
      expect(page.status).toBe(303)
      expect(page.headers.location).toBe('/admin/studio')
    }
    for (const file of ['admin.js', 'admin-dom.js']) expect((await raw('GET', `/admin/static/${file}`)).status, file).toBe(404)
    expect((await raw('GET', '/admin/static/admin-account.js')).status).toBe(200)
  })
  it('a wrong password or a punter account does not sign in; the password alone opens no session; the session cookie is HttpOnly and SameSite=Strict', async () => {
    const wrong = await raw('POST', '/admin/api/login', { 'content-type': 'application/json' }, JSON.stringify({ email: OPERATOR.email, password: 'nope' }))
    expect(wrong.status).toBe(401)
    const password = await raw('POST', '/admin/api/login', { 'content-type': 'application/json' }, JSON.stringify({ email: OPERATOR.email, password: OPERATOR.password }))
    expect(password.headers['set-cookie']).toBeUndefined()
    const body = JSON.stringify({ challenge: password.json().payload.challenge, code: totpCode(OPERATOR.totpSecret, server.deps.now()) })
    const ok = await raw('POST', '/admin/api/login/second-factor', { 'content-type': 'application/json' }, body)
    const cookie = String(([] as string[]).concat(ok.headers['set-cookie'] ?? [])[0])
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Strict/)
    expect(cookie).toMatch(/Path=\/admin/)
  })
  it('a state change without the CSRF token is refused', async () => {
    const res = await raw('POST', '/admin/api/drafts', { cookie: operator.cookie, 'content-type': 'application/json' }, JSON.stringify({ file: SPAIN_SIGNUP, content: '{}' }))
    expect(res.status).toBe(403)
    expect(res.json().errorCode).toBe('CSRF_TOKEN_INVALID')
    const other = await raw('POST', '/admin/api/drafts', { cookie: operator.cookie, 'x-csrf-token': compliance.csrf, 'content-type': 'application/json' }, '{}')
    expect(other.status).toBe(403)
  })
})

describe('roles', () => {
  it('compliance cannot author drafts; operators cannot approve, reject or review waivers', async () => {
    expect((await compliance.post('/admin/api/drafts', { file: SPAIN_SIGNUP, content: '{}' })).json().errorCode).toBe('FORBIDDEN_FOR_ROLE')
    expect((await operator.post('/admin/api/versions/1/approve')).status).toBe(403)
    expect((await operator.post('/admin/api/versions/1/reject', { comment: 'no way' })).status).toBe(403)
    expect((await operator.post('/admin/api/waivers/1/approve')).status).toBe(403)
  })
})

describe('bad input never answers 500', () => {
  const cases: [string, string, unknown][] = [
    ['POST', '/admin/api/drafts', { file: '../../etc/passwd.json', content: '{}' }],
    ['POST', '/admin/api/drafts', { file: 'popups/x.json', content: 42 }],
    ['POST', '/admin/api/drafts', { file: 'popups/x.json', content: '{}', extra: true }],
    ['POST', '/admin/api/drafts', ['not', 'an', 'object']],
    ['POST', '/admin/api/versions/abc/submit', undefined],
    ['POST', '/admin/api/versions/99999999/approve', {}],
    ['POST', '/admin/api/versions/1/reject', { comment: 5 }],
    ['PUT', '/admin/api/versions/-1', { content: '{}' }],
    ['POST', '/admin/api/rollback', { file: SPAIN_SIGNUP, version: 'x' }],
    ['POST', '/admin/api/waivers', { jurisdiction: 'atlantis', rule: 'age-check', reason: 'because we can, really' }],
    ['POST', '/admin/api/waivers', { jurisdiction: 'spain', rule: 'no-such-rule', reason: 'because we can, really' }],
    ['GET', '/admin/api/versions?state=bogus', undefined],
    ['GET', '/admin/api/versions?file[]=a', undefined],
    ['GET', '/admin/api/audit?limit=abc', undefined],
    ['GET', '/admin/api/document?file=../../x', undefined],
    ['GET', '/admin/preview/x/documents/nope/x', undefined],
  ]
  it.each(cases)('%s %s', async (method, path, body) => {
    const client = method === 'POST' && path.includes('approve') ? compliance : operator
    const res = method === 'GET' ? await client.get(path) : method === 'PUT' ? await client.put(path, body) : await client.post(path, body)
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
  })
  it('malformed JSON is a 400', async () => {
    const res = await raw('POST', '/admin/api/drafts', { cookie: operator.cookie, 'x-csrf-token': operator.csrf, 'content-type': 'application/json' }, '{"file":')
    expect(res.status).toBe(400)
  })
  it('a draft with invalid JSON content is stored but refused by the gate', async () => {
    const draft = await operator.post('/admin/api/drafts', { file: SPAIN_SIGNUP, content: '{"kind": "flow",' })
    expect(draft.status).toBe(201)
    const submit = await operator.post(`/admin/api/versions/${draft.json().payload.id}/submit`)
    expect(submit.status).toBe(422)
    expect(submit.json().payload[0].message).toMatch(/invalid JSON/)
  })
})

describe('the audit log is append-only and hash-chained', () => {
  it('every action is logged and the chain verifies', async () => {
    const verify = (await compliance.get('/admin/api/audit/verify')).json().payload
    expect(verify.ok).toBe(true)
    const actions = (await compliance.get('/admin/api/audit?limit=500')).json().payload.map((e: { action: string }) => e.action)
    expect(actions).toContain('admin.login')
    expect(actions).toContain('draft.created')
    expect(actions).toContain('draft.lint-refused')
    expect(actions).toContain('document.seeded')
  })
  // through the query layer: the triggers of the engine the server runs on (SQLite's file, or PostgreSQL's in the PostgreSQL pass)
  it('UPDATE and DELETE are refused by the database', async () => {
    await expect(sql`UPDATE audit_log SET actor = 'x' WHERE seq = 1`.execute(server.deps.data.db)).rejects.toThrow(/append-only/)
    await expect(sql`DELETE FROM audit_log WHERE seq = 1`.execute(server.deps.data.db)).rejects.toThrow(/append-only/)
  })
  it('tampering around the triggers is detected and the first tampered entry is named', async () => {
    const entries = (await compliance.get('/admin/api/audit?limit=500')).json().payload as { seq: number; action: string }[]
    const target = entries.find((e) => e.action === 'draft.created')!
    if (server.databaseUrl) {
      const client = new pg.Client({ connectionString: server.databaseUrl })
      await client.connect()
      try {
        await client.query('DROP TRIGGER audit_log_append_only ON audit_log')
        await client.query("UPDATE audit_log SET actor = 'mallory@parlay.test' WHERE seq = $1", [target.seq])
      } finally {
        await client.end()
      }
    } else {
      const db = new Database(join(dataDir, 'parlay.db'))
      db.exec('DROP TRIGGER audit_log_no_update')
      db.prepare("UPDATE audit_log SET actor = 'mallory@parlay.test' WHERE seq = ?").run(target.seq)
      db.close()
    }
    const verify = (await compliance.get('/admin/api/audit/verify')).json().payload
    expect(verify).toMatchObject({ ok: false, firstBadSeq: target.seq })
    const offline = server.databaseUrl ? await verifyAuditDatabase(server.databaseUrl, dataDir) : verifyAuditFile(join(dataDir, 'parlay.db'))
    expect(offline).toMatchObject({ ok: false, firstBadSeq: target.seq })
  })
})
