/**
 * Issue 34 item 3: the contact form stores the message. The punter gets a reference; support and
 * compliance read the stored messages in /admin (each read audited), an operator may not (403).
 * Bad input is a 400 envelope with nothing stored; the punter is the session's, never a body's;
 * one address past INGEST.CONTACT's messages in its window gets 429 with Retry-After, and the
 * next window takes it again (injected clock). Runs on SQLite, and on PostgreSQL in its pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_ADMINS } from '../../../server/admin/accounts'
import { REFERENCE_PATTERN } from '../../../server/contact/store'
import { addresses, apiCaller, DEMO_PASSWORD, type Call } from '../../support/api'
import { startTestServer, type TestServer } from '../../support/server'
import { COMPLIANCE, OPERATOR, signIn, type AdminClient } from '../admin/support'

const SUPPORT = DEMO_ADMINS.find((a) => a.role === 'support')!
const start = Date.UTC(2026, 5, 1, 12, 0)

const form = (overrides: Record<string, unknown> = {}) => ({
  name: 'Ana Lopez',
  email: 'ana@example.com',
  topic: 'payments',
  message: 'Where is my withdrawal of last Friday?',
  consent: true,
  ...overrides,
})

let server: TestServer
let call: Call
const clock = { now: start }
let support: AdminClient
let compliance: AdminClient
let operator: AdminClient

beforeAll(async () => {
  server = await startTestServer({ now: () => clock.now })
  call = apiCaller(server.url, addresses(91))
  support = await signIn(server, SUPPORT)
  compliance = await signIn(server, COMPLIANCE)
  operator = await signIn(server, OPERATOR)
}, 90_000)
afterAll(() => server?.dispose())

const rows = () => server.deps.data.db.selectFrom('contact_messages').selectAll().orderBy('id').execute()
const punterId = async (email: string) => Number((await server.deps.data.db.selectFrom('punters').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id)
const loginHash = async (login: string) => (await call('POST', 'auth/v2/login', { body: { login, password: DEMO_PASSWORD } })).json.payload.punterHash as string
const auditOf = (action: string) => server.deps.data.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('seq').execute()

describe('storing a contact message', () => {
  it('a guest\'s message is stored as sent, with its site and locale, and the answer carries the stored reference', async () => {
    const res = await call('POST', '/api/demo/contact', { body: form(), site: 'spain', headers: { 'accept-language': 'es' } })
    expect(res.status).toBe(200)
    const reference = res.json.payload.reference as string
    expect(reference).toMatch(REFERENCE_PATTERN)
    const stored = (await rows()).find((r) => r.reference === reference)
    expect(stored).toMatchObject({ punter_id: null, jurisdiction: 'spain', locale: 'es', name: 'Ana Lopez', email: 'ana@example.com', topic: 'payments', message: 'Where is my withdrawal of last Friday?' })
    expect(Number(stored!.created_at)).toBe(start)
  })

  it('two messages get two different references', async () => {
    const [a, b] = [await call('POST', '/api/demo/contact', { body: form() }), await call('POST', '/api/demo/contact', { body: form() })]
    expect(a.json.payload.reference).not.toBe(b.json.payload.reference)
  })

  it('a logged-in punter\'s message is the session\'s punter\'s, in the punter\'s own jurisdiction whatever site the request names', async () => {
    const hash = await loginHash('opened@demo.parlay.test')
    const own = await punterId('opened@demo.parlay.test')
    const res = await call('POST', '/api/demo/contact', { body: form({ message: 'A question from a logged-in punter.' }), hash, site: 'italy' })
    expect(res.status).toBe(200)
    const stored = (await rows()).find((r) => r.reference === res.json.payload.reference)!
    expect(Number(stored.punter_id)).toBe(own)
    const punter = await server.deps.data.db.selectFrom('punters').select('jurisdiction').where('id', '=', own).executeTakeFirstOrThrow()
    expect(stored.jurisdiction).toBe(punter.jurisdiction)
    expect(punter.jurisdiction).not.toBe('italy')
  })

  it('a body naming a punter is refused (400 unknownField) and nothing is stored: a message is never attributed to a punter the body names', async () => {
    const before = (await rows()).length
    const victim = await punterId('vip@demo.parlay.test')
    for (const field of ['punterId', 'punter_id', 'userId']) {
      const res = await call('POST', '/api/demo/contact', { body: form({ [field]: victim }) })
      expect(res.status).toBe(400)
      expect(res.json).toMatchObject({ status: 'ERROR', errorCode: 'ValidationError', payload: [{ field, code: 'unknownField' }] })
    }
    expect((await rows()).length).toBe(before)
  })
})

describe('bad input: a 400 envelope, nothing stored', () => {
  const cases: Array<[string, Record<string, unknown>, { field: string; code: string }]> = [
    ['no message', { message: undefined }, { field: 'message', code: 'required' }],
    ['a message too short', { message: 'short' }, { field: 'message', code: 'minLength' }],
    ['a message over 2000 characters', { message: 'x'.repeat(2001) }, { field: 'message', code: 'maxLength' }],
    ['an unknown topic', { topic: 'complaints' }, { field: 'topic', code: 'enum' }],
    ['no consent', { consent: false }, { field: 'consent', code: 'const' }],
    ['a name of one letter', { name: 'A' }, { field: 'name', code: 'minLength' }],
    ['a name as a number', { name: 42 }, { field: 'name', code: 'type' }],
    ['an e-mail that is none (the flow\'s rule)', { email: 'not-an-address' }, { field: 'email', code: 'format' }],
  ]
  for (const [what, change, error] of cases)
    it(`${what}: 400 ValidationError naming ${error.field} (${error.code})`, async () => {
      const before = (await rows()).length
      const res = await call('POST', '/api/demo/contact', { body: form(change) })
      expect(res.status).toBe(400)
      expect(res.json.status).toBe('ERROR')
      expect(res.json.errorCode).toBe('ValidationError')
      expect(res.json.payload).toEqual(expect.arrayContaining([expect.objectContaining(error)]))
      expect((await rows()).length).toBe(before)
    })

  it('no JSON (415), broken JSON (400), an array (400), a body over 16 KB (413): each an envelope, nothing stored', async () => {
    const before = (await rows()).length
    const answers = [
      await call('POST', '/api/demo/contact', { raw: 'name=Ana', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      await call('POST', '/api/demo/contact', { raw: '{"name":', headers: { 'content-type': 'application/json' } }),
      await call('POST', '/api/demo/contact', { body: [form()] }),
      await call('POST', '/api/demo/contact', { body: form({ message: 'é'.repeat(9000) }) }),
    ]
    expect(answers.map((a) => a.status)).toEqual([415, 400, 400, 413])
    for (const a of answers) expect(a.json.status).toBe('ERROR')
    expect((await rows()).length).toBe(before)
  })
})

describe('throttling (INGEST.CONTACT: 5 messages per address in 10 minutes)', () => {
  it('the sixth message of one address in the window is 429 with Retry-After to the window\'s end, not stored; another address is not held; the next window takes it', async () => {
    const ip = '10.91.250.1'
    clock.now = start + 3_600_000
    for (let i = 0; i < 5; i++) expect((await call('POST', '/api/demo/contact', { body: form(), ip })).status).toBe(200)
    const before = (await rows()).length
    const refused = await call('POST', '/api/demo/contact', { body: form(), ip })
    expect(refused.status).toBe(429)
    expect(refused.json).toMatchObject({ status: 'ERROR', errorCode: 'TOO_MANY_REQUESTS', payload: { quota: 'client' } })
    expect(Number(refused.headers.get('retry-after'))).toBe(600)
    // bad bodies count too: a flood of them is throttled like good ones
    expect((await call('POST', '/api/demo/contact', { body: { junk: true }, ip })).status).toBe(429)
    expect((await rows()).length).toBe(before)
    expect((await call('POST', '/api/demo/contact', { body: form(), ip: '10.91.250.2' })).status).toBe(200)
    clock.now += 600_000
    expect((await call('POST', '/api/demo/contact', { body: form(), ip })).status).toBe(200)
  })
})

describe('the operator app: who reads the messages', () => {
  it('support reads the stored messages newest first with their references, and the read is audited (who, which references; never the text)', async () => {
    const sent = await call('POST', '/api/demo/contact', { body: form({ message: 'The message support must find.' }) })
    const reference = sent.json.payload.reference as string
    const res = await support.get('/admin/api/contact-messages')
    expect(res.status).toBe(200)
    const messages = res.json().payload.messages as Array<{ reference: string; message: string; punterId: number | null }>
    expect(messages[0]).toMatchObject({ reference, message: 'The message support must find.', punterId: null })
    expect(messages.map((m) => m.reference).sort()).toEqual((await rows()).map((r) => r.reference).sort())
    const audits = await auditOf('admin.contact-messages-read')
    const last = audits[audits.length - 1]
    expect(last.actor).toBe(SUPPORT.email)
    expect(String(last.details)).toContain(reference)
    expect(String(last.details)).not.toContain('The message support must find.')
  })

  it('compliance reads them too (audited under its own name)', async () => {
    const res = await compliance.get('/admin/api/contact-messages?limit=1')
    expect(res.status).toBe(200)
    expect(res.json().payload.messages).toHaveLength(1)
    const audits = await auditOf('admin.contact-messages-read')
    expect(audits[audits.length - 1].actor).toBe(COMPLIANCE.email)
  })

  it('an operator may not: 403 FORBIDDEN_FOR_ROLE, and no read is audited', async () => {
    const before = (await auditOf('admin.contact-messages-read')).length
    const res = await operator.get('/admin/api/contact-messages')
    expect(res.status).toBe(403)
    expect(res.json()).toMatchObject({ status: 'ERROR', errorCode: 'FORBIDDEN_FOR_ROLE' })
    expect((await auditOf('admin.contact-messages-read')).length).toBe(before)
  })

  it('without an admin session: 401; a bad limit: 400', async () => {
    expect((await call('GET', '/admin/api/contact-messages')).status).toBe(401)
    expect((await support.get('/admin/api/contact-messages?limit=0')).status).toBe(400)
  })
})
