/**
 * The dictionary calls of spec §3/§7 that answered 404 (issue 34): locales, titles, genders,
 * nationalities, tax regions, document types, secret questions, products/all and site-info. The
 * oracle is the documents read straight from disk: each site's jurisdiction `dictionary` block,
 * each locale's i18n files, the remote config's active products; behind a session the list is the
 * punter's own site's under every other site's header.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_PASSWORD } from '../../support/api'
import { HARNESS_START_MS, startHarness, type Harness } from './helpers'

let h: Harness
beforeAll(async () => void (h = await startHarness()), HARNESS_START_MS)
afterAll(() => h.server.dispose())

const SCHEMAS = join(__dirname, '../../../schemas')
const SITES = readdirSync(join(SCHEMAS, 'jurisdictions'))
interface Jurisdiction {
  id: string
  locales: string[]
  defaultLocale: string
  country: string
  dictionary: Record<string, string[]>
}
const doc = (site: string): Jurisdiction => JSON.parse(readFileSync(join(SCHEMAS, 'jurisdictions', site, 'jurisdiction.json'), 'utf8'))

/** Every text of a locale, merged from its i18n files (the oracle: read from disk, not through the server). */
function texts(locale: string): Record<string, string> {
  const files = readdirSync(join(SCHEMAS, 'i18n')).filter((f) => f === `${locale}.json` || f.startsWith(`${locale}-`))
  return Object.assign({}, ...files.map((f) => JSON.parse(readFileSync(join(SCHEMAS, 'i18n', f), 'utf8')).resources))
}

const LISTS = [
  { path: '/dictionary/titles', list: 'titles', key: 'title' },
  { path: '/dictionary/genders', list: 'genders', key: 'gender' },
  { path: '/dictionary/tax-regions', list: 'taxRegions', key: 'taxRegion' },
  { path: '/dictionary/document-types', list: 'documentTypes', key: 'documentType' },
  { path: '/dictionary/secret-questions', list: 'secretQuestions', key: 'secretQuestion' },
] as const

describe("each site's lists, in each of its locales, are its jurisdiction document's codes named by the i18n files", () => {
  for (const { path, list, key } of LISTS) {
    it(`${path}: every site, every locale`, async () => {
      for (const site of SITES) {
        const own = doc(site)
        for (const locale of own.locales) {
          const res = await h.call(site, 'GET', `${path}?locale=${locale}`)
          expect(res.status, `${site} ${locale}`).toBe(200)
          const words = texts(locale)
          const expected = (own.dictionary[list] ?? []).map((code) => ({ code, name: words[`dictionary.${key}.${code}`] }))
          expect(expected.every((c) => typeof c.name === 'string' && c.name.length > 0), `${site} ${locale}: every code has a text`).toBe(true)
          expect(res.body.payload, `${site} ${locale}`).toEqual(expected)
        }
      }
    })
  }

  it('the lists differ by site as the documents say (Spain has tax regions, Curaçao none; Alderney offers Miss)', async () => {
    expect((await h.call('spain', 'GET', '/dictionary/tax-regions?locale=es')).body.payload.map((c: { name: string }) => c.name)).toContain('País Vasco')
    expect((await h.call('curacao', 'GET', '/dictionary/tax-regions')).body.payload).toEqual([])
    expect((await h.call('alderney', 'GET', '/dictionary/titles')).body.payload.map((c: { code: string }) => c.code)).toContain('MISS')
    expect((await h.call('spain', 'GET', '/dictionary/titles')).body.payload.map((c: { code: string }) => c.code)).not.toContain('MISS')
  })
})

describe('locales, nationalities, products', () => {
  it("/dictionary/locales is the site's locales, each with its own name, the default marked", async () => {
    for (const site of SITES) {
      const own = doc(site)
      const res = await h.call(site, 'GET', '/dictionary/locales')
      expect(res.body.payload.map((l: { code: string }) => l.code)).toEqual(own.locales)
      expect(res.body.payload.filter((l: { isDefault: boolean }) => l.isDefault).map((l: { code: string }) => l.code)).toEqual([own.defaultLocale])
    }
    const russia = (await h.call('russia', 'GET', '/dictionary/locales')).body.payload
    expect(russia.find((l: { code: string }) => l.code === 'ru').full).toBe('Русский')
    const spain = (await h.call('spain', 'GET', '/dictionary/locales')).body.payload
    expect(spain.find((l: { code: string }) => l.code === 'es').full).toBe('Español')
  })

  it("/dictionary/nationalities lists every platform country, the site's own country first, named in the request language", async () => {
    for (const site of SITES) {
      const own = doc(site)
      const nationalities = (await h.call(site, 'GET', '/dictionary/nationalities')).body.payload as { code: string; name: string }[]
      const countries = (await h.call(site, 'GET', '/dictionary/all-platform-countries')).body.payload as { code: string }[]
      expect(nationalities[0].code, site).toBe(own.country)
      expect(new Set(nationalities.map((n) => n.code))).toEqual(new Set(countries.map((c) => c.code)))
    }
    const de = (await h.call('denmark', 'GET', '/dictionary/nationalities?locale=da')).body.payload
    expect(de[0]).toEqual({ code: 'DK', name: 'Danmark' })
  })

  it("/products/all is the remote config's active products in order, each labelled section.<name> in the request language", async () => {
    const app = JSON.parse(readFileSync(join(SCHEMAS, 'remote-config', 'app.json'), 'utf8')).config
    for (const locale of ['en', 'ru', 'es', 'pt']) {
      const res = await h.call('curacao', 'GET', `/products/all?locale=${locale}`)
      expect(res.status).toBe(200)
      const words = { ...texts('en'), ...texts(locale) }
      const active = (app.ACTIVE_PRODUCTS as string[]).filter((name) => typeof app.APP_PRODUCTS_CONFIG[name]?.ROUTE === 'string')
      expect(res.body.payload.map((p: { name: string }) => p.name)).toEqual(active)
      for (const product of res.body.payload) {
        expect(product.route).toBe(app.APP_PRODUCTS_CONFIG[product.name].ROUTE)
        expect(product.label, `${locale} ${product.name}`).toBe(words[`section.${product.name}`] ?? `section.${product.name}`)
      }
    }
  })
})

describe('site-info and bad input', () => {
  it('/dictionary/site-info/{id} answers every site by its id; an unknown id is 404, a malformed one 400, in the envelope', async () => {
    for (const site of SITES) {
      const own = doc(site)
      const res = await h.call('curacao', 'GET', `/dictionary/site-info/${site}`)
      expect(res.body.payload).toMatchObject({ id: site, locales: own.locales })
    }
    const unknown = await h.call('curacao', 'GET', '/dictionary/site-info/atlantis')
    expect([unknown.status, unknown.body.status, unknown.body.errorCode]).toEqual([404, 'ERROR', 'NOT_FOUND'])
    const bad = await h.call('curacao', 'GET', '/dictionary/site-info/%24%7Bx%7D')
    expect([bad.status, bad.body.status, bad.body.errorCode]).toEqual([400, 'ERROR', 'ValidationError'])
  })
})

describe("behind a session the lists are the punter's own site's, under every other site's header", () => {
  it("a Spanish punter's titles, tax regions and document types are Spain's whatever site the request names", async () => {
    const login = await h.call('spain', 'POST', '/auth/v2/login', { login: 'spain@demo.parlay.test', password: DEMO_PASSWORD })
    expect(login.status, JSON.stringify(login.body)).toBe(200)
    const auth = { 'punter-session-hash': login.body.payload.punterHash as string }
    const spain = doc('spain')
    const words = texts('es')
    for (const site of SITES.filter((s) => s !== 'spain')) {
      for (const { path, list, key } of LISTS) {
        const res = await h.call(site, 'GET', `${path}?locale=es`, undefined, auth)
        expect(res.body.payload, `${path} under ${site}`).toEqual(spain.dictionary[list].map((code) => ({ code, name: words[`dictionary.${key}.${code}`] })))
      }
      const locales = await h.call(site, 'GET', '/dictionary/locales', undefined, auth)
      expect(locales.body.payload.map((l: { code: string }) => l.code), site).toEqual(spain.locales)
    }
  })
})
