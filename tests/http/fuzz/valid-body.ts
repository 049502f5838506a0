/**
 * A valid request body built from a route's own request schema (the JSON schema its validateBody
 * declares), so the fuzzer's one-field-at-a-time variations start from a body the route accepts and
 * reach its handler instead of stopping at validation (issue 30 item 8). Real values come from the
 * running server where the schema cannot know them (a live selection and its price, an open bet, a
 * fresh idempotency key): `hints`, by field name, used when the schema accepts them. Every body is
 * checked with ajv against the schema; a schema this cannot satisfy gives undefined.
 */
import Ajv, { type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import fc from 'fast-check'

export type Schema = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
/** Values by field name, or a function of the field's schema (called once per body). */
export type Hints = Record<string, unknown | ((schema: Schema) => unknown)>

const ajv = addFormats(new Ajv({ strict: false, allErrors: false }))
const compiled = new WeakMap<Schema, ValidateFunction>()
export function accepts(schema: Schema, value: unknown): boolean {
  let validate = compiled.get(schema)
  if (!validate) compiled.set(schema, (validate = ajv.compile(schema)))
  return validate(value) as boolean
}

const FORMATS: Record<string, string> = { email: 'fuzz@example.com', date: '2000-01-15', 'date-time': '2026-01-15T12:00:00Z', uri: 'https://example.com/', uuid: '00000000-0000-4000-8000-000000000000' }

function stringFor(schema: Schema, seed: number): string {
  if (schema.format && FORMATS[schema.format]) return FORMATS[schema.format]
  const min = schema.minLength ?? 1
  if (schema.pattern) {
    const candidates = fc.sample(fc.stringMatching(new RegExp(schema.pattern)), { seed, numRuns: 40 })
    const fits = candidates.find((s) => s.length >= min && s.length <= (schema.maxLength ?? Infinity) && accepts(schema, s))
    if (fits !== undefined) return fits
  }
  return 'f'.repeat(Math.max(min, Math.min(4, schema.maxLength ?? 4)))
}

function numberFor(schema: Schema): number {
  const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1)
  const high = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : Infinity)
  const value = Math.min(Math.max(1, low), high)
  return schema.multipleOf ? Math.ceil(value / schema.multipleOf) * schema.multipleOf : value
}

/** One value the schema accepts: a hint for the field when it fits, else built from the schema. */
export function exampleOf(schema: Schema | undefined, hints: Hints, seed = 1, name?: string): unknown {
  if (!schema || typeof schema !== 'object') return {}
  const hint = name !== undefined && name in hints ? hints[name] : undefined
  const hinted = typeof hint === 'function' ? (hint as (s: Schema) => unknown)(schema) : hint
  if (hinted !== undefined && accepts(schema, hinted)) return hinted
  if ('const' in schema) return schema.const
  if (schema.enum) return schema.enum[0]
  if (schema.default !== undefined && accepts(schema, schema.default)) return schema.default
  if (schema.examples?.length) return schema.examples[0]
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) {
    const value = exampleOf(branch, hints, seed, name)
    if (accepts(schema, value)) return value
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : (schema.type ?? (schema.properties ? 'object' : undefined))
  if (type === 'string') return stringFor(schema, seed)
  if (type === 'number' || type === 'integer') return numberFor(schema)
  if (type === 'boolean') return true
  if (type === 'null') return null
  if (type === 'array') return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, (_, i) => exampleOf(schema.items, hints, seed + i))
  if (type === 'object') return objectFor(schema, hints, seed)
  return {}
}

function objectFor(schema: Schema, hints: Hints, seed: number): Record<string, unknown> {
  const properties: Record<string, Schema> = schema.properties ?? {}
  const required = new Set<string>(schema.required ?? [])
  // every declared property a hint knows, and every required one: as much of the handler as the body can reach
  const names = Object.keys(properties).filter((key) => required.has(key) || key in hints)
  if (names.length === 0 && (schema.minProperties ?? 0) > 0) names.push(...Object.keys(properties).slice(0, schema.minProperties))
  return Object.fromEntries(names.map((key, i) => [key, exampleOf(properties[key], hints, seed + i, key)]))
}

/** A valid body for the schema, or undefined when none could be made. */
export function validBody(schema: Schema | undefined, hints: Hints, seed: number): Record<string, unknown> | undefined {
  if (!schema) return undefined
  const body = exampleOf(schema, hints, seed)
  return body && typeof body === 'object' && !Array.isArray(body) && accepts(schema, body) ? (body as Record<string, unknown>) : undefined
}

/** Values at the edges of a field's schema: just past its bounds, the wrong enum, empty. */
export function edgeValues(schema: Schema | undefined): unknown[] {
  if (!schema) return []
  const edges: unknown[] = []
  if (schema.enum) edges.push('not-an-option')
  if (typeof schema.maxLength === 'number') edges.push('m'.repeat(schema.maxLength + 1))
  if (schema.type === 'string') edges.push('')
  if (typeof schema.minimum === 'number') edges.push(schema.minimum - 1)
  if (typeof schema.maximum === 'number') edges.push(schema.maximum + 1)
  if (typeof schema.exclusiveMinimum === 'number') edges.push(schema.exclusiveMinimum)
  if (schema.type === 'integer' || schema.type === 'number') edges.push(0.001)
  if (typeof schema.maxItems === 'number') edges.push(Array.from({ length: schema.maxItems + 1 }, () => ({})))
  return edges
}
