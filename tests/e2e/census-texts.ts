/**
 * What the census judges texts by (issue 9 item 6, issue 34 item 9), shared by census.spec.ts and
 * calendar-popup-census.spec.ts: the shipped translations read from disk (the oracle for what a
 * name must say in a locale), raw keys shown instead of their text, English words under another
 * language.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

const SCHEMAS = resolve(import.meta.dirname, '../../schemas')
/** Common English words that never occur in brand, team or game names on this site. */
const ENGLISH_WORDS = /\b(the|your|you|and|with|this|are|our|please|here|from|will|have)\b/gi

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T

/** The first segments of every translation key ("auth", "page", "lobby"…): a visible token that
 * starts with one of them and has a dot in it is a key that was shown instead of its text. */
function keyPrefixes(): Set<string> {
  const prefixes = new Set<string>()
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith('.json') && !dir.endsWith('kinds')) {
        const doc = readJson<{ kind?: string; resources?: Record<string, string> }>(path)
        if (doc.kind === 'translations') for (const key of Object.keys(doc.resources ?? {})) prefixes.add(key.split('.')[0])
      }
    }
  }
  walk(SCHEMAS)
  return prefixes
}

const KEY_SHAPED = /(?<![\w@/.-])([a-z][a-zA-Z0-9]*)((?:\.[a-zA-Z0-9_-]+)+)(?![\w@/-])/g
const NOT_A_KEY = /\.(test|example|localhost|com|org|net|json|htm|html|js|css|png|svg)$/
let prefixes: Set<string> | undefined

/** The translation keys shown as text in `text` (and a placeholder left unfilled). */
export function rawKeys(text: string): string[] {
  prefixes ??= keyPrefixes()
  const found = new Set<string>()
  for (const match of text.matchAll(KEY_SHAPED)) {
    const token = match[0].replace(/\.$/, '')
    if (prefixes.has(match[1]) && token.includes('.') && !NOT_A_KEY.test(token)) found.add(token)
  }
  if (text.includes('{{')) found.add('{{placeholder}}')
  return [...found]
}

export function englishWords(text: string): string[] {
  return [...text.matchAll(ENGLISH_WORDS)].map((m) => m[0].toLowerCase())
}

/** A text of the shipped translations (every schemas/i18n/<locale>*.json merged), the oracle for
 * what a name must say in that locale; undefined where the locale has none. */
const textsByLocale = new Map<string, Record<string, string>>()
export function shippedText(locale: string, key: string): string | undefined {
  if (!textsByLocale.has(locale)) {
    const dir = join(SCHEMAS, 'i18n')
    const files = readdirSync(dir).filter((f) => f === `${locale}.json` || f.startsWith(`${locale}-`))
    textsByLocale.set(locale, Object.assign({}, ...files.map((f) => readJson<{ resources: Record<string, string> }>(join(dir, f)).resources)))
  }
  return textsByLocale.get(locale)![key]
}

/** The texts a popup is judged by (census-popups.ts): the locale's shipped texts, raw keys, English words. */
export const popupTexts = (locale: string) => ({ text: (key: string) => shippedText(locale, key), rawKeys, englishWords })
