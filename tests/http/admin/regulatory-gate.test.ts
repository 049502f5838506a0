/**
 * Issue 29 item 6: regulatory rules complete, and waivers that compliance can live with.
 * - Dropping an identity requirement a jurisdiction document declares (Spain's DNI/NIE, Denmark's
 *   CPR and MitID, Italy's codice fiscale) and letting punters the regulator excluded deposit are
 *   refused at submit, with the rule a waiver would name; so is every ERROR of the review diff's
 *   regulatory classes.
 * - A waiver covers one rule in one jurisdiction's one document, ends at its time (the injected
 *   clock), and is granted and revoked four-eyes, every step audited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COMPLIANCE, COMPLIANCE2, OPERATOR, SPAIN_SIGNUP, readDocumentFile, signIn, startWithReviewers, type AdminClient, type TestServer } from './support'

const DAY = 86_400_000
let clock = Date.parse('2026-11-28T10:00:00Z')
let server: TestServer
let operator: AdminClient
let compliance: AdminClient
let compliance2: AdminClient
beforeAll(async () => {
  ;({ server, operator, compliance } = await startWithReviewers({ now: () => clock }))
  compliance2 = await signIn(server, COMPLIANCE2)
}, 60_000)
afterAll(async () => server?.dispose())

const SPAIN = 'jurisdictions/spain/jurisdiction.json'
const personal = (doc: Record<string, any>) => doc.steps.find((s: { id: string }) => s.id === 'personal').schema
const drop = (field: string) => (doc: Record<string, any>) => (personal(doc).required = personal(doc).required.filter((f: string) => f !== field))
const letRegulatorExcludedDeposit = (doc: Record<string, any>) => (doc.regulatory.restrictions.SELF_EXCLUSION_REGULATOR = ['bet', 'game'])

/** Drafts a change and submits it: the submit's answer, the draft withdrawn again. */
async function submit(file: string, change: (doc: Record<string, any>) => void) {
  const doc = readDocumentFile(server, file)
  change(doc)
  const id = (await operator.post('/admin/api/drafts', { file, content: JSON.stringify(doc) })).json().payload.id as number
  const answer = await operator.post(`/admin/api/versions/${id}/submit`)
  await operator.post(`/admin/api/versions/${id}/withdraw`)
  return { status: answer.status, rules: answer.status === 422 ? [...new Set((answer.json().payload as { rule: string }[]).map((f) => f.rule))].sort() : [] }
}

/** A waiver asked by the operator and approved by compliance; answers its id. */
async function grant(waiver: { jurisdiction: string; rule: string; document: string }, days = 30): Promise<number> {
  const asked = await operator.post('/admin/api/waivers', { ...waiver, reason: 'A bridge until the fix ships (ticket LEGAL-29).', expiresAt: new Date(clock + days * DAY).toISOString() })
  expect(asked.status, asked.body).toBe(201)
  const id = asked.json().payload.id as number
  expect((await compliance.post(`/admin/api/waivers/${id}/approve`)).status).toBe(200)
  return id
}
const waiver = async (id: number) => ((await compliance.get('/admin/api/waivers')).json().payload.waivers as { id: number; status: string }[]).find((w) => w.id === id)!
const audit = async () => (await compliance.get('/admin/api/audit?limit=200')).json().payload as { action: string; actor: string; details: Record<string, any> }[]

describe('regulatory rules block submission', () => {
  it("dropping Spain's DNI/NIE, Denmark's CPR, Italy's codice fiscale, or Denmark's MitID is refused (rule identity-requirements)", async () => {
    expect(await submit(SPAIN_SIGNUP, drop('documentNumber'))).toEqual({ status: 422, rules: ['regulatory/identity-requirements'] })
    expect(await submit('jurisdictions/denmark/flows/signup-email.json', drop('cpr'))).toEqual({ status: 422, rules: ['regulatory/identity-requirements'] })
    expect(await submit('jurisdictions/italy/flows/signup-email.json', drop('fiscalCode'))).toEqual({ status: 422, rules: ['regulatory/identity-requirements'] })
    expect((await submit('jurisdictions/denmark/jurisdiction.json', (d) => delete d.signup.identityProvider)).rules).toContain('regulatory/identity-requirements')
    // and the declaration itself cannot quietly go
    expect((await submit(SPAIN, (d) => delete d.identityRequirements)).rules).toEqual(['regulatory/identity-requirements'])
  })

  it("letting punters the regulator excluded deposit is refused by the rule and by the diff's regulatory ERROR", async () => {
    expect(await submit(SPAIN, letRegulatorExcludedDeposit)).toEqual({ status: 422, rules: ['regulatory/regulator-self-exclusion', 'regulatory/self-exclusion-limits'] })
  })

  it('a harmless change passes (a maxLength)', async () => {
    expect(await submit(SPAIN_SIGNUP, (d) => (personal(d).properties.firstName.maxLength = 41))).toEqual({ status: 200, rules: [] })
  })
})

describe('waivers: one rule, one jurisdiction, one document, an end, four-eyes', () => {
  it('covers exactly its rule in its jurisdiction and its document', async () => {
    await grant({ jurisdiction: 'italy', rule: 'regulator-self-exclusion', document: 'jurisdictions/italy/jurisdiction.json' })
    await grant({ jurisdiction: 'spain', rule: 'age-check', document: SPAIN })
    await grant({ jurisdiction: 'spain', rule: 'regulator-self-exclusion', document: SPAIN_SIGNUP })
    expect((await submit(SPAIN, letRegulatorExcludedDeposit)).status).toBe(422)
    const id = await grant({ jurisdiction: 'spain', rule: 'regulator-self-exclusion', document: SPAIN })
    // the rule's waiver also settles the diff's ERROR of the class the rule guards
    expect(await submit(SPAIN, letRegulatorExcludedDeposit)).toEqual({ status: 200, rules: [] })
    // and only that rule: dropping the DNI/NIE in the same document is still refused
    expect((await submit(SPAIN_SIGNUP, drop('documentNumber'))).status).toBe(422)
    await revoke(id)
  })

  it('ends at its time (injected clock)', async () => {
    const id = await grant({ jurisdiction: 'spain', rule: 'identity-requirements', document: SPAIN_SIGNUP }, 2)
    expect((await waiver(id)).status).toBe('active')
    expect((await submit(SPAIN_SIGNUP, drop('documentNumber'))).status).toBe(200)
    clock += 2 * DAY
    // admin sessions last 8 hours: everyone signs in again on the new day
    ;[operator, compliance, compliance2] = await Promise.all([signIn(server, OPERATOR), signIn(server, COMPLIANCE), signIn(server, COMPLIANCE2)])
    expect((await waiver(id)).status).toBe('expired')
    expect(await submit(SPAIN_SIGNUP, drop('documentNumber'))).toEqual({ status: 422, rules: ['regulatory/identity-requirements'] })
    expect((await operator.post(`/admin/api/waivers/${id}/revoke`, { reason: 'it has ended anyway, tidy up' })).json().errorCode).toBe('INVALID_STATE')
  })

  it('is revoked only when a second person approves the revocation; every step is audited', async () => {
    const id = await grant({ jurisdiction: 'spain', rule: 'identity-requirements', document: SPAIN_SIGNUP })
    expect((await compliance.post(`/admin/api/waivers/${id}/revoke`, { reason: 'The KYC vendor fix shipped.' })).status).toBe(200)
    expect((await waiver(id)).status).toBe('revocation-requested')
    // asked, not yet revoked: the waiver still covers its finding
    expect((await submit(SPAIN_SIGNUP, drop('documentNumber'))).status).toBe(200)
    expect((await compliance.post(`/admin/api/waivers/${id}/revocation/approve`)).json().errorCode).toBe('SELF_APPROVAL')
    expect((await operator.post(`/admin/api/waivers/${id}/revocation/approve`)).json().errorCode).toBe('FORBIDDEN_FOR_ROLE')
    expect((await compliance2.post(`/admin/api/waivers/${id}/revocation/approve`)).status).toBe(200)
    expect((await waiver(id)).status).toBe('revoked')
    expect((await submit(SPAIN_SIGNUP, drop('documentNumber'))).status).toBe(422)
    const steps = (await audit()).filter((e) => e.details.waiver === id).map((e) => `${e.action} by ${e.actor}`)
    expect(steps.reverse()).toEqual([
      'waiver.requested by operator@parlay.test',
      'waiver.approved by compliance@parlay.test',
      'waiver.revocation-requested by compliance@parlay.test',
      'waiver.revoked by compliance2@parlay.test',
    ])
  })

  it('a revocation refused by the second person leaves the waiver active', async () => {
    const id = await grant({ jurisdiction: 'spain', rule: 'terms-consent', document: SPAIN_SIGNUP })
    expect((await operator.post(`/admin/api/waivers/${id}/revoke`, { reason: 'Asked by mistake, sorry.' })).status).toBe(200)
    expect((await compliance.post(`/admin/api/waivers/${id}/revocation/reject`)).status).toBe(200)
    expect((await waiver(id)).status).toBe('active')
    await revoke(id)
  })

  it('bad requests are a clear 4xx: an end in the past or beyond the limit, a document of another jurisdiction, no document', async () => {
    const base = { jurisdiction: 'spain', rule: 'terms-consent', document: SPAIN_SIGNUP, reason: 'A bridge until the fix ships.' }
    const ask = (body: Record<string, unknown>) => operator.post('/admin/api/waivers', body)
    expect((await ask({ ...base, expiresAt: new Date(clock - DAY).toISOString() })).json().errorCode).toBe('INVALID_EXPIRY')
    expect((await ask({ ...base, expiresAt: new Date(clock + 181 * DAY).toISOString() })).json().errorCode).toBe('INVALID_EXPIRY')
    expect((await ask({ ...base, expiresAt: 'next week' })).json()).toMatchObject({ errorCode: 'ValidationError', payload: { field: 'expiresAt' } })
    expect((await ask({ ...base, document: 'jurisdictions/italy/flows/signup-email.json', expiresAt: new Date(clock + DAY).toISOString() })).json()).toMatchObject({ payload: { field: 'document', code: 'jurisdiction' } })
    const { document: _, ...noDocument } = base
    expect((await ask({ ...noDocument, expiresAt: new Date(clock + DAY).toISOString() })).status).toBe(400)
    expect((await operator.post('/admin/api/waivers/999999/revocation/approve')).status).toBe(403)
    expect((await compliance.post('/admin/api/waivers/999999/revocation/approve')).status).toBe(404)
  })
})

/** Revokes a waiver four-eyes (the operator asks, compliance approves). */
async function revoke(id: number): Promise<void> {
  expect((await operator.post(`/admin/api/waivers/${id}/revoke`, { reason: 'Done with this waiver now.' })).status).toBe(200)
  expect((await compliance.post(`/admin/api/waivers/${id}/revocation/approve`)).status).toBe(200)
}
