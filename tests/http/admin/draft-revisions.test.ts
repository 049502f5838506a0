/**
 * Drafts carry a revision (issue 29 item 7): a save names the draft revision it edits; a save of
 * a stale revision (the draft was saved since, in another tab or on another device) is refused
 * with 409 DRAFT_CONFLICT, the saved text, who saved it and its revision, and audited; saving again
 * on that revision (the rebase) goes through. The oracle: the draft's stored text and the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OPERATOR, SPAIN_SIGNUP, readDocumentFile, signIn, startWithReviewers, type AdminClient, type TestServer } from './support'

let server: TestServer
let operator: AdminClient
let otherTab: AdminClient
let compliance: AdminClient
beforeAll(async () => {
  ;({ server, operator, compliance } = await startWithReviewers())
  otherTab = await signIn(server, OPERATOR)
}, 60_000)
afterAll(async () => server?.dispose())

const withMaxLength = (n: number) => {
  const doc = readDocumentFile(server, SPAIN_SIGNUP)
  doc.steps[1].schema.properties.firstName.maxLength = n
  return JSON.stringify(doc)
}

describe('drafts carry a revision', () => {
  it('a save of a stale draft revision is refused with the saved text and who saved it; a save on the revision it shows goes through', async () => {
    const made = (await operator.post('/admin/api/drafts', { file: SPAIN_SIGNUP, content: withMaxLength(41) })).json().payload as { id: number; revision: number }
    expect(made.revision).toBe(1)
    // both tabs opened revision 1; the other tab saves first
    const first = await otherTab.put(`/admin/api/versions/${made.id}`, { content: withMaxLength(42), revision: 1 })
    expect(first.status).toBe(200)
    expect(first.json().payload.revision).toBe(2)

    const stale = await operator.put(`/admin/api/versions/${made.id}`, { content: withMaxLength(43), revision: 1 })
    expect(stale.status).toBe(409)
    expect(stale.json()).toMatchObject({ status: 'ERROR', errorCode: 'DRAFT_CONFLICT', payload: { yourRevision: 1, revision: 2, content: withMaxLength(42), savedBy: 'operator@parlay.test' } })
    const stored = (await compliance.get(`/admin/api/versions/${made.id}`)).json().payload
    expect(stored.content).toBe(withMaxLength(42))

    const log = (await compliance.get('/admin/api/audit?limit=100')).json().payload as { action: string; actor: string; subject: string; details: Record<string, any> }[]
    const refused = log.filter((e) => e.action === 'draft.save-refused' && e.details.version === made.id)
    expect(refused).toHaveLength(1)
    expect(refused[0]).toMatchObject({ actor: 'operator@parlay.test', subject: SPAIN_SIGNUP, details: { code: 'DRAFT_CONFLICT', yourRevision: 1, revision: 2, reason: expect.any(String) } })

    // the rebase: the same text saved on the revision the refusal showed
    const rebased = await operator.put(`/admin/api/versions/${made.id}`, { content: withMaxLength(43), revision: stale.json().payload.revision })
    expect(rebased.status).toBe(200)
    expect(rebased.json().payload.revision).toBe(3)
    expect((await compliance.get(`/admin/api/versions/${made.id}`)).json().payload.content).toBe(withMaxLength(43))
    await operator.post(`/admin/api/versions/${made.id}/withdraw`)
  })

  it('a save that names no revision is a 400, and of two saves on one revision at once exactly one is stored', async () => {
    const made = (await operator.post('/admin/api/drafts', { file: SPAIN_SIGNUP, content: withMaxLength(44) })).json().payload as { id: number }
    const none = await operator.put(`/admin/api/versions/${made.id}`, { content: withMaxLength(45) })
    expect(none.status).toBe(400)
    const both = await Promise.all([operator.put(`/admin/api/versions/${made.id}`, { content: withMaxLength(46), revision: 1 }), otherTab.put(`/admin/api/versions/${made.id}`, { content: withMaxLength(47), revision: 1 })])
    expect(both.map((r) => r.status).sort()).toEqual([200, 409])
    const stored = both[0].status === 200 ? withMaxLength(46) : withMaxLength(47)
    expect((await compliance.get(`/admin/api/versions/${made.id}`)).json().payload).toMatchObject({ revision: 2, content: stored })
    expect(both.find((r) => r.status === 409)!.json().payload.content).toBe(stored)
    await operator.post(`/admin/api/versions/${made.id}/withdraw`)
  })
})
