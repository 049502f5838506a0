/**
 * The HTTP API as a page (issue 32 item 4): GET /docs/api renders the OpenAPI document the server
 * generates from its router as server-rendered HTML, under the site's CSP (no script, no inline
 * style, nothing from another origin). Checked against the JSON document itself, known routes by
 * name and the login route's own validation schema.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOGIN_SCHEMA } from '../../server/auth/router'
import { apiPageHtml } from '../../server/http/api-page'
import { startTestServer, type TestServer } from '../support/server'

let server: TestServer
let page: Response
let html: string
let openapi: { paths: Record<string, Record<string, unknown>> }

beforeAll(async () => {
  server = await startTestServer()
  page = await fetch(`${server.url}/docs/api`)
  html = await page.text()
  openapi = await (await fetch(`${server.url}/api/openapi.json`)).json()
}, 120_000)
afterAll(() => server?.dispose())

/** "method path" of every operation heading on the page. */
const listed = (text: string) => new Set([...text.matchAll(/<span class="method method-(\w+)">\w+<\/span> <code>([^<]+)<\/code>/g)].map(([, method, path]) => `${method} ${path.replace(/&amp;/g, '&')}`))

describe('GET /docs/api: the OpenAPI document as a readable page', () => {
  it('answers HTML with every operation of /api/openapi.json by method and path', () => {
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    const operations = Object.entries(openapi.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`))
    expect(operations.length).toBeGreaterThan(90)
    expect([...listed(html)].sort()).toEqual(operations.sort())
  })

  it('lists the known routes: login, heartbeat, a document, the admin outbox, the JSON document and itself', () => {
    const routes = listed(html)
    for (const route of ['post /mobile-gate/api/v1/auth/v2/login', 'get /mobile-gate/api/v1/heartbeat', 'get /api/documents/{kind}/{id}', 'get /admin/api/outbox', 'get /api/openapi.json', 'get /docs/api'])
      expect(routes, route).toContain(route)
  })

  it("shows a route's request schema: the login's fields, from the schema its validator uses", () => {
    const login = html.slice(html.indexOf('id="post-mobile-gate-api-v1-auth-v2-login"'))
    const section = login.slice(0, login.indexOf('</article>'))
    expect(section).toContain('Request body')
    for (const field of Object.keys(LOGIN_SCHEMA.properties)) expect(section, field).toContain(`&quot;${field}&quot;`)
    expect(section).toContain('Responses')
  })

  it("is served under the site's CSP: script-src 'self', style-src 'self', no script and no inline style in the page", async () => {
    const csp = page.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("style-src 'self'")
    expect(csp).not.toContain('unsafe-inline')
    expect(html).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=/i)
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i)
    const stylesheet = await fetch(`${server.url}/docs/api.css`)
    expect(stylesheet.status).toBe(200)
    expect(stylesheet.headers.get('content-type')).toMatch(/^text\/css/)
    expect(html).toContain('<link rel="stylesheet" href="/docs/api.css">')
  })

  it('escapes every text it shows (a summary with markup prints as text)', () => {
    const doc = { info: { title: 'T', version: '1' }, paths: { '/x': { get: { tags: ['t'], summary: '<script>alert(1)</script>', responses: { 200: { description: 'a "quoted" <b>' } } } } } }
    const rendered = apiPageHtml(doc)
    expect(rendered).not.toContain('<script>')
    expect(rendered).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(rendered).toContain('a &quot;quoted&quot; &lt;b&gt;')
  })
})
