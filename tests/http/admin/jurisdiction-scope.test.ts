/**
 * Roles scoped to jurisdictions (issue 29 item 7): an account limited to Spain drafts, approves
 * and rolls back Spain's documents only; another jurisdiction's document and a shared one are
 * refused with 403 OUT_OF_SCOPE, each refusal one audit entry. The scope is set as
 * `npm run admin -- scope` sets it (server/admin/staff.ts setStaffScope); the oracle is the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminByEmail, setStaffScope } from '../../../server/admin/staff'
import { SPAIN_SIGNUP, draftAndSubmit, editedText, startWithReviewers, type AdminClient, type TestServer } from './support'

let server: TestServer
let operator: AdminClient
let compliance: AdminClient
beforeAll(async () => void ({ server, operator, compliance } = await startWithReviewers()), 60_000)
afterAll(async () => server?.dispose())

const ITALY_SIGNUP = 'jurisdictions/italy/flows/signup-email.json'
const SHARED = 'bases/flows/signup-email.json'
type Entry = { action: string; actor: string; subject: string; details: Record<string, any> }
const scopeRefusals = async (actor: string) => ((await compliance.get('/admin/api/audit?limit=200')).json().payload as Entry[]).filter((e) => e.action === 'admin.scope-refused' && e.actor === actor)
const limit = async (email: string, jurisdictions: string[] | null) => setStaffScope(server.deps.data, (await adminByEmail(server.deps.data, email))!.id, jurisdictions)
const maxLength = (n: number) => (d: Record<string, any>) => (d.steps[1].schema.properties.firstName.maxLength = n)

describe('roles scoped to jurisdictions', () => {
  it("an operator limited to Spain drafts Spain's documents, not Italy's nor shared ones (403 OUT_OF_SCOPE, audited)", async () => {
    await limit('operator@parlay.test', ['spain'])
    try {
      const spain = await operator.post('/admin/api/drafts', { file: SPAIN_SIGNUP, content: editedText(server, SPAIN_SIGNUP, maxLength(39)) })
      expect(spain.status).toBe(201)
      await operator.post(`/admin/api/versions/${spain.json().payload.id}/withdraw`)
      for (const file of [ITALY_SIGNUP, SHARED]) {
        const refused = await operator.post('/admin/api/drafts', { file, content: editedText(server, file, maxLength(39)) })
        expect(refused.status, file).toBe(403)
        expect(refused.json()).toMatchObject({ status: 'ERROR', errorCode: 'OUT_OF_SCOPE' })
      }
      const audited = await scopeRefusals('operator@parlay.test')
      expect(audited.map((e) => e.subject).sort()).toEqual([SHARED, ITALY_SIGNUP].sort())
      expect(audited.find((e) => e.subject === ITALY_SIGNUP)!.details).toMatchObject({ route: 'POST /admin/api/drafts', jurisdictions: ['spain'], reason: expect.stringContaining('not italy') })
      expect(audited.find((e) => e.subject === SHARED)!.details.reason).toContain('shared document')
    } finally {
      await limit('operator@parlay.test', null)
    }
  })

  it("compliance limited to Spain cannot approve, publish or roll back Italy's sign-up; unscoped again, it can approve it", async () => {
    const id = await draftAndSubmit(operator, ITALY_SIGNUP, maxLength(38), server)
    await limit('compliance@parlay.test', ['spain'])
    try {
      expect((await compliance.post(`/admin/api/versions/${id}/approve`, { comment: 'ok' })).json().errorCode).toBe('OUT_OF_SCOPE')
      expect((await compliance.post(`/admin/api/versions/${id}/publish`)).json().errorCode).toBe('OUT_OF_SCOPE')
      const history = (await operator.get(`/admin/api/document?file=${encodeURIComponent(ITALY_SIGNUP)}`)).json().payload.history as { id: number; origin: string }[]
      const rollback = await compliance.post('/admin/api/rollback', { file: ITALY_SIGNUP, version: history.find((v) => v.origin === 'seed')!.id, emergency: true, reason: 'out of my jurisdiction' })
      expect(rollback.status).toBe(403)
      expect((await operator.get(`/admin/api/versions/${id}`)).json().payload.state).toBe('in_review')
      const audited = await scopeRefusals('compliance@parlay.test')
      expect(audited.map((e) => e.details.route)).toEqual(expect.arrayContaining([`POST /admin/api/versions/${id}/approve`, `POST /admin/api/versions/${id}/publish`, 'POST /admin/api/rollback']))
      expect(audited.every((e) => e.subject === ITALY_SIGNUP)).toBe(true)
    } finally {
      await limit('compliance@parlay.test', null)
    }
    expect((await compliance.post(`/admin/api/versions/${id}/approve`, { comment: 'ok' })).status).toBe(200)
  })
})

describe('roles scoped to jurisdictions: releases', () => {
  it('an operator limited to Spain cannot make a release holding an Italy draft (403 OUT_OF_SCOPE, audited), and can make one of Spain drafts only', async () => {
    const italy = (await operator.post('/admin/api/drafts', { file: ITALY_SIGNUP, content: editedText(server, ITALY_SIGNUP, maxLength(37)) })).json().payload.id as number
    const spain = (await operator.post('/admin/api/drafts', { file: SPAIN_SIGNUP, content: editedText(server, SPAIN_SIGNUP, maxLength(37)) })).json().payload.id as number
    await limit('operator@parlay.test', ['spain'])
    try {
      const refused = await operator.post('/admin/api/releases', { title: 'both', versions: [spain, italy] })
      expect(refused.status).toBe(403)
      expect(refused.json().errorCode).toBe('OUT_OF_SCOPE')
      expect((await scopeRefusals('operator@parlay.test')).some((e) => e.subject === ITALY_SIGNUP && e.details.route === 'POST /admin/api/releases')).toBe(true)
      expect((await operator.post('/admin/api/releases', { title: 'spain only', versions: [spain] })).status).toBe(201)
    } finally {
      await limit('operator@parlay.test', null)
    }
  })
})
