/**
 * Spec §2 "Screens and routes": every path the spec lists answers 200 on every site, bare and under
 * each of the site's locale prefixes (catch-alls with any trailing path too), and anything else is
 * a 404. The paths come from tests/vectors/spec-routes.json, transcribed from the spec.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawRequest, startTestServer, type TestServer } from '../support/server'
import { siteDocument, siteHost, SITES } from '../support/sites'

interface SpecRoutes {
  public: { path: string; catchAll?: boolean; noPrefix?: boolean; api?: boolean; languageOnly?: boolean }[]
  languagePrefixed: string[]
  productRoutes: string[]
  promotionsProducts: string[]
  favoritesProducts: string[]
  unknown: string[]
}

const spec = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'vectors', 'spec-routes.json'), 'utf8')) as SpecRoutes
/** Every declared site's host (tests/support/sites.ts), plain localhost for the default one. */
const HOSTS = SITES.map((id) => (siteDocument(id).default ? 'localhost' : siteHost(id)))

/** Every page path of §2, each catch-all also with a deep trailing path and a query string. */
function pagePaths(): string[] {
  const paths = new Set<string>()
  for (const entry of spec.public) {
    // /ping.json is JSON, and /{lang} is checked as each locale prefix alone
    if (entry.noPrefix || entry.languageOnly) continue
    paths.add(entry.path)
    if (entry.catchAll) {
      paths.add(`${entry.path}/some/deep/path`)
      paths.add(`${entry.path}?token=abc123`)
    }
  }
  for (const path of [...spec.languagePrefixed, ...spec.productRoutes]) paths.add(path)
  for (const product of spec.promotionsProducts) paths.add(`/${product}/promotions`)
  for (const product of spec.favoritesProducts) paths.add(`/${product}/favorites`)
  paths.add('/casino/old-page.htm')
  return [...paths]
}

let server: TestServer
const locales = new Map<string, string[]>()
beforeAll(async () => {
  server = await startTestServer()
  for (const host of HOSTS) locales.set(host, (await rawRequest(server.port, { path: '/api/site', headers: { host } })).json().site.locales)
}, 60_000)
afterAll(async () => server?.dispose())

const statusOf = async (host: string, path: string) => (await rawRequest(server.port, { path, headers: { host, accept: 'text/html' } })).status

/** Requests in flight at once: the server's I/O overlaps, the machine is not flooded. */
const IN_FLIGHT = 6

/** The paths of a host that do not answer `expected`, in the order given. */
async function offenders(host: string, paths: string[], expected: number): Promise<string[]> {
  const statuses = new Array<number>(paths.length)
  let next = 0
  const worker = async () => {
    while (next < paths.length) {
      const i = next++
      statuses[i] = await statusOf(host, paths[i]!)
    }
  }
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker))
  return paths.flatMap((path, i) => (statuses[i] === expected ? [] : [`${path} → ${statuses[i]}`]))
}

describe('spec §2: every route resolves on every site', () => {
  it('the fixture transcribes the spec: 35 public paths, 24 language-prefixed paths, 7 promotions and 4 favourites products', () => {
    expect(spec.public.length).toBe(35)
    expect(spec.languagePrefixed.length).toBe(24)
    expect(spec.promotionsProducts.length).toBe(7)
    expect(spec.favoritesProducts.length).toBe(4)
  })

  it.each(HOSTS)('%s: every spec path answers 200 without a locale prefix', async (host) => {
    expect(await offenders(host, pagePaths(), 200)).toEqual([])
  }, 60_000)

  it.each(HOSTS)('%s: every spec path answers 200 under each of the site locales', async (host) => {
    const prefixed = (locales.get(host) ?? []).flatMap((locale) => [`/${locale}`, ...pagePaths().filter((p) => p !== '/').map((p) => `/${locale}${p}`)])
    expect(prefixed.length).toBeGreaterThan(100)
    expect(await offenders(host, prefixed, 200)).toEqual([])
  }, 120_000)

  it.each(HOSTS)('%s: unknown paths answer 404', async (host) => {
    expect(await offenders(host, spec.unknown, 404)).toEqual([])
  })

  it('a locale prefix counts only on a site that offers it (/da/ on Denmark, not on Spain)', async () => {
    expect(await statusOf('denmark.localhost', '/da/casino/lobby')).toBe(200)
    expect(await statusOf('spain.localhost', '/da/casino/lobby')).toBe(404)
  })

  it('/ping.json is served as JSON, not as a page', async () => {
    const res = await rawRequest(server.port, { path: '/ping.json' })
    expect(res.status).toBe(200)
    expect(res.json().status).toBe('OK')
  })
})

describe('the bootstrap carries the redirects document', () => {
  it('the site answer lists the catch-all rules the shell resolves', async () => {
    const site = (await rawRequest(server.port, { path: '/api/site' })).json()
    expect(site.redirects).toContainEqual(expect.objectContaining({ from: '/casino', trailing: true, to: '/casino/lobby' }))
  })
})

describe('content API for the §2 pages', () => {
  const content = async (path: string) => rawRequest(server.port, { path })
  it('the live line has scores and prices, in the asked locale', async () => {
    const events = (await content('/api/content/line?section=sport&state=live&locale=es')).json().payload
    expect(events.length).toBeGreaterThan(2)
    expect(events[0].title).toMatch(/\d+:\d+/)
    expect(events[0].subtitle).toContain('En directo')
    expect(events[0].to).toMatch(/^\/sport\/live\/event\?id=/)
  })
  it('an event page has several markets; without an id it shows the first event of the line', async () => {
    const event = (await content('/api/content/event?section=sport&state=prematch&id=')).json().payload
    const line = (await content('/api/content/line?section=sport&state=prematch&locale=en')).json().payload
    expect(event.id).toBe(line[0].id)
    const football = line.find((e: { sport: string }) => e.sport === 'Football')
    const page = (await content(`/api/content/event?section=sport&state=prematch&id=${football.id}`)).json().payload
    expect(page.id).toBe(football.id)
    expect(page.markets.length).toBeGreaterThan(2)
  })
  it('an id that names no event of the section is a 404 EVENT_NOT_FOUND, never another match (issue 31)', async () => {
    const line = (await content('/api/content/line?section=sport&state=live&locale=en')).json().payload
    const esports = (await content('/api/content/line?section=esports&state=live&locale=en')).json().payload
    for (const path of ['/api/content/event?section=sport&state=live&id=nope', `/api/content/event?section=esports&state=live&id=${line[0].id}`, `/api/content/event?section=sport&state=live&id=${esports[0].id}`]) {
      const res = await content(path)
      expect(res.status, path).toBe(404)
      expect(res.json()).toEqual({ status: 'ERROR', errorCode: 'EVENT_NOT_FOUND' })
    }
  })
  it('the page of an event link that names no event is answered 404, a known one 200 (the browser shows the 404 page)', async () => {
    const line = (await content('/api/content/line?section=sport&state=live&locale=en')).json().payload
    expect((await rawRequest(server.port, { path: '/sport/live/event?id=nope' })).status).toBe(404)
    expect((await rawRequest(server.port, { path: `/sport/live/event?id=${line[0].id}` })).status).toBe(200)
    expect((await rawRequest(server.port, { path: '/casino/game?product=casino&id=no-such-game' })).status).toBe(404)
    expect((await rawRequest(server.port, { path: '/casino/game?product=casino&id=book-of-ra' })).status).toBe(200)
  })
  it('results have scores and dates', async () => {
    const results = (await content('/api/content/results?section=sport&locale=en')).json().payload
    expect(results.length).toBeGreaterThan(5)
    expect(results[0].title).toMatch(/\d+:\d+/)
    expect(results[0].subtitle).toMatch(/\d{4}/)
  })
  it.each(spec.promotionsProducts)('%s has promotions', async (product) => {
    expect((await content(`/api/content/promotions?section=${product}&locale=ru`)).json().payload.length).toBeGreaterThan(1)
  })
  it.each([
    ['/api/content/line?section=poker&state=live', 'UNKNOWN_SECTION'],
    ['/api/content/line?section=sport&state=yesterday', 'UNKNOWN_STATE'],
    ['/api/content/event?section=sport&state=live&id=%3Cscript%3E', 'INVALID_EVENT_ID'],
    ['/api/content/promotions', 'UNKNOWN_SECTION'],
    ['/api/content/favorites?section=sport', 'UNKNOWN_SECTION'],
  ])('bad input %s is a 400 %s in the envelope', async (path, code) => {
    const res = await content(path)
    expect(res.status).toBe(400)
    expect(res.json()).toEqual({ status: 'ERROR', errorCode: code })
  })
})
