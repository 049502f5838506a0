/**
 * Spain (es), Italy (it) and Curaçao (en, ru, es, pt) must read in their punters' language: a key
 * without a text shows the raw key on screen, and a text that drops or renames a `{{placeholder}}`
 * shows a blank or a literal "{{date}}". This checks every English text has a counterpart in each
 * of these locales, with a form for every plural category the language has, and the same
 * placeholders — read from the translations documents merged per locale as the server merges them.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createI18n } from '../../../engine/core/i18n'

const translationsDir = join(__dirname, '../../../schemas/i18n')
const pluralSuffix = /_(zero|one|two|few|many|other)$/
const checkedLocales = ['es', 'it', 'pt'] as const

interface TranslationsDocument {
  kind: string
  id: string
  locale?: string
  resources: Record<string, string>
}

/** Every translations document's texts, merged per locale (the server's merge, file order aside). */
function textsByLocale(): Map<string, Record<string, string>> {
  const merged = new Map<string, Record<string, string>>()
  for (const file of readdirSync(translationsDir).filter((name) => name.endsWith('.json')).sort()) {
    const document = JSON.parse(readFileSync(join(translationsDir, file), 'utf8')) as TranslationsDocument
    if (document.kind !== 'translations') continue
    const locale = document.locale ?? document.id
    merged.set(locale, { ...merged.get(locale), ...document.resources })
  }
  return merged
}

/** The keys a locale needs for one English key: the key itself, or one per plural category. */
function keysNeededFor(englishKey: string, locale: string): string[] {
  if (!pluralSuffix.test(englishKey)) return [englishKey]
  const base = englishKey.replace(pluralSuffix, '')
  return new Intl.PluralRules(locale).resolvedOptions().pluralCategories.map((category) => `${base}_${category}`)
}

/** A text's `{{placeholders}}` with their format (`{{date, datetime}}` → "date, datetime"): a
 * translation that drops the format would show a raw ISO date where English shows a local one. */
function placeholdersOf(text: string): string[] {
  const placeholders = [...text.matchAll(/\{\{([^}]+)\}\}/g)].map((match) =>
    match[1]
      .split(',')
      .map((part) => part.trim())
      .join(', '),
  )
  return [...new Set(placeholders)].sort()
}

const texts = textsByLocale()
const english = texts.get('en') ?? {}

describe('es, it and pt have a text for every English text (Spain, Italy and Curaçao show no raw keys)', () => {
  it('the English texts are there to compare against', () => {
    expect(Object.keys(english).length).toBeGreaterThan(300)
  })

  it.each(checkedLocales)('%s: every English key has a non-empty text, with a form for each plural category of the language', (locale) => {
    const localeTexts = texts.get(locale) ?? {}
    const missing = Object.keys(english)
      .flatMap((key) => keysNeededFor(key, locale))
      .filter((key) => typeof localeTexts[key] !== 'string' || localeTexts[key].trim() === '')
    expect([...new Set(missing)]).toEqual([])
  })

  it.each(checkedLocales)('%s: every text has exactly the {{placeholders}} of its English text, formats included', (locale) => {
    const localeTexts = texts.get(locale) ?? {}
    const mismatches = Object.entries(english).flatMap(([key, englishText]) =>
      keysNeededFor(key, locale)
        .filter((localeKey) => typeof localeTexts[localeKey] === 'string')
        .filter((localeKey) => placeholdersOf(localeTexts[localeKey]).join() !== placeholdersOf(englishText).join())
        .map((localeKey) => `${localeKey}: ${JSON.stringify(placeholdersOf(localeTexts[localeKey]))} ≠ en ${JSON.stringify(placeholdersOf(englishText))}`),
    )
    expect(mismatches).toEqual([])
  })

  it.each(checkedLocales)('%s: plural texts render through the engine for 1, 2 and a million (one, other and many)', (locale) => {
    const i18n = createI18n({ locale, resources: texts.get(locale) ?? {} })
    const pluralKeys = [...new Set(Object.keys(english).filter((key) => pluralSuffix.test(key)).map((key) => key.replace(pluralSuffix, '')))]
    expect(pluralKeys.length).toBeGreaterThan(0)
    for (const key of pluralKeys)
      for (const count of [1, 2, 1_000_000]) {
        const text = i18n.t(key, { count })
        expect(text, `${key} for ${count}`).not.toBe(key)
        expect(text, `${key} for ${count}`).toContain(String(count))
      }
  })
})
