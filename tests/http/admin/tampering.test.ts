/**
 * Issue 11 items 7, 9 and 10 (admin side): request-named keys never reach an object's prototype,
 * an unparseable draft never diffs as "no semantic changes", and a preview token is no bearer
 * capability. The clock is injected so a token's expiry is reached without waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawRequest } from '../../support/server'
import { COMPLIANCE, COMPLIANCE2, SPAIN_SIGNUP, editedText, readDocumentFile, signIn, type AdminClient, type TestServer, startWithReviewers } from './support'

let server: TestServer
let operator: AdminClient
let compliance: AdminClient
let compliance2: AdminClient
let clock = Date.parse('2026-03-02T10:00:00Z')

beforeAll(async () => {
  ;({ server, operator, compliance } = await startWithReviewers({ now: () => clock }))
  compliance2 = await signIn(server, COMPLIANCE2)
}, 60000)
afterAll(async () => server?.dispose())

describe('a key a request names is looked up as an own key only', () => {
  it.each(['constructor', '__proto__', 'hasOwnProperty', 'toString'])('GET /admin/static/%s is a 404', async (name) => {
    const res = await operator.get(`/admin/static/${name}`)
    expect(res.status).toBe(404)
    expect(res.json().status).toBe('ERROR')
  })
  it('a draft of kind "constructor" is refused by the gate (422), not a 500', async () => {
    const draft = await operator.post('/admin/api/drafts', { file: 'popups/proto-kind.json', content: '{"kind": "constructor", "id": "proto-kind"}' })
    const submit = await operator.post(`/admin/api/versions/${draft.json().payload.id}/submit`)
    expect(submit.status).toBe(422)
    expect(submit.json().payload[0].message).toMatch(/unknown document kind/)
  })
  it('a button whose action is "constructor" is an unknown action (422), not a 500', async () => {
    const text = JSON.stringify(readDocumentFile(server, 'popups/self-exclude.json')).replace(/"do":"[a-zA-Z.]+"/, '"do":"constructor"')
    const draft = await operator.post('/admin/api/drafts', { file: 'popups/self-exclude.json', content: text })
    const submit = await operator.post(`/admin/api/versions/${draft.json().payload.id}/submit`)
    expect(submit.status).toBe(422)
    expect(submit.json().payload.map((f: { message: string }) => f.message)).toContain('unknown action "constructor"')
  })
})

describe('a draft that does not parse says so in its diff', () => {
  it('the diff is one error finding naming the parse problem, never "No semantic changes" nor a deletion', async () => {
    const draft = await operator.post('/admin/api/drafts', { file: SPAIN_SIGNUP, content: '{"kind": "flow",' })
    const id = draft.json().payload.id
    const json = (await compliance.get(`/admin/api/versions/${id}/diff`)).json()
    expect(json.findings).toHaveLength(1)
    expect(json.findings[0]).toMatchObject({ rule: 'document.unparseable', severity: 'error' })
    expect(json.findings[0].message).toMatch(/^Spain sign-up \(email\): the draft does not parse \(invalid JSON/)
    const markdown = (await compliance.get(`/admin/api/versions/${id}/diff?format=markdown`)).body
    expect(markdown).not.toContain('No semantic changes')
    expect(markdown).toContain('does not parse')
    expect((await compliance.get(`/admin/api/versions/${id}`)).json().payload.diff.html).toContain('severity-error')
  })
})

describe('a preview token shows its draft only to the session that made it, on its site, for 10 minutes', () => {
  const SPAIN = () => `spain.localhost:${server.port}`
  let token = ''
  let previewCookie = ''
  let draftId = 0
  let published: Record<string, unknown>

  const fetchDraft = (headers: Record<string, string>, t = token) =>
    rawRequest(server.port, { path: `/api/documents/flow/signup-email?preview=${encodeURIComponent(t)}`, headers: { host: SPAIN(), ...headers } })

  beforeAll(async () => {
    published = (await rawRequest(server.port, { path: '/api/documents/flow/signup-email', headers: { host: SPAIN() } })).json()
    const draft = await operator.post('/admin/api/drafts', { file: SPAIN_SIGNUP, content: editedText(server, SPAIN_SIGNUP, (d) => (d.steps[1].schema.properties.firstName.maxLength = 33)) })
    draftId = draft.json().payload.id
    // The reviewer is on the Spain site's admin (the preview is made for the site it is asked on).
    const res = await rawRequest(server.port, {
      method: 'POST',
      path: `/admin/api/versions/${draft.json().payload.id}/preview`,
      headers: { host: SPAIN(), cookie: compliance.cookie, 'x-csrf-token': compliance.csrf },
    })
    expect(res.status).toBe(200)
    token = res.json().payload.after
    const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('parlay_preview='))!
    expect(setCookie).toMatch(/HttpOnly/)
    expect(setCookie).toMatch(/SameSite=Strict/)
    expect(setCookie).toMatch(/Path=\/api\/documents/)
    previewCookie = setCookie.split(';')[0]
  })

  const maxLength = (body: any) => body.steps[1].schema.properties.firstName.maxLength

  it('the session that made it sees the draft, uncached', async () => {
    const res = await fetchDraft({ cookie: previewCookie })
    expect(res.status).toBe(200)
    expect(maxLength(res.json())).toBe(33)
    expect(res.headers['cache-control']).toBe('no-store')
  })
  it('other documents asked with the token are the published ones (the token covers one document)', async () => {
    const res = await rawRequest(server.port, { path: `/api/documents/popup/self-exclude?preview=${encodeURIComponent(token)}`, headers: { host: SPAIN(), cookie: previewCookie } })
    expect(res.status).toBe(200)
    expect(res.json()).toEqual((await rawRequest(server.port, { path: '/api/documents/popup/self-exclude', headers: { host: SPAIN() } })).json())
  })
  it('no session: refused', async () => {
    const res = await fetchDraft({})
    expect(res.status).toBe(403)
    expect(res.json().errorCode).toBe('PREVIEW_REFUSED')
    expect(res.body).not.toContain('"maxLength":33')
  })
  it("another admin's session: refused", async () => {
    const own = await rawRequest(server.port, { method: 'POST', path: `/admin/api/versions/1/preview`, headers: { host: SPAIN(), cookie: compliance2.cookie, 'x-csrf-token': compliance2.csrf } })
    const otherCookie = ([] as string[]).concat(own.headers['set-cookie'] ?? []).find((c) => c.startsWith('parlay_preview='))!.split(';')[0]
    expect((await fetchDraft({ cookie: otherCookie })).status).toBe(403)
    expect((await fetchDraft({ cookie: compliance2.cookie })).status).toBe(403)
    const viaAdminRoute = await rawRequest(server.port, { path: `/admin/preview/${token}/documents/flow/signup-email`, headers: { host: SPAIN(), cookie: compliance2.cookie } })
    expect(viaAdminRoute.status).toBe(403)
  })
  it('another site: refused', async () => {
    const res = await rawRequest(server.port, { path: `/api/documents/flow/signup-email?preview=${encodeURIComponent(token)}`, headers: { host: `italy.localhost:${server.port}`, cookie: previewCookie } })
    expect(res.status).toBe(403)
  })
  it('the admin preview route answers the same to the same session', async () => {
    const res = await rawRequest(server.port, { path: `/admin/preview/${token}/documents/flow/signup-email`, headers: { host: SPAIN(), cookie: compliance.cookie } })
    expect(res.status).toBe(200)
    expect(maxLength(res.json())).toBe(33)
  })
  it('an expired token: refused, and the published document is unchanged', async () => {
    clock += 10 * 60 * 1000 + 1
    expect((await fetchDraft({ cookie: previewCookie })).status).toBe(403)
    expect(maxLength((await rawRequest(server.port, { path: '/api/documents/flow/signup-email', headers: { host: SPAIN() } })).json())).toBe(maxLength(published))
  })
  it('a logged-out session: its fresh token is refused', async () => {
    const reviewer = await signIn(server, COMPLIANCE)
    const made = await rawRequest(server.port, { method: 'POST', path: `/admin/api/versions/${draftId}/preview`, headers: { host: SPAIN(), cookie: reviewer.cookie, 'x-csrf-token': reviewer.csrf } })
    const fresh = made.json().payload.before as string
    const cookie = ([] as string[]).concat(made.headers['set-cookie'] ?? []).find((c) => c.startsWith('parlay_preview='))!.split(';')[0]
    const ask = () => rawRequest(server.port, { path: `/api/documents/flow/signup-email?preview=${encodeURIComponent(fresh)}`, headers: { host: SPAIN(), cookie } })
    expect((await ask()).status).toBe(200)
    await reviewer.post('/admin/api/logout')
    expect((await ask()).status).toBe(403)
  })
})
