import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawRequest } from '../../support/server'
import { COMPLIANCE2, OPERATOR, SPAIN_SIGNUP, draftAndSubmit, readDocumentFile, signIn, type AdminClient, type TestServer, startWithReviewers } from './support'

let server: TestServer
let operator: AdminClient
let compliance: AdminClient
let compliance2: AdminClient

beforeAll(async () => {
  ;({ server, operator, compliance } = await startWithReviewers())
  compliance2 = await signIn(server, COMPLIANCE2)
}, 60000)
afterAll(async () => server?.dispose())

const spainDoc = (path: string) => rawRequest(server.port, { path, headers: { host: `spain.localhost:${server.port}` } })
const dropFirstName = (doc: Record<string, any>) => {
  doc.steps[1].schema.required = doc.steps[1].schema.required.filter((f: string) => f !== 'firstName')
}

describe('draft → lint gate → review → publish', () => {
  it('the server serves only published versions: a submitted draft is not live', async () => {
    const id = await draftAndSubmit(operator, SPAIN_SIGNUP, (d) => (d.title = 'signup.title'), server).catch(() => 0)
    // Same content as published is refused as nothing changed (no empty review).
    expect(id).toBe(0)
    const before = (await spainDoc('/api/documents/flow/signup-email')).json()
    const version = await draftAndSubmit(operator, SPAIN_SIGNUP, dropFirstName, server)
    const after = (await spainDoc('/api/documents/flow/signup-email')).json()
    expect(after).toEqual(before)
    const review = (await compliance.get(`/admin/api/versions/${version}`)).json().payload
    expect(review.state).toBe('in_review')
    expect(review.diff.findings.map((f: { message: string }) => f.message)).toEqual(['Spain sign-up (email): field firstName no longer required'])
    expect(review.diff.findings[0].impact).toBe('identity-kyc')
  })

  it('four-eyes: an approval by a compliance user who is not the author publishes; the site version changes', async () => {
    const versionBefore = (await spainDoc('/api/site/version')).json().documentsVersion
    const id = await draftAndSubmit(operator, SPAIN_SIGNUP, (d) => (d.steps[1].schema.properties.firstName.maxLength = 50), server)
    expect((await compliance.post(`/admin/api/versions/${id}/publish`)).json().errorCode).toBe('NOT_APPROVED')
    const reviewed = (await compliance.get(`/admin/api/versions/${id}`)).json().payload.diff.findings[0].fingerprint as string
    expect((await compliance.post(`/admin/api/versions/${id}/approve`, { comment: 'fine' })).status).toBe(200)
    const published = await operator.post(`/admin/api/versions/${id}/publish`)
    expect(published.status).toBe(200)
    expect(published.json().payload.state).toBe('published')
    const served = (await spainDoc('/api/documents/flow/signup-email')).json()
    expect(served.steps[1].schema.properties.firstName.maxLength).toBe(50)
    expect((await spainDoc('/api/site/version')).json().documentsVersion).not.toBe(versionBefore)
    // The approval carries the findings' fingerprints, for `schema-lint diff --approved`.
    const approved = (await operator.get('/admin/api/approved-fingerprints')).json() as string[]
    expect(approved).toContain(reviewed)
  })

  it('self-approval is refused, even for a compliance user who authored the draft (via the store)', async () => {
    // Operators cannot approve at all.
    const id = await draftAndSubmit(operator, SPAIN_SIGNUP, (d) => (d.steps[1].schema.properties.lastName.maxLength = 55), server)
    const byOperator = await operator.post(`/admin/api/versions/${id}/approve`)
    expect(byOperator.status).toBe(403)
    expect(byOperator.json().errorCode).toBe('FORBIDDEN_FOR_ROLE')
    // The store refuses an approval by the author whatever the role.
    const { currentStore } = await import('../../../server/admin/index')
    const selfApproval = await currentStore!.approve(OPERATOR.email.toUpperCase(), id)
    expect(selfApproval).toMatchObject({ ok: false, code: 'SELF_APPROVAL' })
    const audit = (await compliance.get('/admin/api/audit?limit=5')).json().payload
    expect(audit.some((e: { action: string }) => e.action === 'review.self-approval-refused')).toBe(true)
  })

  it('a draft that fails lint cannot be submitted, approved or published', async () => {
    const doc = readDocumentFile(server, SPAIN_SIGNUP)
    doc.steps[0].submit = [{ do: 'popup.open', with: { id: 'no-such-popup' } }]
    doc.steps[1].when = 'user.('
    const draft = await operator.post('/admin/api/drafts', { file: SPAIN_SIGNUP, content: JSON.stringify(doc) })
    expect(draft.status).toBe(201)
    const id = draft.json().payload.id
    const submitted = await operator.post(`/admin/api/versions/${id}/submit`)
    expect(submitted.status).toBe(422)
    expect(submitted.json().errorCode).toBe('LINT_FAILED')
    expect(submitted.json().payload[0]).toHaveProperty('pointer')
    expect((await compliance.post(`/admin/api/versions/${id}/approve`)).json().errorCode).toBe('INVALID_STATE')
    expect((await compliance.post(`/admin/api/versions/${id}/publish`)).json().errorCode).toBe('NOT_APPROVED')
  })

  it('removing a mandatory regulatory block (Spain terms consent) fails the gate unless an approved waiver exists', async () => {
    const removeTerms = (d: Record<string, any>) => {
      d.steps[2].schema.required = []
      delete d.steps[2].schema.properties.terms.const
    }
    const doc = readDocumentFile(server, SPAIN_SIGNUP)
    removeTerms(doc)
    const draft = (await operator.post('/admin/api/drafts', { file: SPAIN_SIGNUP, content: JSON.stringify(doc) })).json().payload.id
    const refused = await operator.post(`/admin/api/versions/${draft}/submit`)
    expect(refused.status).toBe(422)
    expect(refused.json().payload.map((f: { rule: string }) => f.rule)).toContain('regulatory/terms-consent')
    const expiresAt = new Date(server.deps.now() + 30 * 86_400_000).toISOString()
    const waiver = await operator.post('/admin/api/waivers', { jurisdiction: 'spain', rule: 'terms-consent', document: SPAIN_SIGNUP, reason: 'Terms move to a separate consent screen (ticket LEGAL-42).', expiresAt })
    expect(waiver.status).toBe(201)
    const waiverId = waiver.json().payload.id
    expect((await operator.post(`/admin/api/waivers/${waiverId}/approve`)).status).toBe(403)
    expect((await compliance.post(`/admin/api/waivers/${waiverId}/approve`)).status).toBe(200)
    const accepted = await operator.post(`/admin/api/versions/${draft}/submit`)
    expect(accepted.status).toBe(200)
    await operator.post(`/admin/api/versions/${draft}/withdraw`)
  })

  it('compliance rejects with a comment; the author edits and resubmits', async () => {
    const id = await draftAndSubmit(operator, SPAIN_SIGNUP, (d) => (d.steps[0].schema.properties.password.minLength = 6), server)
    expect((await compliance.post(`/admin/api/versions/${id}/reject`, {})).status).toBe(400)
    const rejected = await compliance.post(`/admin/api/versions/${id}/reject`, { comment: 'Passwords stay at 8 characters.' })
    expect(rejected.json().payload).toMatchObject({ state: 'rejected', reviewComment: 'Passwords stay at 8 characters.' })
    const doc = readDocumentFile(server, SPAIN_SIGNUP)
    doc.steps[0].schema.properties.password.minLength = 10
    expect((await compliance.put(`/admin/api/versions/${id}`, { content: JSON.stringify(doc), revision: 1 })).status).toBe(403)
    expect((await operator.put(`/admin/api/versions/${id}`, { content: JSON.stringify(doc), revision: 1 })).json().payload.state).toBe('draft')
    expect((await operator.post(`/admin/api/versions/${id}/submit`)).status).toBe(200)
    await operator.post(`/admin/api/versions/${id}/withdraw`)
  })

  it('a draft based on an older published version is stale and cannot publish', async () => {
    const a = await draftAndSubmit(operator, SPAIN_SIGNUP, (d) => (d.steps[1].schema.properties.firstName.maxLength = 40), server)
    const b = await draftAndSubmit(operator, SPAIN_SIGNUP, (d) => (d.steps[1].schema.properties.firstName.maxLength = 45), server)
    await compliance.post(`/admin/api/versions/${a}/approve`)
    await compliance2.post(`/admin/api/versions/${b}/approve`)
    expect((await operator.post(`/admin/api/versions/${a}/publish`)).status).toBe(200)
    const stale = await operator.post(`/admin/api/versions/${b}/publish`)
    expect(stale.status).toBe(409)
    expect(stale.json().errorCode).toBe('STALE_DRAFT')
  })

  it('parallel publishes of one approved version: exactly one goes live; parallel approvals: exactly one counts', async () => {
    const id = await draftAndSubmit(operator, SPAIN_SIGNUP, (d) => (d.steps[1].schema.properties.lastName.maxLength = 58), server)
    const approvals = await Promise.all([compliance, compliance2, compliance].map((c) => c.post(`/admin/api/versions/${id}/approve`)))
    expect(approvals.filter((r) => r.status === 200)).toHaveLength(1)
    const publishes = await Promise.all(Array.from({ length: 5 }, () => operator.post(`/admin/api/versions/${id}/publish`)))
    expect(publishes.filter((r) => r.status === 200)).toHaveLength(1)
    expect(publishes.every((r) => r.status === 200 || r.status === 409)).toBe(true)
    const audit = (await compliance.get('/admin/api/audit?limit=50')).json().payload as { action: string; details: { version?: number } }[]
    expect(audit.filter((e) => e.action === 'document.published' && e.details.version === id)).toHaveLength(1)
    expect(audit.filter((e) => e.action === 'review.approved' && e.details.version === id)).toHaveLength(1)
  })

  it('rollback puts an earlier published version live again once a second person approves the request', async () => {
    const history = (await operator.get(`/admin/api/document?file=${encodeURIComponent(SPAIN_SIGNUP)}`)).json().payload.history as { id: number; origin: string }[]
    const seed = history.find((v) => v.origin === 'seed')!
    const asked = await compliance.post('/admin/api/rollback', { file: SPAIN_SIGNUP, version: seed.id })
    expect(asked.status).toBe(202)
    const rolled = await operator.post(`/admin/api/rollbacks/${asked.json().payload.id}/approve`)
    expect(rolled.status).toBe(200)
    expect(rolled.json().payload.origin).toBe('rollback')
    const served = (await spainDoc('/api/documents/flow/signup-email')).json()
    expect(served.steps[1].schema.properties.firstName.maxLength).toBe(60)
    expect((await compliance.post('/admin/api/rollback', { file: SPAIN_SIGNUP, version: 999999 })).status).toBe(404)
  })
})

describe('diff formats and previews through the API', () => {
  it('serves the review diff as markdown, HTML, JSON and SARIF', async () => {
    // a draft (not submitted: the change loosens a self-exclusion popup, which the gate refuses without waivers)
    const doc = readDocumentFile(server, 'popups/self-exclude.json')
    doc.buttons[0].actions = [{ do: 'nav.go', with: { to: '/casino/lobby' } }]
    const id = (await operator.post('/admin/api/drafts', { file: 'popups/self-exclude.json', content: JSON.stringify(doc) })).json().payload.id as number
    const md = await compliance.get(`/admin/api/versions/${id}/diff?format=markdown`)
    expect(md.body).toContain('popup self-exclude: button ok now runs nav.go instead of popup.close')
    expect((await compliance.get(`/admin/api/versions/${id}/diff?format=html`)).body).toContain('self-exclusion and limits')
    expect(JSON.parse((await compliance.get(`/admin/api/versions/${id}/diff?format=sarif`)).body).version).toBe('2.1.0')
    expect((await compliance.get(`/admin/api/versions/${id}/diff?format=pdf`)).status).toBe(400)
    const made = await compliance.post(`/admin/api/versions/${id}/preview`)
    const tokens = made.json().payload
    // The preview shows the draft to the reviewer's own session only (tampering.test.ts has the refusals).
    const previewCookie = ([] as string[]).concat(made.headers['set-cookie'] ?? []).find((c) => c.startsWith('parlay_preview='))!.split(';')[0]
    const asReviewer = (path: string) => rawRequest(server.port, { path, headers: { cookie: `${compliance.cookie}; ${previewCookie}` } })
    const draft = await asReviewer(`/admin/preview/${tokens.after}/documents/popup/self-exclude`)
    expect(draft.json().buttons[0].actions[0].do).toBe('nav.go')
    const live = await asReviewer(`/admin/preview/${tokens.before}/documents/popup/self-exclude`)
    expect(live.json().buttons[0].actions[0].do).toBe('popup.close')
    expect((await asReviewer('/admin/preview/bogus/documents/popup/self-exclude')).status).toBe(403)
    // The engine's own documents API renders the draft for a preview token, uncached …
    const engineDraft = await asReviewer(`/api/documents/popup/self-exclude?preview=${tokens.after}`)
    expect(engineDraft.json().buttons[0].actions[0].do).toBe('nav.go')
    expect(engineDraft.headers['cache-control']).toBe('no-store')
    // … punters get the published version, and a token that is not theirs is refused, never the draft.
    expect((await rawRequest(server.port, { path: '/api/documents/popup/self-exclude' })).json().buttons[0].actions[0].do).toBe('popup.close')
    expect((await rawRequest(server.port, { path: `/api/documents/popup/self-exclude?preview=${tokens.after}` })).status).toBe(403)
    expect((await rawRequest(server.port, { path: '/api/documents/popup/self-exclude?preview=bogus' })).status).toBe(403)
    await operator.post(`/admin/api/versions/${id}/withdraw`)
  })
})
