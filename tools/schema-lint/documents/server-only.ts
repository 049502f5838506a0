/**
 * Server-only fields (issue 11 item 6): a kind's JSON Schema marks the properties the server
 * enforces but a browser must never see (promo codes, SMS budgets) with `"x-server-only": true`
 * (kernel/documents/kinds.ts). This file is the one place that knows the mark: `clientCopy`
 * drops marked fields from a document before it is served (the loader builds every served copy
 * with it, so the documents API, the bootstrap, previews and admin previews all send the trimmed
 * copy), and `serverOnlyFields` lists them for schema-lint. The walk follows the document, not
 * the schema, so recursive schemas ($ref) and combinators (allOf/anyOf/oneOf, if/then/else) work.
 */
import { documentSchemas, SERVER_ONLY, type DocumentKind } from '../../../kernel/documents/kinds'

type Schema = Record<string, unknown>

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)
const COMBINATORS = ['allOf', 'anyOf', 'oneOf'] as const
const CONDITIONALS = ['if', 'then', 'else'] as const

/** A local `$ref` (`#/$defs/node`) resolved against the kind's root schema. */
function resolveRef(root: Schema, schema: Schema): Schema | undefined {
  const ref = schema.$ref
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema
  let target: unknown = root
  for (const segment of ref.slice(2).split('/')) target = isObject(target) && Object.hasOwn(target, segment) ? target[segment] : undefined
  return isObject(target) ? target : undefined
}

/** The schema and every subschema that applies to the same value (refs, combinators, conditionals). */
function applicable(root: Schema, schemas: readonly Schema[]): Schema[] {
  const out: Schema[] = []
  const seen = new Set<Schema>()
  const queue = [...schemas]
  while (queue.length > 0) {
    const schema = resolveRef(root, queue.pop()!)
    if (!schema || seen.has(schema)) continue
    seen.add(schema)
    out.push(schema)
    for (const key of COMBINATORS) if (Array.isArray(schema[key])) queue.push(...(schema[key] as unknown[]).filter(isObject))
    for (const key of CONDITIONALS) if (isObject(schema[key])) queue.push(schema[key] as Schema)
  }
  return out
}

const ownProperty = (schema: Schema, key: string): Schema | undefined => {
  const properties = schema.properties
  return isObject(properties) && Object.hasOwn(properties, key) && isObject(properties[key]) ? (properties[key] as Schema) : undefined
}

/** The schemas a property's value must match, from every applicable schema of its object. */
function propertySchemas(schemas: readonly Schema[], key: string): Schema[] {
  return schemas.flatMap((schema) => {
    const own = ownProperty(schema, key)
    if (own) return [own]
    const patterns = isObject(schema.patternProperties) ? Object.entries(schema.patternProperties) : []
    const matched = patterns.filter(([pattern, sub]) => isObject(sub) && new RegExp(pattern, 'u').test(key)).map(([, sub]) => sub as Schema)
    if (matched.length > 0) return matched
    return isObject(schema.additionalProperties) ? [schema.additionalProperties as Schema] : []
  })
}

const isServerOnly = (schemas: readonly Schema[], key: string) => schemas.some((schema) => ownProperty(schema, key)?.[SERVER_ONLY] === true)

function strip(root: Schema, schemas: readonly Schema[], value: unknown): unknown {
  if (schemas.length === 0) return value
  const all = applicable(root, schemas)
  if (Array.isArray(value)) {
    const items = all.flatMap((schema) => (isObject(schema.items) ? [schema.items as Schema] : []))
    return items.length === 0 ? value : value.map((item) => strip(root, items, item))
  }
  if (!isObject(value)) return value
  const out: Record<string, unknown> = {}
  for (const [key, child] of Object.entries(value)) {
    if (isServerOnly(all, key)) continue
    Object.defineProperty(out, key, { value: strip(root, propertySchemas(all, key), child), enumerable: true, writable: true, configurable: true })
  }
  return out
}

/** The copy of a document a browser may see: every server-only field of its kind removed. */
export function clientCopy<T>(kind: DocumentKind, document: T): T {
  const root = documentSchemas[kind] as unknown as Schema
  return strip(root, [root], document) as T
}

/** JSON pointers (with `*` for any array item or map key) of a kind's server-only fields. */
export function serverOnlyFields(kind: DocumentKind): string[] {
  const root = documentSchemas[kind] as unknown as Schema
  const found = new Set<string>()
  const visit = (schema: Schema, pointer: string, seen: Set<Schema>) => {
    for (const sub of applicable(root, [schema])) {
      if (seen.has(sub)) continue
      const inner = new Set(seen).add(sub)
      const properties = isObject(sub.properties) ? Object.entries(sub.properties).filter(([, p]) => isObject(p)) : []
      for (const [key, property] of properties) {
        const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`
        if ((property as Schema)[SERVER_ONLY] === true) found.add(at)
        else visit(property as Schema, at, inner)
      }
      if (isObject(sub.items)) visit(sub.items as Schema, `${pointer}/*`, inner)
      if (isObject(sub.additionalProperties)) visit(sub.additionalProperties as Schema, `${pointer}/*`, inner)
    }
  }
  visit(root, '', new Set())
  return [...found].sort()
}
