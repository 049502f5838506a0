/**
 * GET /api/i18n/{locale}: every locale a site declares answers with its texts plus, for the keys it
 * lacks, the site default's and then English texts, marked by the locale they come from; a locale
 * the site does not declare is a clear 404 in the envelope.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawRequest, SCHEMAS_DIR, startTestServer, type TestServer } from '../support/server'

interface Site {
  id: string
  host: string
  defaultLocale: string
  locales: string[]
}
const sites: Site[] = readdirSync(join(SCHEMAS_DIR, 'jurisdictions')).map((id) => {
  const doc = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'jurisdictions', id, 'jurisdiction.json'), 'utf8'))
  return { id, host: doc.hosts[0], defaultLocale: doc.defaultLocale, locales: doc.locales }
})
const pairs = sites.flatMap((site) => site.locales.map((locale) => [site.id, locale, site] as const))
const plural = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '')

// One server on a copy of the documents in which Belarusian lacks two texts: one Russian (the
// Belarus site's default) has, and one only English has.
const root = mkdtempSync(join(tmpdir(), 'parlay-i18n-'))
const documentsDir = join(root, 'schemas')
cpSync(SCHEMAS_DIR, documentsDir, { recursive: true })
const edit = (file: string, change: (resources: Record<string, string>) => void) => {
  const path = join(documentsDir, 'i18n', file)
  const doc = JSON.parse(readFileSync(path, 'utf8'))
  change(doc.resources)
  writeFileSync(path, JSON.stringify(doc))
}
edit('be.json', (r) => {
  delete r['menu.quiz']
  delete r['lobby.matches_one']
  delete r['lobby.matches_few']
  delete r['lobby.matches_many']
  delete r['lobby.matches_other']
})
edit('ru.json', (r) => {
  delete r['lobby.matches_one']
  delete r['lobby.matches_few']
  delete r['lobby.matches_many']
  delete r['lobby.matches_other']
})

let server: TestServer
// generous: the server compiles every flow's validators at start, slow on a busy machine
beforeAll(async () => {
  server = await startTestServer({ documentsDir })
}, 120_000)
afterAll(async () => {
  await server?.dispose()
  rmSync(root, { recursive: true, force: true })
})
const get = (host: string, path: string) => rawRequest(server.port, { path, headers: { host: `${host}:${server.port}` } })

describe('every declared locale of every site serves translations', () => {
  it.each(pairs)('%s: %s', async (_id, locale, site) => {
    const res = await get(site.host, `/api/i18n/${locale}`)
    expect(res.status).toBe(200)
    const body = res.json()
    expect(body.locale).toBe(locale)
    expect(Object.keys(body.resources).length).toBeGreaterThan(100)
    // every English key reaches the page: in the locale's texts or in a fallback
    const en = (await get(site.host, '/api/i18n/en').then((r) => (r.status === 200 ? r.json() : null))) ?? (await get('localhost', '/api/i18n/en')).json()
    const served = new Set([...Object.keys(body.resources), ...Object.values(body.fallbacks ?? {}).flatMap((texts) => Object.keys(texts as object))].map(plural))
    const unserved = Object.keys(en.resources).map(plural).filter((key) => !served.has(key))
    expect(unserved).toEqual([])
    expect(body.resources['shell.brand'] ?? body.fallbacks?.[site.defaultLocale]?.['shell.brand'] ?? body.fallbacks?.en?.['shell.brand']).toBe('Parlay')
  })
})

describe('fallbacks ride in the same answer, marked by the locale they come from', () => {
  it("a key Belarusian lacks comes from Russian (the Belarus site's default); one Russian lacks too, from English", async () => {
    const body = (await get('belarus.localhost', '/api/i18n/be')).json()
    expect(body.resources['menu.quiz']).toBeUndefined()
    expect(body.fallbacks.ru['menu.quiz']).toBe('Викторина')
    expect(body.fallbacks.en).toMatchObject({ 'lobby.matches_one': '{{count}} match in this round', 'lobby.matches_other': '{{count}} matches in this round' })
    expect(body.fallbacks.ru['lobby.matches_one']).toBeUndefined()
  })

  it('fallbacks carry only keys the locale lacks (a complete locale carries none)', async () => {
    const body = (await get('denmark.localhost', '/api/i18n/da')).json()
    const own = new Set(Object.keys(body.resources).map(plural))
    const repeated = Object.values(body.fallbacks as Record<string, object>).flatMap((texts) => Object.keys(texts)).filter((key) => own.has(plural(key)))
    expect(repeated).toEqual([])
    expect(Object.keys(body.fallbacks)).not.toContain('da')
  })

  it('the answer has an ETag and a 304 when unchanged', async () => {
    const first = await get('belarus.localhost', '/api/i18n/be')
    const second = await rawRequest(server.port, { path: '/api/i18n/be', headers: { host: `belarus.localhost:${server.port}`, 'if-none-match': String(first.headers.etag) } })
    expect(second.status).toBe(304)
  })
})

describe('a locale the site does not declare is a 404 in the envelope', () => {
  it.each([
    ['localhost', 'da'],
    ['denmark.localhost', 'ru'],
    ['spain.localhost', 'xx'],
    ['localhost', 'EN'],
    ['localhost', '%00'],
    ['localhost', 'a'.repeat(300)],
  ])('%s /api/i18n/%s', async (host, locale) => {
    const res = await get(host, `/api/i18n/${locale}`)
    expect(res.status).toBe(404)
    expect(res.json()).toMatchObject({ status: 'ERROR', errorCode: 'UNSUPPORTED_LOCALE' })
    expect(res.json().payload.locales).toBeInstanceOf(Array)
  })
})
