/**
 * Step navigation of a flow form (FlowForm's first concern), pure: which steps show (their `when`
 * against the form so far), the step after a submitted one, the fields a step holds, and the
 * fields a step's `ui:when` hides (their values are not sent).
 */
import type { UiSchema } from '@rjsf/utils'
import { buildContext, evaluateCondition } from '../../core/context'
import type { FlowDocument, FlowStep } from '../../../kernel/documents/types'

export type Values = Record<string, unknown>
type Context = ReturnType<typeof buildContext>

/** The fields a step's schema holds. */
export function fieldsOf(schema: Record<string, unknown> | undefined): string[] {
  const properties = schema?.properties
  return properties && typeof properties === 'object' ? Object.keys(properties) : []
}

/**
 * The page's evaluation context with the form values so far as `form`, each other root read
 * through (so a tracked context notes only the roots a `when` reads, and a step appears as soon as
 * the store behind its `when` changes: the SMS recovery's code step once `data.recovery` is set).
 */
export function withFormValues(ctx: Context, form: Values): Context {
  const out = {} as Context
  for (const root of Object.keys(ctx) as (keyof Context)[])
    if (root !== 'form') Object.defineProperty(out, root, { enumerable: true, get: () => ctx[root] })
  Object.defineProperty(out, 'form', { enumerable: true, value: form })
  return out
}

/** The steps whose `when` is true against the context (the form values so far included). */
export const visibleStepsOf = (flow: FlowDocument, ctx: Context): FlowStep[] => flow.steps.filter((s) => evaluateCondition(s.when, ctx))

/** The first step after `step` whose `when` is true, or undefined when the flow is complete. */
export const stepAfter = (flow: FlowDocument, step: FlowStep, ctx: Context): FlowStep | undefined =>
  flow.steps.slice(flow.steps.indexOf(step) + 1).find((s) => evaluateCondition(s.when, ctx))

/** Fields whose uiSchema `ui:when` (compiled by the server) is not true against the form so far. */
export function hiddenByCondition(uiSchema: unknown, fields: string[], ctx: Context): string[] {
  const options = (uiSchema ?? {}) as Record<string, Record<string, unknown> | undefined>
  return fields.filter((field) => options[field]?.['ui:when'] !== undefined && !evaluateCondition(options[field]!['ui:when'], ctx))
}

/** The step's uiSchema with the hidden fields' widgets hidden (their values are not sent). */
export function withHidden(uiSchema: UiSchema, hidden: string[]): UiSchema {
  if (hidden.length === 0) return uiSchema
  const out: Record<string, unknown> = { ...uiSchema }
  for (const field of hidden) out[field] = { ...((uiSchema as Record<string, object>)[field] ?? {}), 'ui:widget': 'hidden' }
  return out as UiSchema
}

export function withoutKeys(values: Values, keys: string[]): Values {
  return keys.length === 0 ? values : Object.fromEntries(Object.entries(values).filter(([k]) => !keys.includes(k)))
}

/** What the punter typed that a changed flow still has a field for: an operator's publish keeps
 * every value (and the step) unless the field it belonged to was removed. */
export function keptValues(values: Values, flow: FlowDocument): Values {
  const fields = new Set(flow.steps.flatMap((s) => fieldsOf(s.schema as Record<string, unknown>)))
  const kept = Object.entries(values).filter(([k]) => fields.has(k))
  return kept.length === Object.keys(values).length ? values : Object.fromEntries(kept)
}

export function pick(values: Values, keys: string[]): Values {
  return Object.fromEntries(Object.entries(values).filter(([k]) => keys.includes(k)))
}
