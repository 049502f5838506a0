/**
 * Locale parity (tools/schema-lint/rules/locale-parity.ts): a key one shipped locale has and another
 * lacks is a missing translation, reported on a document that has it; plural forms count by their
 * base key; several documents of one locale add up (tools/schema-lint/record-index.ts).
 */
import { describe, expect, it } from 'vitest'
import type { DocumentRecord } from '../../../../tools/schema-lint/documents/loader'
import { missingTranslationFindings } from '../../../../tools/schema-lint/rules/locale-parity'
import { indexRecords } from '../../../../tools/schema-lint/record-index'

const translations = (file: string, resources: Record<string, string>, locale?: string) =>
  ({ kind: 'translations', id: file.replace(/\.json$/, ''), file, source: { ...(locale ? { locale } : {}), resources } }) as unknown as DocumentRecord

describe('every shipped locale has the same keys', () => {
  it('a key only English has is reported once, on the English document, as missing in Russian', () => {
    const records = [translations('en.json', { 'a.title': 'A', 'only.en': 'E' }), translations('ru.json', { 'a.title': 'А' })]
    expect(missingTranslationFindings(records)).toEqual([{ file: 'en.json', pointer: '/resources/only.en', message: 'key "only.en" has no ru translation', rule: 'i18n', severity: 'error' }])
  })

  it('plural forms meet each other by their base key: bet_one/bet_few in one locale and bet_other in another are no finding', () => {
    const records = [translations('en.json', { bet_one: '1 bet', bet_other: 'n bets' }), translations('ru.json', { bet_one: '1', bet_few: 'n', bet_many: 'n' })]
    expect(missingTranslationFindings(records)).toEqual([])
  })

  it('documents of one locale (named by their locale field, else their id) add up before keys are compared', () => {
    const records = [translations('en.json', { a: 'A', b: 'B' }), translations('ru-1.json', { a: 'А' }, 'ru'), translations('ru-2.json', { b: 'Б' }, 'ru')]
    expect(indexRecords(records).translations).toEqual(new Map([['en', new Set(['a', 'b'])], ['ru', new Set(['a', 'b'])]]))
    expect(missingTranslationFindings(records)).toEqual([])
  })
})
