/**
 * i18n through i18next: one instance per page, plurals by i18next's suffixes (key_one, key_few,
 * key_many, key_other) chosen by Intl.PluralRules of the locale that supplies the text.
 *
 * A key the locale lacks falls back to the site's default locale, then to English — never to the
 * key itself. The server ships those fallback texts inside the locale's bundle (`fallbacks`, per
 * fallback locale, only the keys the locale lacks), so one request gives the page everything and
 * the fallback texts keep their own locale's plural rules. Every fallback and every key missing
 * everywhere is reported once (engine/core/report.ts); a key missing everywhere shows as ''.
 *
 * Dates in texts: `{{date, datetime}}` formats an ISO string, epoch ms or Date as spec §5's
 * 'D MMM YYYY HH:mm' in the page's locale. A placeholder no caller filled shows as '' and is
 * reported, never as a literal `{{name}}`.
 */
import i18next, { type i18n as I18next, type TOptions } from 'i18next'
import type { Text } from '../documents/types'
import { resolveBindings, type EvaluationContext } from './context'
import { formatDateTime } from './format'
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
  /** The underlying i18next instance (for the React layer if it wants it). */
  instance: I18next
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
}

/** The fallback chain of a locale: the site default, then English, without the locale itself. */
export function fallbackChain(locale: string, defaultLocale?: string, extra: string[] = []): string[] {
  const chain = [...extra, defaultLocale, LAST_FALLBACK_LOCALE].filter((l): l is string => typeof l === 'string' && l !== '' && l !== locale)
  return [...new Set(chain)]
}

/** Creates an isolated i18n instance (synchronous init: resources are passed in). */
export function createI18n(options: I18nOptions): I18n {
  const instance = i18next.createInstance()
  const reported = new Set<string>()
  const reportOnce = (id: string, message: string, detail: Record<string, unknown>) => {
    if (reported.has(id)) return
    reported.add(id)
    report({ kind: 'document', message, detail })
  }

  void instance.init({
    lng: options.locale,
    fallbackLng: fallbackChain(options.locale, options.fallbackLocale, options.fallbackLocales),
    resources: { [options.locale]: { translation: options.resources ?? {} } },
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    returnEmptyString: false,
    keySeparator: false,
    nsSeparator: false,
    missingInterpolationHandler: (text: string, match: RegExpExecArray) => {
      reportOnce(`placeholder|${instance.language}|${text}|${match[1]}`, `unfilled placeholder {{${match[1].trim()}}} (${instance.language})`, { text })
      return ''
    },
  })
  instance.services.formatter?.add('datetime', (value, lng) => formatDateTime(value, lng ?? instance.language, options.timeZone))

  const replaceBundle = (locale: string, resources: Record<string, string>) => {
    if (instance.hasResourceBundle(locale, 'translation')) instance.removeResourceBundle(locale, 'translation')
    instance.addResourceBundle(locale, 'translation', resources, true, true)
  }
  // The fallback texts that came with the last bundle; a newer bundle replaces all of them.
  const fallbackLocales = new Set<string>()
  const setFallbacks = (fallbacks: Record<string, Record<string, string>> | undefined) => {
    if (!fallbacks) return
    for (const locale of Object.keys(fallbacks)) fallbackLocales.add(locale)
    for (const locale of fallbackLocales) if (locale !== instance.language) replaceBundle(locale, fallbacks[locale] ?? {})
  }
  setFallbacks(options.fallbacks)

  const t = (key: string, values: Record<string, unknown> = {}): string => {
    const language = instance.language
    if (!instance.exists(key, values as TOptions)) {
      reportOnce(`missing|${language}|${key}`, `missing translation: ${key} (${language} and its fallbacks)`, { key, locale: language })
      return ''
    }
    const found = instance.t(key, { ...values, returnDetails: true } as TOptions) as unknown as { res: unknown; usedLng: string }
    if (found.usedLng !== language)
      reportOnce(`fallback|${language}|${key}`, `translation fallback: ${key} (${language} → ${found.usedLng})`, { key, locale: language, usedLocale: found.usedLng })
    return String(found.res)
  }

  return {
    instance,
    locale: () => instance.language,
    t,
    has: (key) => instance.exists(key) || instance.exists(key, { count: 1 }) || instance.exists(key, { count: 2 }) || instance.exists(key, { count: 5 }),
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
      replaceBundle(locale, resources)
      setFallbacks(fallbacks)
    },
    setLocale(locale) {
      void instance.changeLanguage(locale)
    },
  }
}
