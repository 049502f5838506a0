/**
 * i18n: one instance per page; texts by key, `{{name}}` interpolation, and plurals by suffix
 * (key_zero for 0 when present, then key_one, key_few, key_many, key_other as Intl.PluralRules of
 * the locale that supplies the text chooses, then the bare key) — the i18next JSON v4 resource
 * format the translations documents and schema-lint use, without i18next itself: it was 14 KB of
 * the first-load script (brotli) and processed the whole locale bundle before the first render
 * (issue 10). Here a bundle is kept as the object that arrived; nothing runs until a key is asked.
 *
 * A key the locale lacks falls back to the site's default locale, then to English — never to the
 * key itself. The server ships those fallback texts inside the locale's bundle (`fallbacks`, per
 * fallback locale, only the keys the locale lacks), so one request gives the page everything and
 * the fallback texts keep their own locale's plural rules. Every fallback and every key missing
 * everywhere is reported once (engine/core/report.ts); a key missing everywhere shows as ''.
 *
 * Dates in texts: `{{date, datetime}}` formats an ISO string, epoch ms or Date as spec §5's
 * 'D MMM YYYY HH:mm' in the page's locale; `{{rtp, percent}}` writes a number of percent (96.5) as
 * the locale does, with 2 decimals (96.50%, 96,50 %). Money in texts: `{{amount, currency}}` formats
 * the amount as spec §5 money in the page's locale, with the sign of the text's own `currency` value
 * (the account's currency: docs/money-input.md), a plain amount without one. A placeholder no caller
 * filled shows as '' and is
 * reported, never as a literal `{{name}}`.
 */
import type { Text } from '../../kernel/documents/types'
import { resolveBindings, type EvaluationContext } from './context'
import { currencyCode, formatDateTime, formatMoney, formatPercent, type CurrencyDisplays } from '../../kernel/core/format'
import { report } from './report'

/** The last locale of every fallback chain: every key exists in English (schema-lint). */
export const LAST_FALLBACK_LOCALE = 'en'

/** A locale's texts as `/api/i18n/{locale}` serves them. */
export interface TranslationsBundle {
  locale?: string
  resources: Record<string, string>
  /** Texts of the fallback locales for the keys this locale lacks, by fallback locale. */
  fallbacks?: Record<string, Record<string, string>>
}

export interface I18n {
  /** The current locale. */
  locale(): string
  /** Translates a key; values interpolate `{{name}}`; `count` picks the plural form. */
  t(key: string, values?: Record<string, unknown>): string
  /** Translates a document Text, resolving bindings in `values` and `count` against ctx. */
  translate(text: Text | undefined, ctx: EvaluationContext): string
  /** Whether a key has a text in the current locale or a fallback (plural forms count). */
  has(key: string): boolean
  /** Replaces the texts of a locale (a translations bundle arrived or changed); `fallbacks`
   * replaces the fallback locales' texts that came with it. */
  setResources(locale: string, resources: Record<string, string>, fallbacks?: Record<string, Record<string, string>>): void
  /** Switches the locale (its resources must have been set). */
  setLocale(locale: string): void
}

export interface I18nOptions {
  locale: string
  resources?: Record<string, string>
  /** The site's default locale: the first fallback. */
  fallbackLocale?: string
  /** The whole fallback chain, when more than the default locale (English is always last). */
  fallbackLocales?: string[]
  /** Fallback texts shipped with the locale's bundle. */
  fallbacks?: Record<string, Record<string, string>>
  /** Time zone for dates in texts (tests); the punter's own zone by default. */
  timeZone?: string
  /** How amounts in a currency are written: the jurisdiction document's currencyDisplay (format.ts). */
  currencyDisplay?: CurrencyDisplays
}

/** The fallback chain of a locale: the site default, then English, without the locale itself. */
export function fallbackChain(locale: string, defaultLocale?: string, extra: string[] = []): string[] {
  const chain = [...extra, defaultLocale, LAST_FALLBACK_LOCALE].filter((l): l is string => typeof l === 'string' && l !== '' && l !== locale)
  return [...new Set(chain)]
}

const PLACEHOLDER = /\{\{(.+?)\}\}/g

const pluralRules = new Map<string, Intl.PluralRules>()
function pluralForm(locale: string, count: number): string {
  let rules = pluralRules.get(locale)
  if (!rules) {
    try {
      rules = new Intl.PluralRules(locale)
    } catch {
      rules = new Intl.PluralRules(LAST_FALLBACK_LOCALE)
    }
    pluralRules.set(locale, rules)
  }
  return rules.select(count)
}

/** The keys a lookup tries in one locale, most specific first. */
function candidateKeys(key: string, locale: string, count: unknown): string[] {
  if (typeof count !== 'number') return [key]
  return [...(count === 0 ? [`${key}_zero`] : []), `${key}_${pluralForm(locale, count)}`, key]
}

/** A value named by a placeholder: the own property, else a dotted path. */
function valueAt(values: Record<string, unknown>, name: string): unknown {
  if (Object.prototype.hasOwnProperty.call(values, name)) return values[name]
  let current: unknown = values
  for (const part of name.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.prototype.hasOwnProperty.call(current, part)) return undefined
    current = (current as Record<string, unknown>)[part]
  }
  return current
}

/** A filled placeholder's text: `{{name, datetime|percent|currency}}` formatted for the language, else the value itself. */
function placeholderText(value: unknown, format: string | undefined, language: string, timeZone: string | undefined, currency: unknown, displays?: CurrencyDisplays): string {
  if (format === 'datetime') return formatDateTime(value, language, timeZone)
  if (format === 'percent') return formatPercent(value, language)
  if (format === 'currency') return formatMoney(value, language, currencyCode(currency), displays)
  if (value === null) return ''
  return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value)
}

/** Creates an isolated i18n instance (synchronous: resources are passed in). */
export function createI18n(options: I18nOptions): I18n {
  let language = options.locale
  const chain = fallbackChain(options.locale, options.fallbackLocale, options.fallbackLocales)
  const bundles = new Map<string, Record<string, string>>([[options.locale, options.resources ?? {}]])
  const reported = new Set<string>()
  const reportOnce = (id: string, message: string, detail: Record<string, unknown>) => {
    if (reported.has(id)) return
    reported.add(id)
    report({ kind: 'document', message, detail })
  }

  // The fallback texts that came with the last bundle; a newer bundle replaces all of them.
  const fallbackLocales = new Set<string>()
  const setFallbacks = (fallbacks: Record<string, Record<string, string>> | undefined) => {
    if (!fallbacks) return
    for (const locale of Object.keys(fallbacks)) fallbackLocales.add(locale)
    for (const locale of fallbackLocales) if (locale !== language) bundles.set(locale, fallbacks[locale] ?? {})
  }
  setFallbacks(options.fallbacks)

  /** The text for a key: the page's locale first, then the fallback chain; '' counts as missing. */
  const lookup = (key: string, count: unknown): { text: string; locale: string } | undefined => {
    for (const locale of [language, ...chain.filter((l) => l !== language)]) {
      const bundle = bundles.get(locale)
      if (!bundle) continue
      for (const candidate of candidateKeys(key, locale, count)) {
        const text = Object.prototype.hasOwnProperty.call(bundle, candidate) ? bundle[candidate] : undefined
        if (typeof text === 'string' && text !== '') return { text, locale }
      }
    }
    return undefined
  }

  const interpolate = (text: string, values: Record<string, unknown>): string =>
    text.replace(PLACEHOLDER, (whole, inner: string) => {
      const [name, format] = inner.split(',').map((part) => part.trim())
      const value = valueAt(values, name)
      if (value === undefined) {
        reportOnce(`placeholder|${language}|${text}|${inner}`, `unfilled placeholder {{${name}}} (${language})`, { text })
        return ''
      }
      return placeholderText(value, format, language, options.timeZone, values.currency, options.currencyDisplay)
    })

  const t = (key: string, values: Record<string, unknown> = {}): string => {
    const found = lookup(key, values.count)
    if (!found) {
      reportOnce(`missing|${language}|${key}`, `missing translation: ${key} (${language} and its fallbacks)`, { key, locale: language })
      return ''
    }
    if (found.locale !== language)
      reportOnce(`fallback|${language}|${key}`, `translation fallback: ${key} (${language} → ${found.locale})`, { key, locale: language, usedLocale: found.locale })
    return found.text.includes('{{') ? interpolate(found.text, values) : found.text
  }

  return {
    locale: () => language,
    t,
    has: (key) => [undefined, 0, 1, 2, 5].some((count) => lookup(key, count) !== undefined),
    translate(text, ctx) {
      if (text === undefined || text === null) return ''
      if (typeof text === 'string') return t(text)
      const values = (text.values ? resolveBindings(text.values, ctx) : {}) as Record<string, unknown>
      if (text.count !== undefined) {
        const count = resolveBindings(text.count, ctx)
        values.count = typeof count === 'number' ? count : Number(count) || 0
      }
      return t(text.key, values)
    },
    setResources(locale, resources, fallbacks) {
      bundles.set(locale, resources)
      setFallbacks(fallbacks)
    },
    setLocale(locale) {
      language = locale
    },
  }
}
