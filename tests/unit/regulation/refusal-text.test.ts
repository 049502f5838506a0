/**
 * Issue 13 item 1: a restricted punter's refused deposit, bet or game launch says WHY. The server
 * names the deciding restriction in the refusal's payload; the client shows that restriction's own
 * text, which every locale has for every restriction type.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { refusalMessageKey } from '../../../engine/core/gateway'
import { formatDateTime } from '../../../kernel/core/format'
import { createI18n } from '../../../engine/core/i18n'
import { RESTRICTION_PRIORITY } from '../../../server/regulation/restrictions'

const I18N = resolve(import.meta.dirname, '..', '..', '..', 'schemas', 'i18n')
const LOCALES = ['en', 'ru', 'be', 'es', 'pt', 'da', 'it']

function textsOf(locale: string): Record<string, string> {
  const texts: Record<string, string> = {}
  for (const file of readdirSync(I18N).filter((f) => f.startsWith(`${locale}-`) && f.endsWith('.json'))) {
    const doc = JSON.parse(readFileSync(join(I18N, file), 'utf8')) as { locale: string; resources: Record<string, string> }
    if (doc.locale === locale) Object.assign(texts, doc.resources)
  }
  return texts
}
const keysOf = (locale: string) => new Set(Object.keys(textsOf(locale)))

/** The restrictions that end at a date: their text says when. */
const TIMED = ['SELF_EXCLUSION_END_DATED', 'SELF_EXCLUSION_TIMEOUT', 'PROTECTION_MEASURE_END_DATED'] as const

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

  it('a refusal by the account status itself (restriction null, status named) shows the status text, in each locale its own', () => {
    const payload = { operation: 'deposit', restriction: null, endDate: null, status: 'DORMANT' }
    const shown = LOCALES.map((locale) => {
      const i18n = createI18n({ locale, resources: textsOf(locale) })
      expect(refusalMessageKey('INCORRECT_PUNTER_STATE', payload, i18n.has), locale).toBe('account.status.DORMANT')
      return i18n.t('account.status.DORMANT')
    })
    expect(new Set(shown).size).toBe(LOCALES.length)
    expect(refusalMessageKey('INCORRECT_PUNTER_STATE', { ...payload, status: 'NOT_A_STATUS' }, (k) => keysOf('en').has(k))).toBe('server.error.undefined')
  })

  it('a restriction that ends at a date says the date, in the locale and the punter\'s time zone, in every locale', () => {
    const endDate = '2026-12-24T17:30:00.000Z'
    for (const locale of LOCALES) {
      const i18n = createI18n({ locale, resources: textsOf(locale), timeZone: 'Europe/Madrid' })
      const shown = formatDateTime(endDate, locale, 'Europe/Madrid')
      expect(shown).toMatch(/24 .+ 2026 18:30/)
      for (const type of TIMED) {
        const payload = { operation: 'deposit', restriction: type, endDate }
        expect(i18n.t(refusalMessageKey('CUSTOMER_SELFEXCLUDED', payload, i18n.has), payload), `${locale} ${type}`).toContain(shown)
      }
    }
  })
})
