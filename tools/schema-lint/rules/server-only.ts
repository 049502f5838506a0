/**
 * The server-only rule: which fields of each kind never leave the server (the kinds' schemas mark
 * them `x-server-only`; tools/schema-lint/documents/server-only.ts strips them), and an error when a field
 * that looks like a secret or an abuse threshold would still be served — an operator who writes
 * `promoCodes` or an SMS budget somewhere the schema does not mark would otherwise publish it.
 * `npm run schema-lint -- server-only` prints the list.
 */
import { DOCUMENT_KINDS } from '../../../kernel/documents/kinds'
import type { DocumentRecord } from '../documents/loader'
import { serverOnlyFields } from '../documents/server-only'
import type { Finding } from '../finding'

export const SERVER_ONLY_RULE = 'server-only'

/** Keys that name policy an attacker could use or a secret; never in a served copy. */
const SENSITIVE_KEYS = new Set(['promocodes', 'smsbudget', 'serveronly', 'secret', 'secrets', 'apikey', 'privatekey', 'clientsecret'])
/** Subtrees that are data about something else (form schemas, texts): a `password` form field is fine. */
const DATA_KEYS = new Set(['schema', 'uiSchema', 'resources'])

/** Every kind's server-only fields as `kind: /pointer` lines. */
export function serverOnlyListing(): string[] {
  return DOCUMENT_KINDS.flatMap((kind) => serverOnlyFields(kind).map((pointer) => `${kind}: ${pointer}`))
}

const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1')

function sensitivePointers(value: unknown, pointer: string, out: string[]): void {
  if (Array.isArray(value)) return value.forEach((item, i) => sensitivePointers(item, `${pointer}/${i}`, out))
  if (value === null || typeof value !== 'object') return
  for (const [key, child] of Object.entries(value)) {
    if (DATA_KEYS.has(key)) continue
    if (SENSITIVE_KEYS.has(key.toLowerCase())) out.push(`${pointer}/${escape(key)}`)
    else sensitivePointers(child, `${pointer}/${escape(key)}`, out)
  }
}

/** Errors for secret-looking fields left in the copy browsers get. */
export function serverOnlyFindings(records: Pick<DocumentRecord, 'kind' | 'file' | 'served'>[]): Finding[] {
  return records.flatMap((record) => {
    const pointers: string[] = []
    sensitivePointers(record.served, '', pointers)
    return pointers.map((pointer) => ({
      file: record.file,
      pointer,
      severity: 'error' as const,
      rule: SERVER_ONLY_RULE,
      message: `would be served to every browser: mark the field "x-server-only" in the ${record.kind} schema (kernel/documents/kinds.ts) or move it under a server-only field (${serverOnlyFields(record.kind).join(', ') || 'none in this kind'})`,
    }))
  })
}
