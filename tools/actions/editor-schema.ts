/**
 * Editor schemas that know the actions: in an emitted kind schema every action invocation's `do`
 * lists the action names (with descriptions, so VS Code completes them) and its `with` is checked
 * against that action's params. Any param value may still be a binding {"$": "…"}, resolved at
 * run time. Only the emitted files get this; the server validates `do`/`with` in schema-lint.
 */
import type { ActionDefinitionData } from './definitions'

type Schema = Record<string, unknown>

const BINDING = { type: 'object', required: ['$'], properties: { $: { type: 'string' } }, additionalProperties: false }
const BINDING_REF = { $ref: '#/$defs/actionBinding' }
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions']
const SCHEMA_VALUES = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'propertyNames']
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf']

/** A params schema where every value may also be a binding. */
export function acceptingBindings(schema: unknown): unknown {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema
  const copy: Schema = { ...(schema as Schema) }
  for (const key of SCHEMA_MAPS)
    if (copy[key] && typeof copy[key] === 'object')
      copy[key] = Object.fromEntries(Object.entries(copy[key] as Schema).map(([name, sub]) => [name, acceptingBindings(sub)]))
  for (const key of SCHEMA_VALUES) if (typeof copy[key] === 'object') copy[key] = acceptingBindings(copy[key])
  for (const key of SCHEMA_LISTS) if (Array.isArray(copy[key])) copy[key] = (copy[key] as unknown[]).map(acceptingBindings)
  return { anyOf: [BINDING_REF, copy] }
}

/** The schema of an invocation's `with`: the action's params, each value possibly a binding. */
function withSchema(params: object): unknown {
  return ((acceptingBindings(params) as { anyOf: unknown[] }).anyOf)[1]
}

/** `$defs` entries: the action names, and `with` checked per action. */
export function actionDefinitions(actions: Record<string, ActionDefinitionData>): Schema {
  const names = Object.keys(actions)
  return {
    actionBinding: BINDING,
    actionName: {
      description: 'An action name from the registry.',
      anyOf: names.map((name) => ({ const: name, description: actions[name].description })),
    },
    actionParams: {
      allOf: names.map((name) => ({
        if: { properties: { do: { const: name } }, required: ['do'] },
        then: { properties: { with: withSchema(actions[name].params) } },
      })),
    },
  }
}

const isInvocation = (schema: Schema) => {
  const properties = schema.properties as Schema | undefined
  return schema.type === 'object' && !!properties?.do && !!properties?.with && (schema.required as unknown[] | undefined)?.includes('do')
}

/** Walks a kind schema and ties every action invocation to the `$defs` above. */
function tieInvocations(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tieInvocations)
  if (value === null || typeof value !== 'object') return value
  const schema = Object.fromEntries(Object.entries(value as Schema).map(([key, sub]) => [key, tieInvocations(sub)])) as Schema
  if (!isInvocation(schema)) return schema
  const properties = schema.properties as Schema
  return {
    ...schema,
    properties: { ...properties, do: { $ref: '#/$defs/actionName' } },
    allOf: [...((schema.allOf as unknown[]) ?? []), { $ref: '#/$defs/actionParams' }],
  }
}

/** The editor schema of a kind: action names completed, params checked (only when the kind has invocations). */
export function withActions(kindSchema: Schema, actions: Record<string, ActionDefinitionData>): Schema {
  const tied = tieInvocations(kindSchema) as Schema
  if (JSON.stringify(tied) === JSON.stringify(kindSchema)) return kindSchema
  return { ...tied, $defs: { ...((tied.$defs as Schema) ?? {}), ...actionDefinitions(actions) } }
}
