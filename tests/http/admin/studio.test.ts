/**
 * The operator studio's API (issue 19, server/admin/studio.ts): it works on text the operator has
 * not saved, never writes a version, and keeps the admin session, CSRF and preview-token rules.
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { STUDIO_DIR } from '../../../server/admin/studio-build'
import { rawRequest } from '../../support/server'
import { SPAIN_SIGNUP, readDocumentFile, type AdminClient, type TestServer, startWithReviewers } from './support'
import { SITES } from '../../support/sites'

let server: TestServer
let operator: AdminClient
let compliance: AdminClient

beforeAll(async () => void ({ server, operator, compliance } = await startWithReviewers()), 60000)
afterAll(() => server?.dispose())

const spainSignupWith = (edit: (doc: Record<string, any>) => void) => {
  const doc = readDocumentFile(server, SPAIN_SIGNUP)
  edit(doc)
  return JSON.stringify(doc, null, 2)
}
const versionCount = async () => (await operator.get(`/admin/api/versions?file=${encodeURIComponent(SPAIN_SIGNUP)}`)).json().payload.length

describe('the studio page', () => {
  it('sends a visitor without an admin session to the admin sign-in', async () => {
    const res = await rawRequest(server.port, { method: 'GET', path: '/admin/studio' })
    expect(res.status).toBe(302)
    expect(res.headers.location).toBe('/admin')
  })

  it('allows styles from the site and from this answer’s own nonce only (the code editor’s), a fresh nonce each time, written where the build put its placeholder; other pages keep style-src \'self\'', async () => {
    const load = () => rawRequest(server.port, { method: 'GET', path: '/admin/studio', headers: { cookie: operator.cookie } })
    const nonces = []
    for (const res of [await load(), await load()]) {
      const policy = String(res.headers['content-security-policy'])
      const nonce = /style-src 'self' 'nonce-([A-Za-z0-9+/]{22}==)'(;|$)/.exec(policy)?.[1]
      expect(nonce, policy).toBeDefined()
      expect(policy).not.toContain('unsafe-inline')
      expect(policy).toContain("script-src 'self';")
      expect(res.body).toContain(`<meta property="csp-nonce" nonce="${nonce}">`)
      expect(res.body).toContain(`src="/admin/studio/assets/index.js" nonce="${nonce}"`)
      expect(res.body).not.toContain('PLACEHOLDER')
      nonces.push(nonce)
    }
    expect(nonces[0]).not.toBe(nonces[1])
    for (const path of ['/admin', '/', '/join', '/admin/api/session']) {
      const policy = String((await rawRequest(server.port, { method: 'GET', path, headers: { cookie: operator.cookie } })).headers['content-security-policy'])
      expect(policy, path).toContain("style-src 'self';")
    }
  })

  it('answers 503 STUDIO_NOT_BUILT in the envelope when the studio build is missing', async () => {
    expect((await rawRequest(server.port, { method: 'GET', path: '/admin/studio', headers: { cookie: operator.cookie } })).status).toBe(200)
    rmSync(join(server.distDir, STUDIO_DIR), { recursive: true, force: true })
    const res = await rawRequest(server.port, { method: 'GET', path: '/admin/studio', headers: { cookie: operator.cookie } })
    expect(res.status).toBe(503)
    expect(res.json()).toMatchObject({ status: 'ERROR', errorCode: 'STUDIO_NOT_BUILT' })
  })

  it('serves only files of its own build folder', async () => {
    const res = await rawRequest(server.port, { method: 'GET', path: '/admin/studio/assets/..%2F..%2Findex.html', headers: { cookie: operator.cookie } })
    expect(res.status).toBe(404)
  })
})

describe('search across every document', () => {
  it('finds a document by a text inside it, with the matching line', async () => {
    const hits = (await operator.get('/admin/api/studio/search?q=signup.field.country')).json().payload as { file: string; match: string }[]
    expect(hits.map((h) => h.file)).toContain(SPAIN_SIGNUP)
    expect(hits.find((h) => h.file === SPAIN_SIGNUP)!.match).toContain('signup.field.country')
  })

  it('refuses an empty or overlong query with 400', async () => {
    expect((await operator.get('/admin/api/studio/search?q=')).status).toBe(400)
    expect((await operator.get(`/admin/api/studio/search?q=${'a'.repeat(101)}`)).status).toBe(400)
  })
})

describe('lint as you type', () => {
  it('reports schema-lint findings of unsaved text at their JSON pointer, and stores nothing', async () => {
    const before = await versionCount()
    const content = spainSignupWith((d) => (d.steps[0].title = 'signup.step.no-such-key'))
    const res = await operator.post('/admin/api/studio/lint', { file: SPAIN_SIGNUP, content })
    expect(res.status).toBe(200)
    const findings = res.json().payload as { severity: string; pointer: string; message: string }[]
    expect(findings).toContainEqual(expect.objectContaining({ severity: 'error', pointer: '/steps/0/title' }))
    expect(await versionCount()).toBe(before)
  })

  it('answers text that does not parse with a finding, not a 500', async () => {
    const res = await operator.post('/admin/api/studio/lint', { file: SPAIN_SIGNUP, content: '{"kind": "flow",' })
    expect(res.status).toBe(200)
    expect(res.json().payload[0].severity).toBe('error')
  })

  it('refuses a call without the session CSRF token (403) and a bad file name (400)', async () => {
    const noCsrf = await rawRequest(server.port, { method: 'POST', path: '/admin/api/studio/lint', headers: { cookie: operator.cookie, 'content-type': 'application/json' }, body: JSON.stringify({ file: SPAIN_SIGNUP, content: '{}' }) })
    expect(noCsrf.status).toBe(403)
    expect((await operator.post('/admin/api/studio/lint', { file: '../etc/passwd', content: '{}' })).json().errorCode).toBe('INVALID_FILE')
  })
})

describe('live preview of unsaved text', () => {
  it('shows the unsaved flow to this admin session on the chosen site, renders the page as that site, and writes no version', async () => {
    const before = await versionCount()
    const content = spainSignupWith((d) => (d.steps[0].title = 'signup.step.personal'))
    const res = await operator.post('/admin/api/studio/preview', { file: SPAIN_SIGNUP, content, site: 'spain' })
    expect(res.status).toBe(200)
    const { token } = res.json().payload as { token: string }
    const previewCookie = String(([] as string[]).concat(res.headers['set-cookie'] ?? [])[0]).split(';')[0]

    const asViewer = await rawRequest(server.port, { method: 'GET', path: `/api/documents/flow/signup-email?preview=${token}`, headers: { host: `spain.localhost:${server.port}`, cookie: previewCookie } })
    expect(asViewer.status).toBe(200)
    expect(asViewer.json().steps[0].title).toBe('signup.step.personal')

    const asStranger = await rawRequest(server.port, { method: 'GET', path: `/api/documents/flow/signup-email?preview=${token}`, headers: { host: `spain.localhost:${server.port}` } })
    expect(asStranger.status).toBe(403)

    const page = await rawRequest(server.port, { method: 'GET', path: `/join?preview=${token}` })
    expect(page.body).toContain('"jurisdiction":"spain"')
    expect(await versionCount()).toBe(before)
  })

  it("gives the preview the unsaved flow's own validator module (field labels and rules), only for this admin session (others get the published one, and the draft's module URL answers them 404)", async () => {
    const content = spainSignupWith((d) => (d.steps[0].schema.properties.email.title = 'signup.field.password'))
    const res = await operator.post('/admin/api/studio/preview', { file: SPAIN_SIGNUP, content, site: 'spain' })
    const { token } = res.json().payload as { token: string }
    const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0])
    const host = `spain.localhost:${server.port}`
    const published = (await rawRequest(server.port, { method: 'GET', path: '/api/flows/signup-email/validator', headers: { host } })).json().url as string
    const draft = await rawRequest(server.port, { method: 'GET', path: `/api/flows/signup-email/validator?preview=${token}`, headers: { host, cookie: cookies.join('; ') } })
    expect(draft.status).toBe(200)
    expect(draft.json().url).not.toBe(published)
    const module = await rawRequest(server.port, { method: 'GET', path: draft.json().url, headers: { host, cookie: cookies.join('; ') } })
    expect(module.body).toContain('signup.field.password')
    expect(module.headers['cache-control']).toBe('private, no-store')
    // The draft's module by its hash URL: only with the admin session's preview cookie and token.
    expect((await rawRequest(server.port, { method: 'GET', path: draft.json().url, headers: { host } })).status).toBe(404)
    expect((await rawRequest(server.port, { method: 'GET', path: draft.json().url.split('?')[0], headers: { host, cookie: cookies.join('; ') } })).status).toBe(404)
    expect((await rawRequest(server.port, { method: 'GET', path: published, headers: { host } })).status).toBe(200)
    const stranger = await rawRequest(server.port, { method: 'GET', path: `/api/flows/signup-email/validator?preview=${token}`, headers: { host } })
    expect(stranger.json().url).toBe(published)
  })

  it('refuses an unknown site with 400 and text that does not parse with 422', async () => {
    expect((await operator.post('/admin/api/studio/preview', { file: SPAIN_SIGNUP, content: '{}', site: 'atlantis' })).status).toBe(400)
    expect((await operator.post('/admin/api/studio/preview', { file: SPAIN_SIGNUP, content: '{"kind": ', site: 'spain' })).status).toBe(422)
  })
})

describe('jurisdiction overlays and where used', () => {
  it("gives, for Spain's sign-up, each site's resolved result and what its overlay changes", async () => {
    const res = (await compliance.get(`/admin/api/studio/overlay?file=${encodeURIComponent(SPAIN_SIGNUP)}`)).json().payload
    expect(res.base.file).toBe('bases/flows/signup-email.json')
    const site = (id: string) => res.sites.find((s: { site: string }) => s.site === id)
    expect(site('spain')).toMatchObject({ file: SPAIN_SIGNUP, how: 'overlay', base: 'bases/flows/signup-email.json' })
    // the resolved result is what Spain's punters are served (the documents API: the loaded set, not the store's)
    const served = (await rawRequest(server.port, { path: '/api/documents/flow/signup-email', headers: { host: `spain.localhost:${server.port}` } })).json()
    expect(site('spain').resolved.steps.map((s: { schema: unknown }) => s.schema)).toEqual(served.steps.map((s: { schema: unknown }) => s.schema))
    expect(site('spain').resolved.steps[1].schema.required).toContain('documentNumber')
    expect(site('spain').changes.map((c: { message: string }) => c.message)).toContain('Spain sign-up (email): step personal gains field documentNumber')
    expect(site('russia')).toMatchObject({ how: 'none', file: null, resolved: null })
    expect(site('italy')).toMatchObject({ how: 'overlay', file: 'jurisdictions/italy/flows/signup-email.json' })
  })

  it('gives, for the shared left menu, the sites served it as it is and Belarus its overlay', async () => {
    const res = (await compliance.get(`/admin/api/studio/overlay?file=${encodeURIComponent('menus/left-menu.json')}`)).json().payload
    const how = Object.fromEntries(res.sites.map((s: { site: string; how: string }) => [s.site, s.how]))
    expect(how).toEqual(Object.fromEntries(SITES.map((id) => [id, id === 'belarus' ? 'overlay' : 'shared'])))
    const belarus = res.sites.find((s: { site: string }) => s.site === 'belarus')
    expect(belarus.overlay.items).toEqual([{ name: 'loyalty', label: 'menu.loyalty.belarus' }])
    expect(belarus.changes.map((c: { message: string }) => c.message)).toEqual([
      'Belarus left menu: description The left menu (spec §2). → Belarus: loyalty is titled "bonuses and promocode" (spec §2).',
      'Belarus left menu: item loyalty text menu.loyalty → menu.loyalty.belarus',
    ])
    expect((await compliance.get('/admin/api/studio/overlay?file=menus%2Fno-such.json')).status).toBe(404)
  })

  it('names the documents that use a popup or a text key', async () => {
    const popup = (await operator.get('/admin/api/studio/where-used?popup=self-exclude')).json().payload
    expect(popup.users.length).toBeGreaterThan(0)
    const key = (await operator.get('/admin/api/studio/where-used?key=signup.field.country')).json().payload
    expect(key.users.map((u: { file: string }) => u.file)).toContain(SPAIN_SIGNUP)
    expect(key.users.every((u: { file: string }) => !u.file.startsWith('i18n/'))).toBe(true)
  })

  it('refuses a where-used question without a name, or with both kinds, with 400', async () => {
    expect((await operator.get('/admin/api/studio/where-used')).status).toBe(400)
    expect((await operator.get('/admin/api/studio/where-used?popup=a&key=b')).status).toBe(400)
  })
})
