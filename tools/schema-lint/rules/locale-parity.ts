/**
 * Every shipped locale has the same keys: a key in one locale only is a missing translation,
 * reported on a translations document of another locale that has it. Plural forms count as their
 * base key (`bet_one` in one locale is met by `bet_other` in another).
 */
import type { DocumentRecord } from '../documents/loader'
import type { Finding } from '../finding'
import { localeOf, translationKeys } from '../record-index'

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/
const baseOf = (key: string) => key.replace(PLURAL_SUFFIX, '')

export function missingTranslationFindings(records: DocumentRecord[], translations = translationKeys(records)): Finding[] {
  const findings: Finding[] = []
  const locales = [...translations.keys()]
  const all = new Set(locales.flatMap((l) => [...translations.get(l)!]))
  for (const locale of locales) {
    const keys = translations.get(locale)!
    const bases = new Set([...keys].map(baseOf))
    for (const key of all) {
      if (keys.has(key) || bases.has(baseOf(key))) continue
      const record = records.find((r) => r.kind === 'translations' && localeOf(r) !== locale && key in (r.source.resources as object))
      if (record) findings.push({ file: record.file, pointer: `/resources/${key}`, message: `key ${JSON.stringify(key)} has no ${locale} translation`, rule: 'i18n', severity: 'error' })
    }
  }
  return findings
}
