/**
 * Server field errors (`{field, code}`) → what rjsf shows on the fields.
 */
import type { ErrorSchema } from '@rjsf/utils'
import type { Result } from '../../../kernel/core/contracts'
import { serverFieldMessage, type Translate } from './texts'

export interface FieldError {
  field: string
  code: string
  /** What the server sent beside them for the text (`limit` of a minimum). */
  limit?: unknown
}

/** An error's values for its text: everything it carries but its field and code. */
const valuesOf = ({ field: _field, code: _code, ...values }: FieldError): Record<string, unknown> => values

const isFieldError = (value: unknown): value is FieldError =>
  typeof value === 'object' && value !== null && typeof (value as FieldError).field === 'string' && typeof (value as FieldError).code === 'string'

/**
 * The field errors a failed Result carries: `details` as `{field, code}[]` or one `{field, code}`
 * (the gateway puts a ValidationError envelope's `payload` there), or `details.payload`.
 */
export function fieldErrorsOf(result: Result<unknown>): FieldError[] {
  if (result.ok) return []
  const candidates = [result.details, (result.details as { payload?: unknown } | undefined)?.payload]
  for (const candidate of candidates) {
    if (Array.isArray(candidate)) {
      const list = candidate.filter(isFieldError)
      if (list.length > 0) return list
    } else if (isFieldError(candidate)) return [candidate]
  }
  return []
}

/** `{field:'address.city', code}` → `{address: {city: {__errors: [message]}}}`. Errors on '' go to the root. */
export function toErrorSchema(errors: readonly FieldError[], tr: Translate): ErrorSchema {
  const root: Record<string, unknown> = {}
  for (const error of errors) {
    const path = error.field.split('.').filter(Boolean)
    let node = root
    for (const segment of path) {
      node[segment] = (node[segment] as Record<string, unknown> | undefined) ?? {}
      node = node[segment] as Record<string, unknown>
    }
    const list = ((node.__errors as string[] | undefined) ?? []) as string[]
    list.push(serverFieldMessage(tr, error.code, valuesOf(error)))
    node.__errors = list
  }
  return root as ErrorSchema
}

/** Drops the server errors of the fields whose value changed since they were shown. */
export function withoutChanged(errors: readonly FieldError[], before: Record<string, unknown>, after: Record<string, unknown>): FieldError[] {
  const get = (obj: Record<string, unknown>, path: string) =>
    path.split('.').filter(Boolean).reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), obj)
  return errors.filter((e) => e.field === '' || JSON.stringify(get(before, e.field)) === JSON.stringify(get(after, e.field)))
}
