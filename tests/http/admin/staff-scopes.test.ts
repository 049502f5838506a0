/**
 * Staff scopes set from the studio (issue 29 item 7): compliance lists the staff accounts and sets
 * each one's jurisdictions through the admin API, with the CLI's rules; the scope then governs what
 * the account may change (the oracle: a draft of Italy's sign-up refused with OUT_OF_SCOPE, one of
 * Spain's accepted). An account limited to jurisdictions cannot widen its own scope nor hand out
 * more than it has; each change and each refusal is one audit entry; bad input is a 4xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COMPLIANCE2, SPAIN_SIGNUP, editedText, signIn, startWithReviewers, type AdminClient, type TestServer } from './support'
import { SITES } from '../../support/sites'

let server: TestServer
let operator: AdminClient
let compliance: AdminClient
let compliance2: AdminClient
beforeAll(async () => {
  ;({ server, operator, compliance } = await startWithReviewers())
  compliance2 = await signIn(server, COMPLIANCE2)
}, 60_000)
afterAll(async () => server?.dispose())

const ITALY_SIGNUP = 'jurisdictions/italy/flows/signup-email.json'
type Staff = { id: number; email: string; role: string; disabled: boolean; jurisdictions: string[] | null }
type Entry = { action: string; actor: string; subject: string; details: Record<string, any> }
const staff = async () => (await compliance.get('/admin/api/staff')).json().payload.staff as Staff[]
const idOf = async (email: string) => (await staff()).find((s) => s.email === email)!.id
const scopeOf = async (email: string) => (await staff()).find((s) => s.email === email)!.jurisdictions
const audit = async () => (await compliance.get('/admin/api/audit?limit=200')).json().payload as Entry[]
const draft = (file: string) => operator.post('/admin/api/drafts', { file, content: editedText(server, file, (d) => (d.steps[1].schema.properties.firstName.maxLength = 37)) })

describe('staff scopes set in the studio', () => {
  it('compliance lists the staff (no secrets) and limits the operator to Spain: Italy is then refused, Spain accepted; the change is audited', async () => {
    const listed = (await compliance.get('/admin/api/staff')).json().payload as { staff: Staff[]; jurisdictions: string[] }
    // every declared site, by name (tests/support/sites.ts reads the same list the documents declare)
    expect(listed.jurisdictions).toEqual([...SITES].sort())
    expect(listed.staff.map((s) => s.email)).toEqual(expect.arrayContaining(['operator@parlay.test', 'compliance@parlay.test', 'support@parlay.test']))
    expect(JSON.stringify(listed)).not.toMatch(/password|totp|secret|hash/i)

    const set = await compliance.put(`/admin/api/staff/${await idOf('operator@parlay.test')}/scope`, { jurisdictions: ['spain', 'spain'] })
    expect(set.status, set.body).toBe(200)
    expect(set.json().payload).toMatchObject({ email: 'operator@parlay.test', jurisdictions: ['spain'] })
    try {
      expect((await draft(ITALY_SIGNUP)).json().errorCode).toBe('OUT_OF_SCOPE')
      const spain = await draft(SPAIN_SIGNUP)
      expect(spain.status, spain.body).toBe(201)
      await operator.post(`/admin/api/versions/${spain.json().payload.id}/withdraw`)
      expect((await audit()).find((e) => e.action === 'admin.scope-changed' && e.details.email === 'operator@parlay.test')).toMatchObject({ actor: 'compliance@parlay.test', details: { jurisdictions: ['spain'], before: null, via: 'studio' } })
    } finally {
      expect((await compliance.put(`/admin/api/staff/${await idOf('operator@parlay.test')}/scope`, { jurisdictions: null })).status).toBe(200)
    }
    expect(await scopeOf('operator@parlay.test')).toBeNull()
    expect((await draft(ITALY_SIGNUP)).status).toBe(201)
  })

  it('an account limited to Spain cannot widen its own scope nor hand out Italy or no limit to a colleague (403 SCOPE_CHANGE_REFUSED, audited, nothing changes)', async () => {
    const me = await idOf('compliance2@parlay.test')
    const colleague = await idOf('operator@parlay.test')
    expect((await compliance.put(`/admin/api/staff/${me}/scope`, { jurisdictions: ['spain'] })).status).toBe(200)
    try {
      for (const [id, jurisdictions, reason] of [
        [me, ['italy', 'spain'], /own scope/],
        [me, null, /own scope/],
        [colleague, ['italy'], /limited to spain/],
        [colleague, null, /limited to spain/],
      ] as const) {
        const refused = await compliance2.put(`/admin/api/staff/${id}/scope`, { jurisdictions })
        expect(refused.status).toBe(403)
        expect(refused.json()).toMatchObject({ status: 'ERROR', errorCode: 'SCOPE_CHANGE_REFUSED', payload: { reason: expect.stringMatching(reason) } })
      }
      expect(await scopeOf('compliance2@parlay.test')).toEqual(['spain'])
      expect(await scopeOf('operator@parlay.test')).toBeNull()
      const refusals = (await audit()).filter((e) => e.action === 'admin.scope-change-refused' && e.actor === 'compliance2@parlay.test')
      expect(refusals).toHaveLength(4)
      expect(refusals.map((e) => e.details.email).sort()).toEqual(['compliance2@parlay.test', 'compliance2@parlay.test', 'operator@parlay.test', 'operator@parlay.test'])
      // within its own scope it may narrow a colleague
      expect((await compliance2.put(`/admin/api/staff/${colleague}/scope`, { jurisdictions: ['spain'] })).json().payload.jurisdictions).toEqual(['spain'])
    } finally {
      await compliance.put(`/admin/api/staff/${me}/scope`, { jurisdictions: null })
      await compliance.put(`/admin/api/staff/${colleague}/scope`, { jurisdictions: null })
    }
  })

  it('bad input is a 4xx and stores nothing: an unknown jurisdiction, a malformed id or body, an unknown account, the operator role', async () => {
    const id = await idOf('operator@parlay.test')
    const cases: [Promise<{ status: number; json(): any }>, number, string][] = [
      [compliance.put(`/admin/api/staff/${id}/scope`, { jurisdictions: ['atlantis'] }), 400, 'UNKNOWN_JURISDICTION'],
      [compliance.put(`/admin/api/staff/${id}/scope`, { jurisdictions: ['Spain!'] }), 400, 'ValidationError'],
      [compliance.put(`/admin/api/staff/${id}/scope`, { jurisdictions: ['spain'], role: 'compliance' }), 400, 'ValidationError'],
      [compliance.put('/admin/api/staff/99999/scope', { jurisdictions: ['spain'] }), 404, 'NOT_FOUND'],
      [compliance.put('/admin/api/staff/abc/scope', { jurisdictions: ['spain'] }), 404, 'NOT_FOUND'],
      [operator.put(`/admin/api/staff/${id}/scope`, { jurisdictions: null }), 403, 'FORBIDDEN_FOR_ROLE'],
      [operator.get('/admin/api/staff'), 403, 'FORBIDDEN_FOR_ROLE'],
    ]
    for (const [pending, status, code] of cases) {
      const res = await pending
      expect(res.status).toBe(status)
      expect(res.json()).toMatchObject({ status: 'ERROR', errorCode: code })
    }
    expect(await scopeOf('operator@parlay.test')).toBeNull()
  })
})
