/**
 * What a regulatory rule sees (one jurisdiction and the documents it is served) and the small
 * readers the rules share: the site's sign-up flows, their required fields, the after-login popups,
 * the regulatory block, and the Waiver type. Its own file so regulatory.ts and identity-rules.ts both
 * import it.
 */
import type { DocumentRecord } from '../documents/loader'
import type { ImpactClass } from '../diff/classify'

export type Records = Pick<DocumentRecord, 'kind' | 'id' | 'jurisdiction' | 'file' | 'source' | 'locales' | 'platforms'>[]

/** An approved, unexpired, unrevoked waiver: one rule, one jurisdiction, one document file. */
export interface Waiver {
  jurisdiction: string
  rule: string
  /** The document file the waived findings are in (`jurisdictions/spain/flows/signup-email.json`). */
  document: string
  reason: string
}

export interface Context {
  jurisdiction: Record<string, unknown>
  file: string
  id: string
  records: Records
  /** The document of a kind/id this jurisdiction is served (its own copy beats the shared one). */
  resolve(kind: string, id: string): Records[number] | undefined
}

export interface Problem {
  pointer: string
  message: string
  file?: string
}

export interface RegulatoryRule {
  id: string
  description: string
  /** The semantic diff's impact class the rule guards (a waiver of the rule also covers the diff's
   * errors of that class in its document: ./regulatory-diff.ts). */
  impact: ImpactClass
  /** Jurisdictions the rule applies to; all when absent. */
  jurisdictions?: string[]
  check(context: Context): Problem[]
}

export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

export function signupFlows(context: Context): Records {
  const signup = context.jurisdiction.signup
  const ids = isObject(signup) && isObject(signup.flows) ? Object.values(signup.flows).filter((v): v is string => typeof v === 'string') : []
  return [...new Set(ids)].flatMap((id) => context.resolve('flow', id) ?? [])
}

export function requiredFields(flow: Records[number]): { field: string; schema: Record<string, unknown> }[] {
  const steps = Array.isArray(flow.source.steps) ? (flow.source.steps as Record<string, unknown>[]) : []
  return steps.flatMap((step) => {
    const schema = isObject(step.schema) ? step.schema : {}
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : []
    const properties = isObject(schema.properties) ? schema.properties : {}
    return required.map((field) => ({ field, schema: isObject(properties[field]) ? (properties[field] as Record<string, unknown>) : {} }))
  })
}

export const afterLoginPopups = (context: Context) =>
  (Array.isArray(context.jurisdiction.afterLogin) ? (context.jurisdiction.afterLogin as Record<string, unknown>[]) : []).map((r) => String(r.popup))

export const regulatory = (context: Context) => (isObject(context.jurisdiction.regulatory) ? context.jurisdiction.regulatory : {})

export const includesAll = (value: unknown, wanted: unknown[]) => Array.isArray(value) && wanted.every((w) => value.includes(w))
