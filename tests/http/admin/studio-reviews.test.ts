/**
 * Issue 19, the studio's reviews. A release can be edited until it goes live — its title, drafts in and out — by its
 * author; an edit of a release in review or approved sends it back to review (the approval is
 * cleared and a second person approves again); every edit is in the audit log; bad edits are 4xx.
 * Waivers are settled in the studio with the same API and four-eyes rules as /admin, and what waits
 * for compliance (the studio's badge) counts the waivers they may decide.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COMPLIANCE, OPERATOR, type AdminClient, type TestServer, startWithReviewers } from './support'

const LABELS = 'i18n/en-signup.json'
const POPUP_TEXTS = 'i18n/en-auth.json'
const MENU_TEXTS = 'i18n/en-shell.json'
const SLOW = { timeout: 90_000 }

let server: TestServer
let operator: AdminClient
let compliance: AdminClient

beforeAll(async () => void ({ server, operator, compliance } = await startWithReviewers()), 60000)
afterAll(async () => server?.dispose())

/** A draft of `file` with one text changed (from what is published now); its version id. */
async function draft(file: string, text: string): Promise<number> {
  const published = (await operator.get(`/admin/api/document?file=${encodeURIComponent(file)}`)).json().payload.published
  const doc = JSON.parse(published.content)
  const key = Object.keys(doc.resources)[0]
  doc.resources[key] = text
  const res = await operator.post('/admin/api/drafts', { file, content: JSON.stringify(doc, null, 2) })
  expect(res.status, res.body).toBe(201)
  return res.json().payload.id
}

const release = async (id: number) => (await compliance.get(`/admin/api/releases/${id}`)).json().payload
const versionState = async (id: number) => (await operator.get(`/admin/api/versions/${id}`)).json().payload.state
const audit = async () => (await compliance.get('/admin/api/audit?limit=200')).json().payload as { action: string; actor: string; details: Record<string, any> }[]
const inAWeek = () => new Date(server.deps.now() + 7 * 86_400_000).toISOString()

describe('editing a release before it goes live', SLOW, () => {
  it('its author renames it, adds a draft and removes one; the removed draft is a free draft again; each edit is audited', async () => {
    const [a, b, c] = [await draft(LABELS, 'Edit A'), await draft(POPUP_TEXTS, 'Edit B'), await draft(MENU_TEXTS, 'Edit C')]
    const id = (await operator.post('/admin/api/releases', { title: 'First title', versions: [a, b] })).json().payload.id
    const edited = await operator.patch(`/admin/api/releases/${id}`, { title: 'Texts for the winter promotion', add: [c], remove: [b] })
    expect(edited.status, edited.body).toBe(200)
    expect(edited.json().payload).toMatchObject({ title: 'Texts for the winter promotion', state: 'draft', versionIds: [a, c].sort((x, y) => x - y) })
    expect(await versionState(b)).toBe('draft')
    // b is free: it can go in another release
    const other = await operator.post('/admin/api/releases', { title: 'Popup texts alone', versions: [b] })
    expect(other.status, other.body).toBe(201)
    const entry = (await audit()).find((e) => e.action === 'release.edited' && e.details.release === id)
    expect(entry).toMatchObject({ actor: OPERATOR.email, details: { title: { from: 'First title', to: 'Texts for the winter promotion' }, added: [c], removed: [b], state: 'draft' } })
    await operator.post(`/admin/api/releases/${id}/withdraw`)
    await operator.post(`/admin/api/releases/${other.json().payload.id}/withdraw`)
  })

  it('an approved release that is edited goes back to review: the approval is cleared and it cannot be published until a second person approves again', async () => {
    const [a, b] = [await draft(LABELS, 'Approved A'), await draft(POPUP_TEXTS, 'Approved B')]
    const id = (await operator.post('/admin/api/releases', { title: 'Approved then edited', versions: [a] })).json().payload.id
    expect((await operator.post(`/admin/api/releases/${id}/submit`)).status).toBe(200)
    expect((await compliance.post(`/admin/api/releases/${id}/approve`, { comment: 'Fine.' })).status).toBe(200)
    const edited = await operator.patch(`/admin/api/releases/${id}`, { add: [b] })
    expect(edited.status, edited.body).toBe(200)
    expect(edited.json().payload).toMatchObject({ state: 'in_review', reviewedBy: null, reviewComment: null })
    expect([await versionState(a), await versionState(b)]).toEqual(['in_review', 'in_review'])
    expect((await compliance.post(`/admin/api/releases/${id}/publish`)).json().errorCode).toBe('NOT_APPROVED')
    expect((await compliance.get('/admin/api/reviews/pending')).json().payload.releases.map((r: { id: number }) => r.id)).toContain(id)
    const entry = (await audit()).find((e) => e.action === 'release.edited' && e.details.release === id)
    expect(entry?.details).toMatchObject({ from: 'approved', state: 'in_review', approvalCleared: true, added: [b] })
    expect((await compliance.post(`/admin/api/releases/${id}/approve`, {})).json().payload.state).toBe('approved')
    await operator.post(`/admin/api/releases/${id}/withdraw`)
  })

  it('only its author edits it, only until it goes live, and a bad edit is a clear 4xx that changes nothing', async () => {
    const [a, b] = [await draft(LABELS, 'Rules A'), await draft(POPUP_TEXTS, 'Rules B')]
    const id = (await operator.post('/admin/api/releases', { title: 'Edit rules', versions: [a] })).json().payload.id
    const cases: [Promise<{ status: number; json(): any }>, number, string][] = [
      [compliance.patch(`/admin/api/releases/${id}`, { title: 'Not mine' }), 403, 'FORBIDDEN_FOR_ROLE'],
      [operator.patch(`/admin/api/releases/${id}`, {}), 400, 'ValidationError'],
      [operator.patch(`/admin/api/releases/${id}`, { title: 'x' }), 400, 'ValidationError'],
      [operator.patch(`/admin/api/releases/${id}`, { add: ['1'] }), 400, 'ValidationError'],
      [operator.patch(`/admin/api/releases/${id}`, { owner: 'me' }), 400, 'ValidationError'],
      [operator.patch(`/admin/api/releases/${id}`, { remove: [a] }), 409, 'INVALID_STATE'],
      [operator.patch(`/admin/api/releases/${id}`, { remove: [b] }), 404, 'NOT_FOUND'],
      [operator.patch(`/admin/api/releases/${id}`, { add: [99999999] }), 404, 'NOT_FOUND'],
      [operator.patch(`/admin/api/releases/${id}`, { add: [1] }), 403, 'NOT_AUTHOR'],
      [operator.patch('/admin/api/releases/424242', { title: 'Nobody' }), 404, 'NOT_FOUND'],
      [operator.patch('/admin/api/releases/abc', { title: 'Nobody' }), 404, 'NOT_FOUND'],
    ]
    for (const [sent, status, code] of cases) {
      const res = await sent
      expect([res.status, res.json().status, res.json().errorCode]).toEqual([status, 'ERROR', code])
    }
    expect((await release(id))).toMatchObject({ title: 'Edit rules', versionIds: [a], state: 'draft' })
    await operator.post(`/admin/api/releases/${id}/withdraw`)
    expect((await operator.patch(`/admin/api/releases/${id}`, { title: 'Withdrawn' })).json().errorCode).toBe('INVALID_STATE')
  })
})

describe('waivers in the studio: the same API and four-eyes rules as /admin', SLOW, () => {
  it("a waiver asked for by an operator waits in compliance's count, is approved by compliance, never by the one who asked, and both steps are audited", async () => {
    const pendingBefore = (await compliance.get('/admin/api/reviews/pending')).json().payload
    const asked = await operator.post('/admin/api/waivers', { jurisdiction: 'spain', rule: 'terms-consent', document: 'jurisdictions/spain/flows/signup-email.json', reason: 'Terms move to a separate consent screen (ticket LEGAL-7).', expiresAt: inAWeek() })
    expect(asked.status, asked.body).toBe(201)
    const waiver = asked.json().payload
    const pending = (await compliance.get('/admin/api/reviews/pending')).json().payload
    expect(pending.count).toBe(pendingBefore.count + 1)
    expect(pending.waivers.map((w: { id: number }) => w.id)).toContain(waiver.id)
    expect((await operator.get('/admin/api/reviews/pending')).json().payload.count).toBe(0)
    expect((await operator.post(`/admin/api/waivers/${waiver.id}/approve`)).json().errorCode).toBe('FORBIDDEN_FOR_ROLE')
    const approved = await compliance.post(`/admin/api/waivers/${waiver.id}/approve`)
    expect([approved.status, approved.json().payload.state, approved.json().payload.reviewedBy]).toEqual([200, 'approved', COMPLIANCE.email])
    expect((await compliance.get('/admin/api/reviews/pending')).json().payload.count).toBe(pendingBefore.count)
    expect((await compliance.post(`/admin/api/waivers/${waiver.id}/reject`)).json().errorCode).toBe('INVALID_STATE')
    const log = (await audit()).filter((e) => e.details.waiver === waiver.id).map((e) => e.action)
    expect(log.sort()).toEqual(['waiver.approved', 'waiver.requested'])
  })

  it('compliance cannot approve a waiver they asked for themselves (SELF_APPROVAL), and it does not count as waiting for them', async () => {
    const own = (await compliance.post('/admin/api/waivers', { jurisdiction: 'italy', rule: 'terms-consent', document: 'jurisdictions/italy/flows/signup-email.json', reason: 'Asked by compliance for a legal test.', expiresAt: inAWeek() })).json().payload
    expect((await compliance.get('/admin/api/reviews/pending')).json().payload.waivers.map((w: { id: number }) => w.id)).not.toContain(own.id)
    const refused = await compliance.post(`/admin/api/waivers/${own.id}/approve`)
    expect([refused.status, refused.json().errorCode]).toEqual([403, 'SELF_APPROVAL'])
  })
})
