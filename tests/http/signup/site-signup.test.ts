/**
 * The sign-up calls of spec §7 that answered 404 (issue 34): v2/sign-up (the site's own sign-up,
 * its first variant's rules), v2/signup/ru (Russia's begin), ru/signup/add-email, join/config,
 * POST /referer/store, and the client gate. Oracles: the variant's own path given the same body,
 * the jurisdiction documents read from disk, the punter row as stored (SQLite and PostgreSQL).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SIGNUP_VARIANTS } from '../../../kernel/documents/signup-variants'
import { DEMO_PASSWORD } from '../../support/api'
import { countryId, curacaoBody, freshIp, GATE, HARNESS_START_MS, russianPhone, startHarness, type Harness } from './helpers'
import { SITES } from '../../support/sites'

let h: Harness
beforeAll(async () => void (h = await startHarness()), HARNESS_START_MS)
afterAll(() => h.server.dispose())

const signupOf = (site: string) => JSON.parse(readFileSync(join(__dirname, '../../../schemas/jurisdictions', site, 'jurisdiction.json'), 'utf8')).signup
const profileOf = async (column: 'email' | 'phone', value: string) => {
  const row = await h.server.deps.data.db.selectFrom('punters').select(['profile', 'email']).where(column, '=', value).executeTakeFirst()
  return row && { email: row.email, profile: JSON.parse(String(row.profile)) as Record<string, unknown> }
}
const fieldCodes = (res: { body: any }) => (Array.isArray(res.body.payload) ? res.body.payload.map((e: { field: string; code: string }) => `${e.field}:${e.code}`).sort() : [])
const ruBody = (phone: string) => ({ phoneNumber: phone, password: 'long enough pass', countryId: countryId('RU'), birthDay: '1985-02-03', terms: true })
const spainBody = (email: string, documentNumber = '12345678Z') => ({ password: 'a long passphrase', firstName: 'Lucía', lastName: 'García', birthDay: '1988-03-04', terms: true, email, countryId: countryId('ES'), documentNumber })

describe("POST account/v2/sign-up is the site's first variant, with that variant's rules", () => {
  it('on every site a bad body gets exactly the field errors the first variant’s own path gives', async () => {
    for (const site of SITES) {
      const first = signupOf(site).variants[0] as string
      const body = { password: 'x', birthDay: '2020-01-01', terms: true, countryId: 'CW' }
      const own = await h.call(site, 'POST', SIGNUP_VARIANTS[first].begin[0], body)
      const generic = await h.call(site, 'POST', '/account/v2/sign-up', body)
      expect([generic.status, generic.body.errorCode], site).toEqual([own.status, own.body.errorCode])
      expect(generic.status, site).toBe(400)
      expect(fieldCodes(generic), site).toEqual(fieldCodes(own))
    }
  })

  it("Spain: the DNI checksum is checked, then the punter is made awaiting the e-mail; Russia: registration and verification tokens (Russia's rules)", async () => {
    const bad = await h.call('spain', 'POST', '/account/v2/sign-up', spainBody('ana.v2@example.es', '12345678A'))
    expect(fieldCodes(bad)).toContain('documentNumber:checksum')
    const made = await h.call('spain', 'POST', '/account/v2/sign-up', spainBody('ana.v2@example.es'))
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    expect(await profileOf('email', 'ana.v2@example.es')).toBeTruthy()
    const ru = await h.call('russia', 'POST', '/account/v2/sign-up', ruBody(russianPhone()))
    expect(ru.status, JSON.stringify(ru.body)).toBe(200)
    expect(ru.body.payload.registrationToken).toBeTruthy()
    expect(ru.body.payload.verificationToken).toBeTruthy()
  })
})

describe('POST account/v2/signup/ru is Russia’s sign-up begin', () => {
  it('answers as v2/ru/signup/begin: tokens on Russia, the same age refusal, FORBIDDEN on a site without the ru variant; completes through ru/signup/complete', async () => {
    const young = { ...ruBody(russianPhone()), birthDay: new Date(h.clock.now - 17 * 365.25 * 86_400_000).toISOString().slice(0, 10) }
    const a = await h.call('russia', 'POST', '/account/v2/signup/ru', young)
    const b = await h.call('russia', 'POST', '/account/v2/ru/signup/begin', young)
    expect([a.status, a.body.errorCode, fieldCodes(a)]).toEqual([b.status, b.body.errorCode, fieldCodes(b)])
    expect(a.status).toBe(400)
    for (const site of SITES.filter((s) => !signupOf(s).variants.includes('ru'))) {
      const other = await h.call(site, 'POST', '/account/v2/signup/ru', ruBody(russianPhone()))
      expect([other.status, other.body.errorCode], site).toEqual([403, 'FORBIDDEN'])
    }
    const phone = russianPhone()
    const begin = await h.call('russia', 'POST', '/account/v2/signup/ru', ruBody(phone))
    expect(begin.status, JSON.stringify(begin.body)).toBe(200)
    const { registrationToken, verificationToken } = begin.body.payload
    const code = await h.lastCode(phone)
    const done = await h.call('russia', 'POST', '/account/ru/signup/complete', { registrationToken, verificationToken, verificationCode: code })
    expect(done.status, JSON.stringify(done.body)).toBe(200)
    expect(done.body.payload.identityState).toBe('none')
  })
})

describe('POST account/ru/signup/add-email', () => {
  it('the e-mail added to an open Russian registration is the e-mail the punter is created with', async () => {
    const phone = russianPhone()
    const begin = await h.call('russia', 'POST', '/account/v2/ru/signup/begin', ruBody(phone))
    const { registrationToken, verificationToken } = begin.body.payload
    const added = await h.call('russia', 'POST', '/account/ru/signup/add-email', { registrationToken, email: 'Ivan.Add@Example.ru' })
    expect([added.status, added.body.payload]).toEqual([200, { status: 'EMAIL_ADDED' }])
    const code = await h.lastCode(phone)
    expect((await h.call('russia', 'POST', '/account/ru/signup/complete', { registrationToken, verificationToken, verificationCode: code })).status).toBe(200)
    expect((await profileOf('phone', phone))?.email).toBe('ivan.add@example.ru')
    const late = await h.call('russia', 'POST', '/account/ru/signup/add-email', { registrationToken, email: 'other@example.ru' })
    expect([late.status, late.body.errorCode]).toEqual([400, 'UNKNOWN_HASH'])
    expect((await profileOf('phone', phone))?.email).toBe('ivan.add@example.ru')
  })

  it("bad input is a 400 in the envelope and changes nothing: unknown token, another site's header, a malformed e-mail, an extra field", async () => {
    const phone = russianPhone()
    const { registrationToken } = (await h.call('russia', 'POST', '/account/v2/ru/signup/begin', ruBody(phone))).body.payload
    const unknown = await h.call('russia', 'POST', '/account/ru/signup/add-email', { registrationToken: 'z'.repeat(43), email: 'a@b.ru' })
    expect([unknown.status, unknown.body.status, unknown.body.errorCode]).toEqual([400, 'ERROR', 'UNKNOWN_HASH'])
    const elsewhere = await h.call('curacao', 'POST', '/account/ru/signup/add-email', { registrationToken, email: 'a@b.ru' })
    expect([elsewhere.status, elsewhere.body.errorCode]).toEqual([400, 'UNKNOWN_HASH'])
    const malformed = await h.call('russia', 'POST', '/account/ru/signup/add-email', { registrationToken, email: 'not an e-mail' })
    expect([malformed.status, malformed.body.errorCode, fieldCodes(malformed)]).toEqual([400, 'ValidationError', ['email:pattern']])
    const extra = await h.call('russia', 'POST', '/account/ru/signup/add-email', { registrationToken, email: 'a@b.ru', admin: true })
    expect([extra.status, extra.body.errorCode]).toEqual([400, 'ValidationError'])
    const state = await h.call('russia', 'POST', '/account/ru/signup/continue', { registrationToken })
    expect(state.body.payload.status).toBe('PENDING')
  })
})

describe('account/join/config', () => {
  it("is the site's sign-up block as its document says (variants, flows, methods, default country), never its promo codes", async () => {
    for (const site of SITES) {
      const signup = signupOf(site)
      for (const method of ['GET', 'POST'] as const) {
        const res = await h.call(site, method, '/account/join/config', method === 'POST' ? {} : undefined)
        expect(res.status, `${site} ${method}`).toBe(200)
        const config = res.body.payload
        expect(config.jurisdiction).toBe(site)
        expect(config.methods).toEqual(signup.methods)
        expect(config.defaultCountry).toBe(signup.defaultCountry)
        expect(config.variants.map((v: { name: string; flow: string; begin: string }) => [v.name, v.flow, v.begin])).toEqual(
          signup.variants.map((name: string) => [name, signup.flows[name], SIGNUP_VARIANTS[name].begin[0]]),
        )
        expect(JSON.stringify(config)).not.toContain('promoCodes')
      }
    }
    const extra = await h.call('spain', 'POST', '/account/join/config', { variant: 'ru' })
    expect([extra.status, extra.body.status, extra.body.errorCode]).toEqual([400, 'ERROR', 'ValidationError'])
  })
})

describe("account/join/config behind a session is the punter's own site's", () => {
  it("a Spanish punter's join config is Spain's under every other site's header", async () => {
    const login = await h.call('spain', 'POST', '/auth/v2/login', { login: 'spain@demo.parlay.test', password: DEMO_PASSWORD })
    expect(login.status, JSON.stringify(login.body)).toBe(200)
    const auth = { 'punter-session-hash': login.body.payload.punterHash as string }
    for (const site of SITES.filter((s) => s !== 'spain')) {
      const res = await h.call(site, 'GET', '/account/join/config', undefined, auth)
      expect([res.body.payload.jurisdiction, res.body.payload.variants.map((v: { name: string }) => v.name)], site).toEqual(['spain', signupOf('spain').variants])
    }
  })
})

describe('POST /referer/store', () => {
  async function store(refererId: unknown, extra: Record<string, unknown> = {}) {
    const res = await fetch(`${h.server.url}${GATE}/referer/store`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-parlay-target': 'spain', 'x-forwarded-for': freshIp() }, body: JSON.stringify({ refererId, ...extra }) })
    return { status: res.status, body: (await res.json()) as any, cookie: res.headers.get('set-cookie') }
  }

  it('answers the same whatever the id names, keeps it in an HttpOnly cookie, and the next sign-up stores it on the punter; a body refererId wins', async () => {
    const a = await store('partner-42')
    const b = await store('nobody_at_all')
    expect([a.status, a.body]).toEqual([200, { status: 'OK', payload: { stored: true } }])
    expect(b.body).toEqual(a.body)
    expect(a.cookie).toMatch(/^parlay_referer=partner-42; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000/)
    const cookie = a.cookie!.split(';')[0]
    const made = await h.call('spain', 'POST', '/account/spain/signup', spainBody('ref.cookie@example.es'), { cookie })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    expect((await profileOf('email', 'ref.cookie@example.es'))?.profile.refererId).toBe('partner-42')
    const phone = curacaoBody({ refererId: 'from-body' })
    const begin = await h.call('curacao', 'POST', '/account/v3/signup/phone/begin', phone, { cookie })
    const code = await h.lastCode(phone.phoneNumber as string)
    expect((await h.call('curacao', 'POST', '/account/v3/signup/phone/complete', { verificationToken: begin.body.payload.verificationToken, verificationCode: code })).status).toBe(200)
    expect((await profileOf('phone', phone.phoneNumber as string))?.profile.refererId).toBe('from-body')
  })

  it('refuses a malformed id, a missing one and an extra field with a 400 envelope and sets no cookie', async () => {
    for (const [refererId, extra] of [['has space', {}], ['x'.repeat(65), {}], [42, {}], [undefined, {}], ['ok-id', { punterId: 1 }]] as const) {
      const res = await store(refererId, extra)
      expect([res.status, res.body.status, res.body.errorCode], String(refererId)).toEqual([400, 'ERROR', 'ValidationError'])
      expect(res.cookie).toBeNull()
    }
  })
})

describe('the client gate serves the mobile gate’s calls', () => {
  it('/client-gate/api/v1/… answers as /mobile-gate/api/v1/…; an unknown path under it is a 404 envelope', async () => {
    const get = async (path: string) => {
      const res = await fetch(h.server.url + path, { headers: { 'x-parlay-target': 'italy', 'accept-language': 'it' } })
      return { status: res.status, body: (await res.json()) as any }
    }
    for (const path of ['dictionary/genders', 'dictionary/titles', 'account/join/config', 'products/all']) {
      const client = await get(`/client-gate/api/v1/${path}`)
      expect(client.status, path).toBe(200)
      expect(client.body, path).toEqual((await get(`${GATE}/${path}`)).body)
    }
    const missing = await get('/client-gate/api/v1/no/such/call')
    expect([missing.status, missing.body.status, missing.body.errorCode]).toEqual([404, 'ERROR', 'NOT_FOUND'])
    const outside = await get('/client-gate/other')
    expect([outside.status, outside.body.status]).toEqual([404, 'ERROR'])
  })
})
