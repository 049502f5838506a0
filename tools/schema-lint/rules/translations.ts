/**
 * Translation lint: raw keys and literal `{{placeholders}}` on a punter's screen are caught here,
 * before a release, instead of on the landed site.
 *
 * - Every locale a jurisdiction declares or the language page offers has translations.
 * - Every key the code uses (`t('…')`/`tr('…')` literals in engine/, the form renderer's table),
 *   every display key of spec §8's error catalogue and every key a flow's form schema names exists
 *   in every locale that ships texts. (Keys of document Text fields: lint.ts's own key check.)
 * - A plural key has every form its locale's plural rules ask for (Intl.PluralRules: ru/be
 *   one/few/many/other; es/it/pt also many, which i18next asks for at a million).
 * - Every SMS and e-mail template the server sends (kernel/messages/outbox-templates.ts) has its
 *   texts, and its sender fills each of their placeholders.
 * - A key's placeholders are the same set (with the same format) in every locale, and every known
 *   caller fills them: a Text's `values`/`count`, a `t('key', { … })` call, an error code's payload.
 *
 * Findings read `file:json-pointer: message` like every other rule; a missing key points at the
 * translations file of the locale that should get it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { catalogueKeys } from '../../../kernel/core/error-catalogue'
import { FORM_TEXTS } from '../../../kernel/core/form-texts'
import { OUTBOX_TEMPLATES, outboxKeys, type OutboxTemplateName } from '../../../kernel/messages/outbox-templates'
import type { Finding } from '../finding'
import { serverErrorKeyUses } from './error-texts'
import { literalKeys } from './literal-keys'
import type { KeyUse } from './key-use'

export { literalKeys } from './literal-keys'

/** What the rule reads of a document record (DocumentRecord has more). */
type Records = { kind: string; id: string; file: string; source: Record<string, unknown> }[]

export type { KeyUse } from './key-use'

export interface TranslationLintOptions {
  /** Key uses in code; defaults to a scan of engine/ (cached per process). */
  codeUses?: KeyUse[]
  /** The server's error answers as uses of their texts; defaults to a scan of server/ (./error-texts.ts). */
  serverUses?: KeyUse[]
}

const ROOT = resolve(import.meta.dirname, '..', '..', '..')
const TEXT_KEYS = new Set(['text', 'label', 'title', 'body', 'empty', 'badge', 'alt', 'notice', 'subtitle', 'submitLabel'])
const UI_TEXT_KEYS = new Set(['ui:help', 'ui:placeholder', 'ui:title', 'ui:description'])
const KEY_SHAPE = /^[a-z][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)+$/
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/
const KNOWN_FORMATS = new Set(['datetime', 'percent', 'number', 'currency', 'relativetime', 'list', 'lowercase', 'uppercase'])

const base = (key: string) => key.replace(PLURAL_SUFFIX, '')
const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1')
const isBinding = (value: unknown) => value !== null && typeof value === 'object' && !Array.isArray(value) && '$' in value
const localeOf = (record: Records[number]) => ((record.source.locale as string | undefined) ?? record.id) as string

/** `{{name}}` and `{{name, format}}` of a text, as "name" / "name, format". */
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([^}]+?)\s*\}\}/g)].map((m) =>
    m[1]
      .split(',')
      .map((part) => part.trim())
      .join(', '),
  )
}
const nameOf = (placeholder: string) => placeholder.split(',')[0].trim()

// ---------------------------------------------------------------------------------------------
// Where keys are used

/** Key uses in documents: Text fields, notify messages, form schema titles and ui texts. */
export function documentUses(records: Records): KeyUse[] {
  const uses: KeyUse[] = []
  const visit = (record: Records[number], value: unknown, pointer: string, key: string | null, inForm: boolean) => {
    if (Array.isArray(value)) {
      if (key === 'ui:enumNames') value.forEach((v, i) => typeof v === 'string' && KEY_SHAPE.test(v) && uses.push({ key: v, file: record.file, pointer: `${pointer}/${i}`, values: [] }))
      else value.forEach((item, i) => visit(record, item, `${pointer}/${i}`, key, inForm))
      return
    }
    if (typeof value === 'string') {
      if (key === null) return
      if (inForm ? (key === 'title' || UI_TEXT_KEYS.has(key)) && KEY_SHAPE.test(value) : TEXT_KEYS.has(key))
        uses.push({ key: value, file: record.file, pointer, values: [], presenceCheckedElsewhere: !inForm })
      return
    }
    if (value === null || typeof value !== 'object' || isBinding(value)) return
    const object = value as Record<string, unknown>
    if (key !== null && TEXT_KEYS.has(key) && typeof object.key === 'string') {
      const values = Object.keys((object.values as object | undefined) ?? {})
      if (object.count !== undefined) values.push('count')
      uses.push({ key: object.key, file: record.file, pointer: `${pointer}/key`, values, presenceCheckedElsewhere: !inForm })
      return
    }
    if (object.do === 'notify' && object.with && typeof (object.with as Record<string, unknown>).message === 'string') {
      const params = object.with as { message: string; values?: object }
      uses.push({ key: params.message, file: record.file, pointer: `${pointer}/with/message`, values: Object.keys(params.values ?? {}), presenceCheckedElsewhere: true })
    }
    for (const [k, v] of Object.entries(object)) visit(record, v, `${pointer}/${escapePointer(k)}`, k, inForm || k === 'schema' || k === 'uiSchema')
  }
  for (const record of records) if (record.kind !== 'translations') visit(record, record.source, '', null, false)
  return uses
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.(ts|tsx)$/.test(entry) ? [path] : []
  })
}

/** Key uses in engine code: `t('key'…)`, `tr('key'…)`, `.t('key'…)` with a literal key, and the
 * keys of the form renderer's fallback table (the form asks for them by name or by pattern). */
export function scanCodeUses(engineDir = join(ROOT, 'engine')): KeyUse[] {
  const uses: KeyUse[] = []
  for (const path of sourceFiles(engineDir)) {
    const text = readFileSync(path, 'utf8')
    const file = relative(ROOT, path)
    for (const match of text.matchAll(/(?<![\w$])(?:t|tr|translate)\(\s*'([a-z][A-Za-z0-9_.-]*\.[A-Za-z0-9_.-]+)'\s*(\)|,\s*\{)?/g)) {
      const line = text.slice(0, match.index).split('\n').length
      const values = match[2] === ')' ? [] : match[2] ? literalKeys(text, match.index + match[0].length - 1) : undefined
      uses.push({ key: match[1], file, pointer: `/line/${line}`, values })
    }
    // a key built from a literal prefix and one expression: the call fills the same for every key it can build
    for (const match of text.matchAll(/(?<![\w$])(?:t|tr|translate)\(\s*`([a-z][A-Za-z0-9_.-]*\.)\$\{[^}`]+\}`\s*(\)|,\s*\{)?/g)) {
      const line = text.slice(0, match.index).split('\n').length
      const values = match[2] === ')' ? [] : match[2] ? literalKeys(text, match.index + match[0].length - 1) : undefined
      uses.push({ key: `${match[1]}*`, prefix: match[1], file, pointer: `/line/${line}`, values })
    }
  }
  for (const key of Object.keys(FORM_TEXTS)) uses.push({ key, file: 'kernel/core/form-texts.ts', pointer: `/FORM_TEXTS/${escapePointer(key)}` })
  return uses
}

let cachedCodeUses: KeyUse[] | undefined
const codeUses = () => (cachedCodeUses ??= scanCodeUses())

// ---------------------------------------------------------------------------------------------
// The rule

interface LocaleTexts {
  /** key → text, merged over the locale's documents */
  texts: Map<string, string>
  /** key → the file that holds it */
  fileOf: Map<string, string>
  /** the file new keys of this locale belong in (the one named after the locale, else the first) */
  home: string
}

function textsByLocale(records: Records): Map<string, LocaleTexts> {
  const locales = new Map<string, LocaleTexts>()
  for (const record of [...records].filter((r) => r.kind === 'translations').sort((a, b) => a.file.localeCompare(b.file))) {
    const locale = localeOf(record)
    const entry = locales.get(locale) ?? { texts: new Map(), fileOf: new Map(), home: record.file }
    if (record.id === locale) entry.home = record.file
    for (const [key, text] of Object.entries((record.source.resources ?? {}) as Record<string, string>)) {
      entry.texts.set(key, text)
      entry.fileOf.set(key, record.file)
    }
    locales.set(locale, entry)
  }
  return locales
}

/** Locales a jurisdiction declares or the language page offers, with where each is declared. */
function declaredLocales(records: Records): Map<string, { file: string; pointer: string }> {
  const declared = new Map<string, { file: string; pointer: string }>()
  for (const record of records) {
    if (record.kind === 'jurisdiction')
      ((record.source.locales ?? []) as string[]).forEach((locale, i) => declared.has(locale) || declared.set(locale, { file: record.file, pointer: `/locales/${i}` }))
    const visit = (value: unknown, pointer: string) => {
      if (Array.isArray(value)) return value.forEach((v, i) => visit(v, `${pointer}/${i}`))
      if (value === null || typeof value !== 'object') return
      const object = value as Record<string, unknown>
      const locale = (object.with as { locale?: unknown } | undefined)?.locale
      if (object.do === 'locale.set' && typeof locale === 'string' && !declared.has(locale)) declared.set(locale, { file: record.file, pointer: `${pointer}/with/locale` })
      for (const [k, v] of Object.entries(object)) visit(v, `${pointer}/${escapePointer(k)}`)
    }
    if (record.kind === 'screen' || record.kind === 'popup' || record.kind === 'menu' || record.kind === 'footer') visit(record.source, '')
  }
  return declared
}

/** The forms (one, few …) of a base key in a locale, or undefined when it has none. */
function formsOf(texts: Map<string, string>, key: string): Map<string, string> | undefined {
  const forms = new Map<string, string>()
  if (texts.has(key)) forms.set('', texts.get(key)!)
  for (const category of ['zero', 'one', 'two', 'few', 'many', 'other']) if (texts.has(`${key}_${category}`)) forms.set(category, texts.get(`${key}_${category}`)!)
  return forms.size > 0 ? forms : undefined
}

const pluralCategories = (locale: string): string[] => {
  try {
    return new Intl.PluralRules(locale).resolvedOptions().pluralCategories as string[]
  } catch {
    return ['one', 'other']
  }
}

/** The SMS and e-mail templates the server sends (issue 34): each text, filled with what its sender passes. */
const outboxUses = () =>
  (Object.keys(OUTBOX_TEMPLATES) as OutboxTemplateName[]).flatMap((name) =>
    Object.values(outboxKeys(name)).map((key) => ({ key: key as string, file: '', pointer: '', values: OUTBOX_TEMPLATES[name].values, source: `the ${name} message (kernel/messages/outbox-templates.ts)` })),
  )

export function translationFindings(records: Records, options: TranslationLintOptions = {}): Finding[] {
  const findings: Finding[] = []
  const add = (file: string, pointer: string, message: string) => findings.push({ file, pointer, message, rule: 'i18n', severity: 'error' })
  const locales = textsByLocale(records)
  const declared = declaredLocales(records)

  for (const [locale, where] of declared)
    if (!locales.has(locale)) add(where.file, where.pointer, `locale ${JSON.stringify(locale)} is offered here but has no translations (add i18n/${locale}.json)`)

  const catalogue = catalogueKeys()
  const uses: KeyUse[] = [
    ...documentUses(records),
    ...(options.codeUses ?? codeUses()),
    ...(options.serverUses ?? serverErrorKeyUses(records)),
    ...catalogue.map((c) => ({ key: c.key, file: '', pointer: '', values: c.values, source: c.source })),
    ...outboxUses(),
  ]

  // presence: code, catalogue and form-schema keys. A key some locale has is already reported
  // for each locale that lacks it (lint.ts: same keys in every locale); here, keys no locale has.
  const reported = new Set<string>()
  for (const use of uses) {
    if (use.presenceCheckedElsewhere || use.prefix !== undefined || reported.has(use.key)) continue
    const lacking = [...locales].filter(([, entry]) => !formsOf(entry.texts, use.key)).map(([locale]) => locale)
    if (lacking.length === 0 || lacking.length < locales.size) continue
    reported.add(use.key)
    const by = use.file ? `${use.file}:${use.pointer}` : (use as { source?: string }).source
    const home = locales.get('en')?.home ?? [...locales.values()][0].home
    add(home, `/resources/${escapePointer(use.key)}`, `text key ${JSON.stringify(use.key)} (used by ${by}) is missing in every locale (${lacking.join(', ')})`)
  }

  // plural forms and placeholder parity, key by key
  const bases = new Set([...locales.values()].flatMap((entry) => [...entry.texts.keys()].map(base)))
  const reference = locales.has('en') ? 'en' : [...locales.keys()][0]
  for (const key of bases) {
    const perLocale = new Map([...locales].flatMap(([locale, entry]) => {
      const forms = formsOf(entry.texts, key)
      return forms ? [[locale, { forms, entry }] as const] : []
    }))
    const plural = [...perLocale.values()].some(({ forms }) => [...forms.keys()].some((c) => c !== ''))
    const setOf = (forms: Map<string, string>) => [...new Set([...forms.values()].flatMap(placeholdersOf))].filter((p) => !plural || p !== 'count').sort()
    const expected = perLocale.get(reference) ?? [...perLocale.values()][0]
    const expectedSet = setOf(expected.forms)
    for (const [locale, { forms, entry }] of perLocale) {
      const file = entry.fileOf.get(forms.has('other') ? `${key}_other` : forms.has('') ? key : `${key}_${[...forms.keys()][0]}`)!
      if (plural) {
        const missing = pluralCategories(locale).filter((c) => !forms.has(c) && !(c === 'other' && forms.has('')))
        if (missing.length > 0) add(file, `/resources/${escapePointer(key)}_${missing[0]}`, `plural key ${JSON.stringify(key)} lacks the ${missing.join(', ')} form(s) that ${locale} needs`)
      }
      const actual = setOf(forms)
      if (actual.join('|') !== expectedSet.join('|'))
        add(file, `/resources/${escapePointer(key)}`, `placeholders of ${JSON.stringify(key)} in ${locale} (${actual.map((p) => `{{${p}}}`).join(' ') || 'none'}) differ from ${reference} (${expectedSet.map((p) => `{{${p}}}`).join(' ') || 'none'})`)
      for (const placeholder of actual) {
        const format = placeholder.split(',')[1]?.trim()
        if (format && !KNOWN_FORMATS.has(format)) add(file, `/resources/${escapePointer(key)}`, `unknown format ${JSON.stringify(format)} in {{${placeholder}}} of ${JSON.stringify(key)} (${locale})`)
      }
    }
  }

  // callers fill every placeholder: each use with known values against the key's placeholders
  const prefixed = (prefix: string) => [...bases].filter((key) => key.startsWith(prefix))
  for (const use of uses.flatMap((u) => (u.prefix === undefined ? [u] : prefixed(u.prefix).map((key) => ({ ...u, key }))))) {
    if (use.values === undefined) continue
    const needed = new Set<string>()
    for (const entry of locales.values()) for (const text of formsOf(entry.texts, use.key)?.values() ?? []) for (const p of placeholdersOf(text)) needed.add(nameOf(p))
    const unfilled = [...needed].filter((name) => !use.values!.includes(name) && !(name === 'count' && use.values!.includes('count')))
    if (unfilled.length === 0) continue
    const list = unfilled.map((name) => `{{${name}}}`).join(', ')
    if (use.file) add(use.file, use.pointer, `text ${JSON.stringify(use.key)} uses ${list}, which this caller does not fill (it fills: ${use.values.join(', ') || 'nothing'})`)
    else {
      const home = [...locales.values()].find((entry) => entry.fileOf.has(use.key))
      add(home?.fileOf.get(use.key) ?? '', `/resources/${escapePointer(use.key)}`, `text ${JSON.stringify(use.key)} uses ${list}, which ${(use as { source?: string }).source} does not carry (it carries: ${use.values.join(', ') || 'nothing'})`)
    }
  }
  return findings
}
