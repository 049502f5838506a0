/**
 * Issue 11 item 6: fields a kind's schema marks server-only (promo codes, SMS budgets) never
 * leave the server. Every document of every site, in every locale, is fetched through the API a
 * browser uses (plus the bootstrap, the remote config and the sign-up settings), and no answer
 * may carry a server-only field or one of its values; the server itself still enforces them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DOCUMENT_KINDS, documentSchemas } from '../../kernel/documents/kinds'
import { clientCopy, serverOnlyFields } from '../../tools/schema-lint/documents/server-only'
import { serverOnlyFindings, serverOnlyListing } from '../../tools/schema-lint/rules/server-only'
import { rawRequest, startTestServer, type TestServer } from '../support/server'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
}, 120_000)
afterAll(async () => server?.dispose())

/** The values at a pointer with `*` wildcards. */
function valuesAt(value: unknown, pointer: string): unknown[] {
  let current: unknown[] = [value]
  for (const segment of pointer.split('/').slice(1)) {
    current = current.flatMap((v) => {
      if (v === null || typeof v !== 'object') return []
      if (segment === '*') return Object.values(v)
      return Object.hasOwn(v, segment) ? [(v as Record<string, unknown>)[segment]] : []
    })
  }
  return current
}

/** Strings that must not appear in any served answer: server-only field names and leaf values. */
function secretsOf(server: TestServer): { names: Set<string>; values: Set<string> } {
  const names = new Set<string>()
  const values = new Set<string>()
  const leaves = (v: unknown): void => {
    if (typeof v === 'string' && v.length >= 4) values.add(v)
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(leaves)
  }
  for (const record of server.deps.documents.list())
    for (const pointer of serverOnlyFields(record.kind)) {
      const found = valuesAt(record.source, pointer)
      if (found.length > 0) names.add(pointer.split('/').pop()!)
      // a quiz's right answer is one of its public answer ids: only which one is right is secret (the field name)
      if (pointer.endsWith('/correctAnswer')) continue
      found.forEach(leaves)
    }
  // Promo bonus keys are i18n keys the sign-up texts also use, and a reward names its product by
  // the public product id (sport, casino …); codes and numbers are the secret.
  const PRODUCTS = new Set(['sport', 'esports', 'casino', 'live-casino', 'lgames', 'vsports', 'toto', 'fast-games', 'mgames', 'scores'])
  for (const value of [...values]) if (/^promo\./.test(value) || PRODUCTS.has(value)) values.delete(value)
  return { names, values }
}

describe('server-only fields are marked in the schemas and listed by lint', () => {
  it('the jurisdiction schema marks the promo codes and the SMS budgets server-only', () => {
    expect(serverOnlyFields('jurisdiction')).toEqual(expect.arrayContaining(['/signup/promoCodes', '/regulatory/serverOnly']))
    expect(serverOnlyListing()).toContain('jurisdiction: /signup/promoCodes')
  })
  it('the client copy of a document drops every server-only field and keeps the rest', () => {
    const doc = { kind: 'jurisdiction', signup: { methods: ['email'], promoCodes: [{ code: 'X' }] }, regulatory: { serverOnly: { a: 1 }, sessionReminder: true } }
    expect(clientCopy('jurisdiction', doc)).toEqual({ kind: 'jurisdiction', signup: { methods: ['email'] }, regulatory: { sessionReminder: true } })
    expect(doc.signup.promoCodes).toHaveLength(1) // the source is not touched
  })
  it('lint refuses a secret-looking field the schema does not mark (it would be served)', () => {
    const findings = serverOnlyFindings([{ kind: 'screen', file: 'screens/x.json', served: { kind: 'screen', body: [{ type: 'text', promoCodes: ['FREE'] }] } }])
    expect(findings).toEqual([expect.objectContaining({ rule: 'server-only', severity: 'error', pointer: '/body/0/promoCodes' })])
    expect(serverOnlyFindings([{ kind: 'screen', file: 'screens/x.json', served: { schema: { properties: { secret: {} } } } }])).toEqual([])
  })
  it('every kind has a schema the server-only walk understands', () => {
    for (const kind of DOCUMENT_KINDS) expect(() => serverOnlyFields(kind)).not.toThrow()
    expect(Object.keys(documentSchemas)).toEqual(DOCUMENT_KINDS)
  })
})

describe('no served document of any kind, on any site, carries a server-only field', () => {
  it('every document of every site and locale, the bootstrap, the remote config and the sign-up settings', async () => {
    const { names, values } = secretsOf(server)
    // INGEST: the ingest quotas, budget and retention (remote config, issue 30 item 2) are enforced, never served
    // secrets: the captcha vendors' secret keys (jurisdiction captcha section, issue 34 item 5)
    expect(names).toEqual(new Set(['promoCodes', 'serverOnly', 'correctAnswer', 'participationCode', 'INGEST', 'secrets']))
    expect(values).toContain('WELCOME100')
    expect(values).toContain('6LeIxAcTAAAAAGG-vFI1TnRWxMZNFuojJ4WifJWe')
    const leaks: string[] = []
    let fetched = 0
    const check = async (site: string, locale: string, path: string) => {
      const res = await rawRequest(server.port, { path, headers: { 'x-parlay-target': site, 'accept-language': locale } })
      if (res.status !== 200) return
      fetched++
      for (const name of names) if (res.body.includes(`"${name}"`)) leaks.push(`${site}/${locale} ${path}: field ${name}`)
      for (const value of values) if (res.body.includes(JSON.stringify(value))) leaks.push(`${site}/${locale} ${path}: value ${value}`)
    }
    const documents = server.deps.documents.list()
    for (const site of server.deps.documents.sites())
      for (const locale of site.locales) {
        const ids = new Set(documents.map((r) => `${r.kind}/${r.id}`))
        const paths = [...[...ids].map((key) => `/api/documents/${key}`), '/api/site', '/api/remote-config', '/mobile-gate/api/v1/dictionary/settings']
        await Promise.all(paths.map((path) => check(site.id, locale, path)))
      }
    expect(fetched).toBeGreaterThan(500)
    expect(leaks).toEqual([])
  }, 120_000)
  it('the server still enforces the promo codes it no longer serves', async () => {
    const call = (promoCode: string) =>
      rawRequest(server.port, {
        method: 'POST',
        path: '/mobile-gate/api/v1/bonus/check-promo-code',
        headers: { 'content-type': 'application/json', 'x-parlay-target': 'spain' },
        body: JSON.stringify({ promoCode }),
      })
    expect((await call('LOCAL50')).json()).toMatchObject({ status: 'OK', payload: { valid: true } })
    expect((await call('NOPE-NOT-A-CODE')).json()).toMatchObject({ status: 'ERROR', errorCode: 'INVALID_PROMO_CODE' })
  })
})
