/**
 * i18n through i18next: one instance per page, resources from the translations document, plurals
 * by i18next's suffixes (key_one, key_few, key_many, key_other — ru needs few/many).
 * A missing key shows the key itself and is reported, never an empty string.
 */
import i18next, { type i18n as I18next } from 'i18next'
import type { Text } from '../documents/types'
import { resolveBindings, type EvaluationContext } from './context'
import { report } from './report'

export interface I18n {
  /** The current locale. */
  locale(): string
  /** Translates a key; values interpolate `{{name}}`; `count` picks the plural form. */
  t(key: string, values?: Record<string, unknown>): string
  /** Translates a document Text, resolving bindings in `values` and `count` against ctx. */
  translate(text: Text | undefined, ctx: EvaluationContext): string
  /** Whether a key has a text in the current locale (plural forms count). */
  has(key: string): boolean
  /** Adds or replaces the texts of a locale (a translations document arrived or changed). */
  setResources(locale: string, resources: Record<string, string>): void
  /** Switches the locale (its resources must have been set). */
  setLocale(locale: string): void
  /** The underlying i18next instance (for the React layer if it wants it). */
  instance: I18next
}

export interface I18nOptions {
  locale: string
  resources?: Record<string, string>
  fallbackLocale?: string
}

/** Creates an isolated i18n instance (synchronous init: resources are passed in). */
export function createI18n(options: I18nOptions): I18n {
  const instance = i18next.createInstance()
  void instance.init({
    lng: options.locale,
    fallbackLng: options.fallbackLocale ?? false,
    resources: { [options.locale]: { translation: options.resources ?? {} } },
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    returnEmptyString: false,
    keySeparator: false,
    nsSeparator: false,
  })

  const t = (key: string, values: Record<string, unknown> = {}): string => {
    if (!instance.exists(key, values)) {
      report({ kind: 'document', message: `missing translation: ${key} (${instance.language})`, detail: { key } })
      return key
    }
    return String(instance.t(key, values as Record<string, string>))
  }

  return {
    instance,
    locale: () => instance.language,
    t,
    has: (key) => instance.exists(key) || instance.exists(key, { count: 1 }) || instance.exists(key, { count: 2 }),
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
    setResources(locale, resources) {
      instance.addResourceBundle(locale, 'translation', resources, true, true)
    },
    setLocale(locale) {
      void instance.changeLanguage(locale)
    },
  }
}
