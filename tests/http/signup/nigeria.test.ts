/**
 * Nigeria's regional variant (spec §1, issue 34): its own site, chosen by nigeria.localhost or its
 * target header, signs up Nigerian residents by a Nigerian mobile number (+234, then 10 digits
 * starting 70, 80, 81, 90 or 91), in naira only. Oracles: the Nigeria documents read from disk
 * (country, currency, the phone pattern of its own flow), the punter row as stored, and the same
 * body answered by another site (Curaçao takes a non-Nigerian number: the rule is Nigeria's).
 * That a Nigerian punter's money and limit rules stay Nigeria's under every other site's Host and
 * header is tests/http/regulation/own-jurisdiction.test.ts, which goes through every declared site.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_PASSWORD } from '../../support/api'
import { rawRequest, SCHEMAS_DIR } from '../../support/server'
import { countryId, curacaoBody, HARNESS_START_MS, startHarness, type Harness } from './helpers'

let h: Harness
beforeAll(async () => void (h = await startHarness()), HARNESS_START_MS)
afterAll(() => h.server.dispose())

const doc = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'jurisdictions', 'nigeria', 'jurisdiction.json'), 'utf8'))
const flow = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'jurisdictions', 'nigeria', 'flows', 'signup-phone.json'), 'utf8'))
const phonePattern = new RegExp(flow.steps.find((s: { id: string }) => s.id === 'account').schema.properties.phoneNumber.pattern)
const BEGIN = '/account/v3/signup/phone/begin'
const COMPLETE = '/account/v3/signup/phone/complete'

let serial = 0
/** A fresh Nigerian mobile number on one of the networks' prefixes. */
const nigerianPhone = (prefix = '803') => `+234${prefix}${String((Date.now() * 7 + ++serial * 7919) % 10_000_000).padStart(7, '0')}`
const nigeriaBody = (overrides: Record<string, unknown> = {}) => curacaoBody({ phoneNumber: nigerianPhone(), countryId: countryId(doc.country), currencyId: 7, ...overrides })
const fields = (res: { body: any }) => (Array.isArray(res.body.payload) ? res.body.payload.map((e: { field: string }) => e.field) : [])

describe('Nigeria is its own site', () => {
  it('nigeria.localhost and the nigeria target header both name it, with its currency, locales and country', async () => {
    const variants: Record<string, string>[] = [{ host: `${doc.hosts[0]}:${h.server.port}` }, { host: `localhost:${h.server.port}`, 'x-parlay-target': 'nigeria' }]
    for (const headers of variants) {
      const site = (await rawRequest(h.server.port, { path: '/api/site', headers })).json().site
      expect(site).toMatchObject({ jurisdiction: 'nigeria', currency: doc.currency, defaultLocale: doc.defaultLocale, locales: doc.locales })
    }
  })
})

describe("Nigeria's sign-up takes a Nigerian mobile number, Nigerian residence and naira", () => {
  it('a Nigerian mobile signs up through the code: the punter is stored as Nigerian, in naira, and logs in', async () => {
    const body = nigeriaBody()
    expect(body.phoneNumber).toMatch(phonePattern)
    const begin = await h.call('nigeria', 'POST', BEGIN, body)
    expect(begin.status, JSON.stringify(begin.body)).toBe(200)
    const done = await h.call('nigeria', 'POST', COMPLETE, { verificationToken: begin.body.payload.verificationToken, verificationCode: await h.lastCode(body.phoneNumber as string) })
    expect(done.status, JSON.stringify(done.body)).toBe(200)
    const row = await h.server.deps.data.db.selectFrom('punters').select(['jurisdiction', 'currency']).where('phone', '=', body.phoneNumber as string).executeTakeFirstOrThrow()
    expect(row).toEqual({ jurisdiction: 'nigeria', currency: doc.currency })
    const login = await h.call('nigeria', 'POST', '/auth/v2/login/phone-number', { phoneNumber: body.phoneNumber, password: body.password })
    expect(login.status, JSON.stringify(login.body)).toBe(200)
  })

  it.each([
    ['a British mobile', '+447911123456'],
    ['a Lagos landline', '+23412345678'],
    ['a Nigerian number on no mobile prefix', '+2346012345678'],
    ['a Nigerian mobile one digit short', '+234803123456'],
  ])('%s is refused on the phone field, and nothing is sent or stored', async (_name, phoneNumber) => {
    expect(phoneNumber).not.toMatch(phonePattern)
    const res = await h.call('nigeria', 'POST', BEGIN, nigeriaBody({ phoneNumber }))
    expect(res.status, JSON.stringify(res.body)).toBe(400)
    expect(fields(res)).toContain('phoneNumber')
    expect(await h.lastMessage(phoneNumber)).toBeUndefined()
    expect(await h.server.deps.data.db.selectFrom('punters').select('id').where('phone', '=', phoneNumber).executeTakeFirst()).toBeUndefined()
  })

  it('the rule is Nigeria’s: Curaçao takes the same British mobile', async () => {
    const res = await h.call('curacao', 'POST', BEGIN, curacaoBody({ phoneNumber: '+447911123457', countryId: countryId('CW') }))
    expect(res.status, JSON.stringify(res.body)).toBe(200)
  })

  it('another country of residence or another currency is refused on its field', async () => {
    const abroad = await h.call('nigeria', 'POST', BEGIN, nigeriaBody({ countryId: countryId('GB') }))
    expect([abroad.status, fields(abroad)]).toEqual([400, ['countryId']])
    const dollars = await h.call('nigeria', 'POST', BEGIN, nigeriaBody({ currencyId: 1 }))
    expect([dollars.status, fields(dollars)]).toEqual([400, ['currencyId']])
  })

  it('the Nigerian demo punter logs in by the national number without the dial code (the site country is NG)', async () => {
    const login = await h.call('nigeria', 'POST', '/auth/v2/login/phone-number', { phoneNumber: '8031000001', password: DEMO_PASSWORD })
    expect(login.status, JSON.stringify(login.body)).toBe(200)
  })
})
