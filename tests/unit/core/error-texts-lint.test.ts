/**
 * Every text filled, every error text saying what went wrong (issue 31 item 6: "Enter or more."
 * for a too-small deposit in every language). The lint reads the server's error answers from its
 * source and the engine's calls that build a key from a prefix; it fails on a placeholder the call
 * site does not fill (the payload the server sends, or the values the code passes), on a
 * `server.error.*` text that is a generic failure text, and on a code a punter-facing part of the
 * server sends without a text of its own.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadDocuments } from '../../../tools/schema-lint/documents/loader'
import { errorTextFindings, scanServerErrors, serverErrorKeyUses, type ServerErrorSend } from '../../../tools/schema-lint/rules/error-texts'
import { scanCodeUses, translationFindings, type KeyUse } from '../../../tools/schema-lint/rules/translations'

const ROOT = join(import.meta.dirname, '..', '..', '..')
type Doc = { kind: string; id: string; file: string; source: Record<string, unknown> }
const texts = (locale: string, resources: Record<string, string>): Doc => ({ kind: 'translations', id: locale, file: `i18n/${locale}.json`, source: { kind: 'translations', id: locale, locale, resources } })
const GENERIC = { 'common.request.error': 'Something went wrong.', 'server.error.undefined': 'Something went wrong.', 'form.error.submit': 'We could not send the form.', 'form.error.invalid': 'Not valid.' }

/** The placeholder findings of some uses against some texts (the catalogue's keys left aside). */
function unfilled(resources: Record<string, string>, codeUses: KeyUse[], serverUses: KeyUse[] = []) {
  return translationFindings([texts('en', resources)], { codeUses, serverUses })
    .map((f) => `${f.file}:${f.pointer}: ${f.message}`)
    .filter((line) => line.includes('does not fill'))
}

describe('a placeholder no caller fills at the call site fails the lint', () => {
  const minimum = { 'form.error.minimum': 'Enter {{limit}} or more.' }
  it('a key built from a prefix with nothing passed (the form showing a server field error with {}) fails for every key it can build', () => {
    const use: KeyUse = { key: 'form.error.*', prefix: 'form.error.', file: 'engine/renderers/form/texts.ts', pointer: '/line/41', values: [] }
    expect(unfilled({ ...minimum, 'form.error.required': 'Required.' }, [use])).toEqual([
      'engine/renderers/form/texts.ts:/line/41: text "form.error.minimum" uses {{limit}}, which this caller does not fill (it fills: nothing)',
    ])
  })

  it('a server field error without the value its text needs fails where the server sends it; with it, it passes', () => {
    const send = (values: string[]): ServerErrorSend => ({ code: 'minimum', field: true, file: 'server/payments/index.ts', line: 143, values })
    const records = [texts('en', minimum)]
    expect(unfilled(minimum, [], serverErrorKeyUses(records, [send([])]))).toEqual([
      'server/payments/index.ts:/line/143: text "form.error.minimum" uses {{limit}}, which this caller does not fill (it fills: nothing)',
    ])
    expect(unfilled(minimum, [], serverErrorKeyUses(records, [send(['limit'])]))).toEqual([])
  })

  it('the scans read the real code: the deposit minimum carries its limit, and the form passes what a field error carries', () => {
    const deposit = scanServerErrors().find((s) => s.file === 'server/payments/handlers.ts' && s.code === 'minimum')
    expect(deposit).toMatchObject({ field: true, values: ['limit'] })
    const password = scanServerErrors().find((s) => s.file === 'server/signup/rules.ts' && s.code === 'minLength')
    expect(password?.values).toEqual(['limit'])
    const form = scanCodeUses().filter((u) => u.file === 'engine/renderers/form/texts.ts' && u.prefix !== undefined)
    expect(form.map((u) => u.prefix).sort()).toEqual(['form.error.', 'form.error.', 'server.error.'])
    // none passes a literal that leaves a placeholder out: each passes the values it was given
    expect(form.every((u) => u.values === undefined)).toBe(true)
  })
})

describe('an error text says what went wrong', () => {
  const send = (code: string, file = 'server/regulation/router.ts', field = false): ServerErrorSend => ({ code, field, file, line: 7, values: [] })

  it('a server.error text that is a generic failure text fails, in the locale where it is', () => {
    const findings = errorTextFindings([texts('es', { ...GENERIC, 'server.error.STAKE_TOO_LOW': 'Something went wrong.' })], [])
    expect(findings.map((f) => `${f.file}:${f.pointer}: ${f.message}`)).toEqual([
      'i18n/es.json:/resources/server.error.STAKE_TOO_LOW: server.error.STAKE_TOO_LOW in es is the generic failure text ("Something went wrong."): say what went wrong',
    ])
  })

  it('a code a punter-facing part sends without its own text fails where it is sent; an operator part, a transport code and a code spec §8 shows as the generic text do not', () => {
    const records = [texts('en', GENERIC), texts('da', GENERIC)]
    const findings = errorTextFindings(records, [send('SELF_EXCLUSION_NOT_OFFERED'), send('STALE_DRAFT', 'server/store/store.ts'), send('MALFORMED_JSON'), send('TOKEN_NOT_FOUND')])
    expect(findings.map((f) => `${f.file}:${f.pointer}: ${f.message}`)).toEqual([
      'server/regulation/router.ts:/line/7: error SELF_EXCLUSION_NOT_OFFERED sent here has no text server.error.SELF_EXCLUSION_NOT_OFFERED in en, da: the punter would read only a generic failure text',
    ])
    expect(errorTextFindings([texts('en', { ...GENERIC, 'server.error.SELF_EXCLUSION_NOT_OFFERED': 'Choose one of the periods offered.' })], [send('SELF_EXCLUSION_NOT_OFFERED')])).toEqual([])
  })

  it('a field error is said by its form.error text when there is no server.error one', () => {
    expect(errorTextFindings([texts('en', { ...GENERIC, 'form.error.multipleOf': 'Use at most two decimal places.' })], [send('multipleOf', 'server/payments/withdrawal-routes.ts', true)])).toEqual([])
  })

  it('the shipped texts and the server pass both rules', () => {
    const { records } = loadDocuments(join(ROOT, 'schemas'))
    expect(errorTextFindings(records)).toEqual([])
    expect(translationFindings(records).filter((f) => f.message.includes('does not fill') || f.message.includes('does not carry'))).toEqual([])
  })
})
