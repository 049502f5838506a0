/**
 * Says a JSON Schema in a few words for the documents reference (docs/reference/documents.md):
 * the type of one field ("text", "binding", "one of `row`, `column`", "array of node") and the
 * rows of a schema's fields, nested ones as dotted paths (`regulatory.selfExclusion.periods`).
 * It reads the kinds' schemas (kernel/documents/kinds.ts) and the action definitions as data,
 * recognising the shared fragments (text, binding, CEL expression, node, action chain) by shape.
 */
import { SERVER_ONLY } from '../../kernel/documents/kinds'

export type Schema = Readonly<Record<string, unknown>>

export interface FieldRow {
  /** Dotted path: `profile.links[].name`; a map's key as `<key>`. */
  path: string
  required: boolean
  type: string
  description: string
}

const asSchema = (value: unknown): Schema | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Schema) : undefined)
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])
const code = (value: unknown) => '`' + (typeof value === 'string' ? value : JSON.stringify(value)) + '`'

/** A `{"$": "…"}` binding: an object whose one required property is `$`. */
const isBinding = (s: Schema) => list(s.required).length === 1 && list(s.required)[0] === '$' && asSchema(s.properties)?.$ !== undefined
/** An i18n text: a key, or `{key, values, count}`. */
const isText = (s: Schema) => list(s.anyOf).length === 2 && list(asSchema(list(s.anyOf)[1])?.required)[0] === 'key'
const isExpression = (s: Schema) => s.type === 'string' && typeof s.description === 'string' && s.description.startsWith('A CEL expression')
const isChain = (s: Schema) => s.$ref === '#/$defs/chain' || (s.type === 'array' && asSchema(asSchema(s.items)?.properties)?.do !== undefined)

function bounds(s: Schema): string {
  const parts: string[] = []
  if (typeof s.minimum === 'number') parts.push(`≥ ${s.minimum}`)
  if (typeof s.exclusiveMinimum === 'number') parts.push(`> ${s.exclusiveMinimum}`)
  if (typeof s.maximum === 'number') parts.push(`≤ ${s.maximum}`)
  if (typeof s.pattern === 'string') parts.push(`matching ${code(s.pattern)}`)
  return parts.length > 0 ? ' ' + parts.join(', ') : ''
}

function arrayType(s: Schema): string {
  const items = asSchema(s.items)
  return items ? `array of ${typeOf(items)}` : 'array'
}

function objectType(s: Schema): string {
  const values = asSchema(s.additionalProperties)
  const keys = asSchema(s.propertyNames)?.enum
  if (!asSchema(s.properties) && values) return `map${Array.isArray(keys) ? ` (keys: ${keys.map(code).join(', ')})` : ''} of ${typeOf(values)}`
  if (!asSchema(s.properties) && s.additionalProperties !== false) return 'object (its fields are not in the schema)'
  return 'object'
}

/** The type of one field, in words. */
export function typeOf(schema: Schema): string {
  if (schema.$ref === '#/$defs/node') return 'node'
  if (isChain(schema)) return 'action chain'
  if (isBinding(schema)) return 'binding'
  if (isText(schema)) return 'text'
  if (isExpression(schema)) return 'CEL expression'
  if ('const' in schema) return code(schema.const)
  if (Array.isArray(schema.enum)) return 'one of ' + schema.enum.map(code).join(', ')
  const alternatives = list(schema.anyOf ?? schema.oneOf).map(asSchema).filter((s): s is Schema => s !== undefined)
  if (alternatives.length > 0 && !schema.type) return [...new Set(alternatives.map(typeOf))].join(' or ')
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : schema.type
  if (type === 'array') return arrayType(schema)
  if (type === 'object') return objectType(schema)
  if (typeof type === 'string') return type + bounds(schema)
  return 'any'
}

/** The description column: the schema's own words, its default, server-only. */
function describe(s: Schema): string {
  const parts: string[] = []
  if (typeof s.description === 'string' && !isExpression(s) && !isText(s) && !isBinding(s)) parts.push(s.description)
  if ('default' in s) parts.push(`Default ${code(s.default)}.`)
  if (s[SERVER_ONLY] === true && !/server-only/i.test(parts.join(' '))) parts.push('Server-only: enforced by the server, never served.')
  return parts.join(' ')
}

/** The object schema whose fields a row's children are: itself, its array items, its map values. */
function nested(s: Schema, path: string): { schema: Schema; path: string } | undefined {
  if (asSchema(s.properties)) return { schema: s, path: `${path}.` }
  const items = asSchema(s.items)
  if (s.type === 'array' && items && asSchema(items.properties) && !isChain(s)) return { schema: items, path: `${path}[].` }
  const values = asSchema(s.additionalProperties)
  if (values && asSchema(values.properties)) return { schema: values, path: `${path}.<key>.` }
  const single = list(s.anyOf).map(asSchema).filter((a) => a && asSchema(a.properties))
  if (single.length === 1 && !isText(s) && !isBinding(s)) return { schema: single[0]!, path: `${path}.` }
  return undefined
}

/** Every field of an object schema, nested fields after their parent, as dotted paths. */
export function fieldRows(schema: Schema, prefix = '', depth = 0): FieldRow[] {
  const properties = asSchema(schema.properties) ?? {}
  const required = new Set(list(schema.required))
  const rows: FieldRow[] = []
  for (const [name, value] of Object.entries(properties)) {
    const field = asSchema(value)
    if (!field) continue
    const path = prefix + name
    rows.push({ path, required: required.has(name), type: typeOf(field), description: describe(field) })
    const inner = depth < 8 && !isBinding(field) && !isText(field) ? nested(field, path) : undefined
    if (inner) rows.push(...fieldRows(inner.schema, inner.path, depth + 1))
  }
  return rows
}
