/**
 * The reference checks' own rules (tools/schema-lint/references.ts): a text key must be in every
 * locale (a plural key by its `_other` form); an in-site route must be served by a screen or a
 * redirect, while the root and https links are not checked.
 */
import { describe, expect, it } from 'vitest'
import type { DocumentRecord } from '../../../../tools/schema-lint/documents/loader'
import { keyCheck, routeCheck } from '../../../../tools/schema-lint/references'

const record = { kind: 'popup', id: 'p', file: 'popups/p.json', source: {} } as unknown as DocumentRecord

function collect() {
  const found: string[] = []
  return { found, add: (_record: DocumentRecord, pointer: string, rule: string, message: string) => void found.push(`${pointer} ${rule}: ${message}`) }
}

describe('text keys', () => {
  it('a key is missing in each locale that has neither it nor its _other plural form', () => {
    const { found, add } = collect()
    const check = keyCheck(new Map([['en', new Set(['hello', 'bets_other'])], ['ru', new Set(['bets_other'])]]), add)
    check(record, '/title', 'hello')
    check(record, '/body', 'bets')
    expect(found).toEqual(['/title i18n: text key "hello" is missing in locale ru'])
  })
})

describe('routes', () => {
  const routes = ['/sport/line', '/casino/:game']
  const redirects = [{ from: '/old-casino', to: '/casino/slots' }] as never[]

  it('a path a screen or a redirect serves passes; any other in-site path is reported', () => {
    const { found, add } = collect()
    const check = routeCheck({ routes, redirects }, add)
    for (const to of ['/sport/line', '/casino/book-of-ra', '/old-casino', '/nowhere']) check(record, '/to', to)
    expect(found).toEqual(['/to route: no screen serves the route "/nowhere"'])
  })

  it('the root (with a query or hash), https links and non-strings are never checked', () => {
    const { found, add } = collect()
    const check = routeCheck({ routes: [], redirects: [] }, add)
    for (const to of ['/', '/?from=mail', '/#top', 'https://example.org/anything', 42, undefined]) check(record, '/to', to)
    expect(found).toEqual([])
  })
})
