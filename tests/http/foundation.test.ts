import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawRequest, startTestServer, type TestServer } from '../support/server'
import { DocumentLoadError } from '../../server/documents/service'
import { siteDocument, SITES } from '../support/sites'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => server?.dispose())

const get = (path: string, headers: Record<string, string> = {}) => rawRequest(server.port, { path, headers })

describe('sites are chosen by Host, with a default site for plain localhost', () => {
  it('plain localhost is the default site (Curaçao)', async () => {
    const res = await get('/api/site', { host: `localhost:${server.port}` })
    expect(res.json().site.jurisdiction).toBe('curacao')
  })
  it.each(SITES.filter((id) => !siteDocument(id).default))('%s.localhost is the %s site', async (jurisdiction) => {
    const res = await get('/api/site', { host: `${jurisdiction}.localhost:${server.port}` })
    expect(res.status).toBe(200)
    expect(res.json().site.jurisdiction).toBe(jurisdiction)
  })
  it('the remote app config carries STATE_MATRIX and APP_PRODUCTS_CONFIG, per site', async () => {
    const shared = (await get('/api/remote-config', { host: 'localhost' })).json().payload
    const russia = (await get('/api/remote-config', { host: 'russia.localhost' })).json().payload
    expect(shared.STATE_MATRIX.PERSONALDETAILS).toBeInstanceOf(Array)
    expect(Object.keys(shared.APP_PRODUCTS_CONFIG)).toContain('casino')
    expect(shared.IS_SEPARATED_SOCKET_ENABLED).toBe(true)
    expect(russia.IS_SEPARATED_SOCKET_ENABLED).toBe(false)
  })
})

describe('documents API', () => {
  it('answers with an ETag and 304 when the document is unchanged', async () => {
    const first = await get('/api/documents/remote-config/app')
    expect(first.status).toBe(200)
    const etag = String(first.headers.etag)
    expect(etag).toMatch(/^".+"$/)
    const second = await get('/api/documents/remote-config/app', { 'if-none-match': etag })
    expect(second.status).toBe(304)
    expect(second.body).toBe('')
  })
  it('a jurisdiction copy overrides the shared document for that site only', async () => {
    const russia = (await get('/api/documents/remote-config/app', { host: 'russia.localhost' })).json()
    const spain = (await get('/api/documents/remote-config/app', { host: 'spain.localhost' })).json()
    expect(russia.config.IS_SEPARATED_SOCKET_ENABLED).toBe(false)
    expect(spain.config.IS_SEPARATED_SOCKET_ENABLED).toBe(true)
  })
  it('an unknown kind or a malformed id is a 400 with a code, an unknown document a 404', async () => {
    expect((await get('/api/documents/nope/app')).json()).toEqual({ status: 'ERROR', errorCode: 'UNKNOWN_DOCUMENT_KIND' })
    expect((await get('/api/documents/screen/..%2F..%2Fetc')).status).toBe(400)
    const missing = await get('/api/documents/screen/no-such-screen')
    expect(missing.status).toBe(404)
    expect(missing.json().errorCode).toBe('NOT_FOUND')
  })
  it('translations of an unsupported locale are refused', async () => {
    expect((await get('/api/i18n/xx')).status).toBe(404)
  })
})

describe('client headers (spec §7: source, target, version)', () => {
  it('accepts the source, target and version headers', async () => {
    const res = await get('/api/site', { 'x-parlay-source': 'android', 'x-parlay-target': 'spain', 'x-parlay-version': '1.22.0' })
    expect(res.status).toBe(200)
    expect(res.json().site.jurisdiction).toBe('spain')
  })
  it.each([
    ['x-parlay-source', 'windows-phone'],
    ['x-parlay-target', 'atlantis'],
    ['x-parlay-version', 'latest; drop table'],
  ])('a malformed %s header is a 400 with BAD_HEADER', async (header, value) => {
    const res = await get('/api/site', { [header]: value })
    expect(res.status).toBe(400)
    expect(res.json().errorCode).toBe('BAD_HEADER')
  })
})

describe('bad input gets a clear error, never a 500 or a stack trace', () => {
  const post = (body: string | Buffer, contentType = 'application/json') =>
    rawRequest(server.port, { method: 'POST', path: '/api/anything', headers: { 'content-type': contentType }, body })
  it('malformed JSON → 400 MALFORMED_JSON', async () => {
    const res = await post('{"login": ')
    expect(res.status).toBe(400)
    expect(res.json()).toEqual({ status: 'ERROR', errorCode: 'MALFORMED_JSON' })
  })
  it('an oversized body → 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await post(JSON.stringify({ a: 'x'.repeat(200_000) }))
    expect(res.status).toBe(413)
    expect(res.body).not.toMatch(/at .+\.ts:\d+/)
  })
  it('an unknown API path → 404 in the envelope, not the SPA', async () => {
    const res = await get('/api/nothing-here')
    expect(res.status).toBe(404)
    expect(res.json().errorCode).toBe('NOT_FOUND')
  })
  it('a non-GET request to a page → 405', async () => {
    const res = await rawRequest(server.port, { method: 'DELETE', path: '/casino/lobby' })
    expect(res.status).toBe(405)
  })
})

describe('security headers', () => {
  it('serves a Content Security Policy without unsafe-eval or inline script', async () => {
    const res = await get('/')
    const csp = String(res.headers['content-security-policy'])
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain('unsafe-eval')
    expect(csp).not.toContain('unsafe-inline')
    expect(csp).toContain("object-src 'none'")
    expect(csp).toContain("base-uri 'none'")
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['strict-transport-security']).toBeDefined()
  })
  it('GET /ping.json answers OK', async () => {
    const res = await get('/ping.json')
    expect(res.json()).toMatchObject({ status: 'OK', payload: { version: '1.22.0' } })
  })
})

describe('documents are validated at start and on reload', () => {
  it('a bad document stops the start with the file and the JSON path in the message', async () => {
    const broken = await startTestServer()
    const file = join(broken.documentsDir, 'jurisdictions', 'spain', 'jurisdiction.json')
    const doc = JSON.parse(readFileSync(file, 'utf8'))
    doc.minimumAge = 'eighteen'
    writeFileSync(file, JSON.stringify(doc))
    await broken.close()
    const error = await startTestServer({ documentsDir: broken.documentsDir }).catch((e) => e)
    expect(error).toBeInstanceOf(DocumentLoadError)
    expect(error.message).toContain('jurisdictions/spain/jurisdiction.json:/minimumAge')
  })
  it('an invalid edit is refused and the last good set keeps being served', async () => {
    const file = join(server.documentsDir, 'remote-config', 'app.json')
    const good = readFileSync(file, 'utf8')
    writeFileSync(file, good.replace('"NULL_BALANCE_POPUP_TIMEOUT": 86400000', '"NULL_BALANCE_POPUP_TIMEOUT": "soon"'))
    expect(() => server.deps.documents.reload()).toThrow(/remote-config\/app.json:\/config\/NULL_BALANCE_POPUP_TIMEOUT/)
    const res = await get('/api/remote-config')
    expect(res.json().payload.NULL_BALANCE_POPUP_TIMEOUT).toBe(86400000)
    writeFileSync(file, good)
  })
  it('an expression that does not type-check is refused with its JSON pointer', async () => {
    const file = join(server.documentsDir, 'jurisdictions', 'alderney', 'jurisdiction.json')
    const good = readFileSync(file, 'utf8')
    const doc = JSON.parse(good)
    doc.afterLogin = [{ id: 'broken', when: 'user.balanse == 0.0', popup: 'info' }]
    writeFileSync(file, JSON.stringify(doc))
    expect(() => server.deps.documents.reload()).toThrow(/alderney\/jurisdiction.json:\/afterLogin\/0\/when: .*No such key: balanse/)
    writeFileSync(file, good)
  })
})
