/**
 * Error texts that say what went wrong, filled with what the server sends (issue 31 item 6:
 * "Enter or more." for a too-small deposit in every language, which the lint missed because the
 * code that shows a field error passed no values and nothing knew the server sends `limit`).
 *
 * The server's error answers are read from its source (text only; the lint imports no server
 * code): every `sendError(res, status, 'CODE', payload?)` / `fail(res, 'CODE', payload?)`, every
 * refusal `{ ok: false, httpStatus, code: 'CODE', payload? }` and every field error literal
 * `{ field, code: 'CODE', …values }`, with the payload's literal keys. From
 * them:
 *
 * - `serverErrorKeyUses`: each send is a use of the text the browser shows for it (field errors:
 *   `server.error.CODE`, else `form.error.CODE`, as engine/renderers/form/texts.ts does; other
 *   codes: `errorMessageKey`), filling the payload's keys; translations.ts checks that these fill
 *   every placeholder of the text. A payload that is not a literal is not judged.
 * - `errorTextFindings`, the rule "an error says what went wrong", checkable as:
 *   1. no `server.error.CODE` text is, in any locale, one of that locale's generic failure texts
 *      (`common.request.error`, `server.error.undefined`, `form.error.submit`, `form.error.invalid`);
 *   2. every code a punter-facing part of the server sends has its own text in every locale, so
 *      the punter never gets the generic one for a specific failure. Not punter-facing: the
 *      operators' and infrastructure parts (NOT_PUNTER_FACING), transport codes a browser of ours
 *      never causes (TRANSPORT_CODES), and the codes spec §8 itself shows as the generic text
 *      (errorMessageKey → server.error.undefined).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { errorMessageKey } from '../../../kernel/core/error-keys'
import type { Finding } from '../finding'
import { literalKeys } from './literal-keys'
import type { KeyUse } from './key-use'

type Records = { kind: string; id: string; file: string; source: Record<string, unknown> }[]

const ROOT = resolve(import.meta.dirname, '..', '..', '..')

export interface ServerErrorSend {
  code: string
  file: string
  line: number
  /** The payload's keys; undefined when the payload is not a literal. */
  values?: string[]
  /** A field error (`{field, code}`): the form shows it on the field. */
  field: boolean
}

/** Paths (from the repository root) whose answers no punter's page shows. */
export const NOT_PUNTER_FACING = [
  'server/admin/', // the operators' console and studio
  'server/store/', // drafts, reviews, releases (operators)
  'server/ops/', // health and metrics
  'server/services/', // analytics, error and replay ingest (the page sends, never shows)
  'server/documents/', // the documents API: the engine shows its error or offline page
  'server/validators/', // validator modules: the engine shows its "form unavailable"
  'server/messages/admin.ts', // operators' messages
  'server/app.ts', // the static client
  'server/http/page-route.ts', // the static client's pages (from server/app.ts)
  'server/http/error-envelope.ts', // the app's last error handler (from server/app.ts): storage and audit-log outages
  'server/feed/router.ts', // development controls of the feed
  'server/regulation/dev-clock.ts', // development clock
  'server/signup/outbox.ts', // development outbox
]

/** Transport-level refusals a page of ours never causes (it always sends JSON of our shapes). */
export const TRANSPORT_CODES = new Set(['MALFORMED_JSON', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE', 'BAD_HEADER', 'METHOD_NOT_ALLOWED'])

const GENERIC_KEYS = ['common.request.error', 'server.error.undefined', 'form.error.submit', 'form.error.invalid']

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.ts$/.test(entry) && !entry.endsWith('.d.ts') ? [path] : []
  })
}

const SEND = /(?<![\w$.])(?:sendError|fail)\(\s*res\s*,\s*(?:\d{3}\s*,\s*)?'([A-Za-z_]+)'\s*(\)|,\s*\{|,)?/g
const FIELD = /\{\s*field(?:\s*:[^,{}]+)?\s*,\s*code:\s*'([A-Za-z_]+)'/g
/** A refusal a route answers later (`{ ok: false, httpStatus, code, payload? }`). */
const REFUSAL = /\{\s*ok:\s*false\s*,\s*httpStatus:\s*\d{3}\s*,\s*code:\s*'([A-Za-z_]+)'\s*(\}|,\s*payload:\s*\{|,)/g

/** Every error answer with a literal code in the server's source (engine/core's date rules too:
 * the server sends their field errors). */
export function scanServerErrors(dirs = [join(ROOT, 'server'), join(ROOT, 'kernel', 'core', 'date-rules.ts')]): ServerErrorSend[] {
  const sends: ServerErrorSend[] = []
  for (const path of dirs.flatMap((dir) => (statSync(dir).isDirectory() ? sourceFiles(dir) : [dir]))) {
    const text = readFileSync(path, 'utf8')
    const file = relative(ROOT, path)
    const lineOf = (index: number) => text.slice(0, index).split('\n').length
    for (const match of text.matchAll(SEND)) {
      const values = match[2] === ')' ? [] : match[2]?.endsWith('{') ? literalKeys(text, match.index + match[0].length - 1) : undefined
      sends.push({ code: match[1], file, line: lineOf(match.index), values, field: false })
    }
    for (const match of text.matchAll(REFUSAL)) {
      const values = match[2] === '}' ? [] : match[2].endsWith('{') ? literalKeys(text, match.index + match[0].length - 1) : undefined
      sends.push({ code: match[1], file, line: lineOf(match.index), values, field: false })
    }
    for (const match of text.matchAll(FIELD)) {
      const keys = literalKeys(text, match.index)
      sends.push({ code: match[1], file, line: lineOf(match.index), values: keys?.filter((k) => k !== 'field' && k !== 'code'), field: true })
    }
  }
  return sends
}

let cached: ServerErrorSend[] | undefined
const serverSends = () => (cached ??= scanServerErrors())

/** The text the browser shows for a send, in a locale that has these keys. */
function displayKey(send: Pick<ServerErrorSend, 'code' | 'field'>, has: (key: string) => boolean): string {
  if (send.field) return has(`server.error.${send.code}`) || !has(`form.error.${send.code}`) ? `server.error.${send.code}` : `form.error.${send.code}`
  return errorMessageKey(send.code)
}

type LocaleTexts = Map<string, Map<string, string>>

function textsByLocale(records: Records): LocaleTexts {
  const locales: LocaleTexts = new Map()
  for (const record of records.filter((r) => r.kind === 'translations')) {
    const locale = ((record.source.locale as string | undefined) ?? record.id) as string
    const texts = locales.get(locale) ?? new Map<string, string>()
    for (const [key, text] of Object.entries((record.source.resources ?? {}) as Record<string, string>)) texts.set(key, text)
    locales.set(locale, texts)
  }
  return locales
}

/** The server's sends as uses of the texts they show, for the placeholder check. */
export function serverErrorKeyUses(records: Records, sends = serverSends()): KeyUse[] {
  const locales = [...textsByLocale(records).values()]
  const has = (key: string) => locales.some((texts) => texts.has(key))
  return sends.map((send) => ({ key: displayKey(send, has), file: send.file, pointer: `/line/${send.line}`, values: send.values, presenceCheckedElsewhere: true }))
}

const punterFacing = (send: ServerErrorSend) => !NOT_PUNTER_FACING.some((path) => send.file === path || (path.endsWith('/') && send.file.startsWith(path)))

export function errorTextFindings(records: Records, sends = serverSends()): Finding[] {
  const findings: Finding[] = []
  const add = (file: string, pointer: string, message: string) => findings.push({ file, pointer, message, rule: 'error-texts', severity: 'error' })
  const locales = textsByLocale(records)
  const fileOf = new Map<string, string>()
  for (const record of records.filter((r) => r.kind === 'translations'))
    for (const key of Object.keys((record.source.resources ?? {}) as object)) fileOf.set(`${(record.source.locale as string | undefined) ?? record.id}\u0000${key}`, record.file)
  for (const [locale, texts] of locales) {
    const generic = new Set(GENERIC_KEYS.map((key) => texts.get(key)).filter((text): text is string => typeof text === 'string'))
    for (const [key, text] of texts)
      if (key.startsWith('server.error.') && key !== 'server.error.undefined' && generic.has(text))
        add(fileOf.get(`${locale}\u0000${key}`) ?? '', `/resources/${key}`, `${key} in ${locale} is the generic failure text ("${text}"): say what went wrong`)
  }
  const has = (key: string) => [...locales.values()].some((texts) => texts.has(key))
  const reported = new Set<string>()
  for (const send of sends.filter(punterFacing)) {
    if (TRANSPORT_CODES.has(send.code) || reported.has(send.code)) continue
    const key = displayKey(send, has)
    if (key === 'server.error.undefined') continue
    const lacking = [...locales].filter(([, texts]) => !texts.has(key)).map(([locale]) => locale)
    if (lacking.length === 0) continue
    reported.add(send.code)
    const named = send.field && key.startsWith('server.') ? `${key} or form.error.${send.code}` : key
    add(send.file, `/line/${send.line}`, `error ${send.code} sent here has no text ${named} in ${lacking.join(', ')}: the punter would read only a generic failure text`)
  }
  return findings
}
