/**
 * The translations lint (tools/schema-lint/rules/translations.ts): a declared locale without texts,
 * a key no locale has, a plural form a locale's rules ask for, placeholders that differ between
 * locales or that no caller fills all fail, naming the file and the JSON pointer.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadDocuments } from '../../../tools/schema-lint/documents/loader'
import { scanCodeUses, translationFindings, type KeyUse } from '../../../tools/schema-lint/rules/translations'

const ROOT = join(import.meta.dirname, '..', '..', '..')

type Doc = { kind: string; id: string; file: string; source: Record<string, unknown> }
const texts = (locale: string, resources: Record<string, string>, id = locale): Doc => ({
  kind: 'translations',
  id,
  file: `i18n/${id}.json`,
  source: { kind: 'translations', id, locale, resources },
})
const popup = (body: unknown[]): Doc => ({ kind: 'popup', id: 'denied', file: 'popups/denied.json', source: { kind: 'popup', id: 'denied', title: 'common.ok', body } })
const jurisdiction = (locales: string[]): Doc => ({ kind: 'jurisdiction', id: 'x', file: 'jurisdictions/x/jurisdiction.json', source: { kind: 'jurisdiction', id: 'x', locales } })

/** Every key spec §8's catalogue needs, in a locale, so a test sees only what it sets up. */
const catalogueTexts = (locale: string) =>
  Object.fromEntries(
    [...new Set(translationFindings([texts(locale, {})], { codeUses: [], serverUses: [] }).map((f) => JSON.parse(f.message.match(/text key ("[^"]+")/)![1]) as string))].map((key) => [key, 'text']),
  )
const lint = (docs: Doc[], codeUses: KeyUse[] = []) => {
  const withCatalogue = docs.map((d) => (d.kind === 'translations' ? { ...d, source: { ...d.source, resources: { ...catalogueTexts('en'), ...(d.source.resources as object) } } } : d))
  return translationFindings(withCatalogue, { codeUses, serverUses: [] }).map((f) => `${f.file}:${f.pointer}: ${f.message}`)
}

describe('placeholders a caller never fills fail the lint', () => {
  it('a {{disabledUntil}} in a text shown without values fails at the text that shows it', () => {
    const findings = lint([popup([{ type: 'text', text: 'login.denied' }]), texts('en', { 'common.ok': 'OK', 'login.denied': 'Not before {{disabledUntil}}.' })])
    expect(findings).toEqual(['popups/denied.json:/body/0/text: text "login.denied" uses {{disabledUntil}}, which this caller does not fill (it fills: nothing)'])
  })

  it('the same text passes when the Text fills it through values', () => {
    const body = [{ type: 'text', text: { key: 'login.denied', values: { disabledUntil: { $: 'data.until' } } } }]
    expect(lint([popup(body), texts('en', { 'common.ok': 'OK', 'login.denied': 'Not before {{disabledUntil, datetime}}.' })])).toEqual([])
  })

  it("an error code's text may use only what that code's answer carries", () => {
    const ok = lint([texts('en', { 'server.error.LOGIN_DENIED_BY_PERMISSION': 'Not before {{disabledUntil, datetime}}.' })])
    expect(ok).toEqual([])
    const wrong = lint([texts('en', { 'server.error.LOGIN_DENIED_BY_PERMISSION': 'Not before {{until}}.' })])
    expect(wrong).toEqual([
      'i18n/en.json:/resources/server.error.LOGIN_DENIED_BY_PERMISSION: text "server.error.LOGIN_DENIED_BY_PERMISSION" uses {{until}}, which spec §8 code LOGIN_DENIED_BY_PERMISSION does not carry (it carries: disabledUntil)',
    ])
  })

  it('a t() call in code must fill the placeholders of its key', () => {
    const uses: KeyUse[] = [
      { key: 'info.page', file: 'engine/a.tsx', pointer: '/line/3', values: ['page'] },
      { key: 'info.page', file: 'engine/b.tsx', pointer: '/line/9', values: [] },
    ]
    expect(lint([texts('en', { 'info.page': 'Information: {{page}}' })], uses)).toEqual([
      'engine/b.tsx:/line/9: text "info.page" uses {{page}}, which this caller does not fill (it fills: nothing)',
    ])
  })

  it('a key has the same placeholders, with the same format, in every locale', () => {
    const findings = lint([texts('en', { 'a.until': 'until {{date, datetime}}' }), texts('ru', { ...catalogueTexts('ru'), 'a.until': 'до {{date}}' })])
    expect(findings).toEqual(['i18n/ru.json:/resources/a.until: placeholders of "a.until" in ru ({{date}}) differ from en ({{date, datetime}})'])
  })

  it('an unknown format name fails', () => {
    expect(lint([texts('en', { 'a.until': 'until {{date, fancy}}' })])).toEqual(['i18n/en.json:/resources/a.until: unknown format "fancy" in {{date, fancy}} of "a.until" (en)'])
  })
})

describe('plural keys have every form their locale asks for', () => {
  const matches = (locale: string, forms: string[]) => texts(locale, { ...catalogueTexts(locale), ...Object.fromEntries(forms.map((f) => [`lobby.matches_${f}`, `{{count}} ${f}`])) })

  it('ru and be need one/few/many/other; da one/other', () => {
    expect(lint([matches('en', ['one', 'other']), matches('da', ['one', 'other']), matches('ru', ['one', 'few', 'many', 'other']), matches('be', ['one', 'few', 'many', 'other'])])).toEqual([])
    expect(lint([matches('en', ['one', 'other']), matches('be', ['one', 'few', 'other'])])).toEqual([
      'i18n/be.json:/resources/lobby.matches_many: plural key "lobby.matches" lacks the many form(s) that be needs',
    ])
  })

  it('es, it and pt need many too (i18next asks for it at a million)', () => {
    expect(lint([matches('en', ['one', 'other']), matches('pt', ['one', 'other'])])).toEqual([
      'i18n/pt.json:/resources/lobby.matches_many: plural key "lobby.matches" lacks the many form(s) that pt needs',
    ])
  })
})

describe('every locale a site offers has texts, and every key the code uses exists', () => {
  it('a locale a jurisdiction declares without any translations fails at the declaration', () => {
    expect(lint([jurisdiction(['da', 'en']), texts('en', {})])).toEqual(['jurisdictions/x/jurisdiction.json:/locales/0: locale "da" is offered here but has no translations (add i18n/da.json)'])
  })

  it('a locale the language page offers without translations fails at its button', () => {
    const page: Doc = {
      kind: 'screen',
      id: 'account-language',
      file: 'screens/account-language.json',
      source: { kind: 'screen', body: [{ type: 'button', label: 'common.ok', actions: [{ do: 'locale.set', with: { locale: 'it' } }] }] },
    }
    expect(lint([page, texts('en', { 'common.ok': 'OK' })])).toEqual(['screens/account-language.json:/body/0/actions/0/with/locale: locale "it" is offered here but has no translations (add i18n/it.json)'])
  })

  it('a key the code asks for that no locale has fails, naming the code that asks', () => {
    const uses: KeyUse[] = [{ key: 'shell.nowhere', file: 'engine/renderers/shell/Header.tsx', pointer: '/line/22', values: [] }]
    expect(lint([texts('en', {}), texts('ru', catalogueTexts('ru'))], uses)).toEqual([
      'i18n/en.json:/resources/shell.nowhere: text key "shell.nowhere" (used by engine/renderers/shell/Header.tsx:/line/22) is missing in every locale (en, ru)',
    ])
  })

  it("every code of spec §8 needs a text: without one the lint names the code", () => {
    const findings = translationFindings([texts('en', {})], { codeUses: [] }).map((f) => f.message)
    expect(findings).toContain('text key "server.error.LOGIN_DENIED_BY_PERMISSION" (used by spec §8 code LOGIN_DENIED_BY_PERMISSION) is missing in every locale (en)')
    expect(findings).toContain('text key "server.error.undefined" (used by spec §8 code EMPTY_TOKEN) is missing in every locale (en)')
    expect(findings).toContain('text key "identification.lockReason.yankee" (used by spec §8 lock reason yankee) is missing in every locale (en)')
  })
})

describe('the code scan and the shipped documents', () => {
  it("reads t('key', { … }) calls in engine/ with the values they pass", () => {
    const uses = scanCodeUses()
    expect(uses.find((u) => u.key === 'form.date.hint' && u.file.endsWith('theme.tsx'))?.values).toEqual(['min', 'max'])
    expect(uses.find((u) => u.key === 'shell.brand')?.values).toEqual([])
  })

  // how fast the rule is (1.5 s budget) is `npm run bench checks`, not a test: a loaded machine failed it
  it('the shipped en, ru, da and be texts pass the rule', () => {
    const { records } = loadDocuments(join(ROOT, 'schemas'))
    const findings = translationFindings(records)
    const ours = findings.filter((f) => /^i18n\/(en|ru|da|be)[-.]/.test(f.file) || !f.file.startsWith('i18n/'))
    expect(ours).toEqual([])
  })
})
