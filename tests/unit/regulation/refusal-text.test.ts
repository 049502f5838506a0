/**
 * Issue 13 item 1: a restricted punter's refused deposit, bet or game launch says WHY. The server
 * names the deciding restriction in the refusal's payload; the client shows that restriction's own
 * text, which every locale has for every restriction type.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { refusalMessageKey } from '../../../engine/core/gateway'
import { RESTRICTION_PRIORITY } from '../../../server/regulation/restrictions'

const I18N = resolve(import.meta.dirname, '..', '..', '..', 'schemas', 'i18n')
const LOCALES = ['en', 'ru', 'be', 'es', 'pt', 'da', 'it']

function keysOf(locale: string): Set<string> {
  const keys = new Set<string>()
  for (const file of readdirSync(I18N).filter((f) => f.startsWith(`${locale}-`) && f.endsWith('.json'))) {
    const doc = JSON.parse(readFileSync(join(I18N, file), 'utf8')) as { locale: string; resources: Record<string, string> }
    if (doc.locale === locale) for (const key of Object.keys(doc.resources)) keys.add(key)
  }
  return keys
}

describe('a refused operation says which restriction refused it', () => {
  it('every restriction type has its reason text in all seven locales', () => {
    for (const locale of LOCALES) {
      const keys = keysOf(locale)
      const missing = RESTRICTION_PRIORITY.filter((type) => !keys.has(`regulation.refused.${type}`))
      expect(missing, locale).toEqual([])
    }
  })

  it('the deciding restriction of the payload picks the text; other refusals keep their code text', () => {
    const has = (key: string) => keysOf('en').has(key)
    expect(refusalMessageKey('CUSTOMER_SELFEXCLUDED', { operation: 'deposit', restriction: 'SELF_EXCLUSION_TIMEOUT', endDate: null }, has)).toBe('regulation.refused.SELF_EXCLUSION_TIMEOUT')
    expect(refusalMessageKey('INCORRECT_PUNTER_STATE', { operation: 'bet', restriction: 'SUSPENDED', endDate: null }, has)).toBe('regulation.refused.SUSPENDED')
    expect(refusalMessageKey('DAILY_DEPOSIT_LIMIT_EXCEED', { limit: 50 }, has)).toBe('server.error.DAILY_DEPOSIT_LIMIT_EXCEED')
    // a payload naming no known restriction (or not a name at all) falls back to the code
    expect(refusalMessageKey('INCORRECT_PUNTER_STATE', { restriction: 'NOT_A_RESTRICTION' }, has)).toBe('server.error.undefined')
    expect(refusalMessageKey('INCORRECT_PUNTER_STATE', { restriction: '<script>' }, has)).toBe('server.error.undefined')
  })
})
