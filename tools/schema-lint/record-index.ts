/**
 * What schema-lint's reference checks look up across the whole document set (tools/schema-lint/lint.ts):
 * the ids of popups, menus and flows, the screens' routes, every redirect rule, and each shipped
 * locale's translation keys. Built once per lint run from the records.
 */
import type { RedirectRule } from '../../kernel/core/routes'
import type { DocumentRecord } from './documents/loader'

export interface RecordIndex {
  popups: Set<string>
  menus: Set<string>
  flows: Set<string>
  /** Every screen's route, in record order. */
  routes: string[]
  redirects: RedirectRule[]
  /** locale → its keys, from every translations document of that locale. */
  translations: Map<string, Set<string>>
}

export const redirectsOf = (record: DocumentRecord) => (record.source.redirects ?? []) as RedirectRule[]

/** A translations document's locale: its `locale`, else its id. */
export const localeOf = (record: DocumentRecord) => (record.source.locale as string | undefined) ?? record.id

/** The translation keys per locale; several documents of one locale add up. */
export function translationKeys(records: DocumentRecord[]): Map<string, Set<string>> {
  const translations = new Map<string, Set<string>>()
  for (const record of records.filter((r) => r.kind === 'translations')) {
    const locale = localeOf(record)
    const keys = translations.get(locale) ?? new Set<string>()
    for (const key of Object.keys(record.source.resources as object)) keys.add(key)
    translations.set(locale, keys)
  }
  return translations
}

export function indexRecords(records: DocumentRecord[]): RecordIndex {
  const ids = (kind: string) => new Set(records.filter((r) => r.kind === kind).map((r) => r.id))
  return {
    popups: ids('popup'),
    menus: ids('menu'),
    flows: ids('flow'),
    routes: records.filter((r) => r.kind === 'screen').map((r) => String(r.source.route)),
    redirects: records.filter((r) => r.kind === 'redirects').flatMap(redirectsOf),
    translations: translationKeys(records),
  }
}
