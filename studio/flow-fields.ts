/**
 * Adding, removing and ordering a flow step's fields (issue 29 item 7), as pure edits of the flow
 * document: a field is a property of the step's JSON Schema, its order the order of those
 * properties (and of the step's `uiSchema['ui:order']` when it has one), its widget in the step's
 * uiSchema. ./FlowFields.tsx is the form around these; the server's lint checks the result.
 */
type Json = Record<string, unknown>
interface Step {
  id: string
  schema?: { properties?: Record<string, Json>; required?: string[] }
  uiSchema?: Record<string, unknown>
}

/** The field kinds a step may add: the JSON Schema and widget the engine's form renders for each. */
export const FIELD_KINDS = {
  text: { label: 'Text', schema: { type: 'string', minLength: 1, maxLength: 100 } },
  email: { label: 'E-mail', schema: { type: 'string', format: 'email', maxLength: 254 } },
  date: { label: 'Date', schema: { type: 'string', format: 'date' }, widget: 'date' },
  number: { label: 'Whole number', schema: { type: 'integer', minimum: 0 } },
  checkbox: { label: 'Yes / no', schema: { type: 'boolean' } },
  phone: { label: 'Phone number', schema: { type: 'string', minLength: 4, maxLength: 20 }, widget: 'phone' },
} as const satisfies Record<string, { label: string; schema: Json; widget?: string }>
export type FieldKind = keyof typeof FIELD_KINDS

export const FIELD_NAME = /^[a-zA-Z][a-zA-Z0-9]{0,39}$/

const stepsOf = (flow: Json) => (Array.isArray(flow.steps) ? (flow.steps as Step[]) : [])

/** A step's field names, in the order punters see them. */
export function fieldsOf(step: Step): string[] {
  const names = Object.keys(step.schema?.properties ?? {})
  const order = step.uiSchema?.['ui:order']
  if (!Array.isArray(order)) return names
  const listed = order.filter((n): n is string => typeof n === 'string' && names.includes(n))
  return [...listed, ...names.filter((n) => !listed.includes(n))]
}

/** Writes the step's fields in `names`' order (properties and any `ui:order`). */
function reorder(step: Step, names: string[]): void {
  const properties = step.schema?.properties ?? {}
  step.schema = { ...step.schema, properties: Object.fromEntries(names.map((n) => [n, properties[n]!])) }
  if (Array.isArray(step.uiSchema?.['ui:order'])) step.uiSchema!['ui:order'] = [...names, ...(step.uiSchema!['ui:order'] as string[]).filter((n) => n === '*')]
}

/** A copy of the flow with one step edited by `edit`. */
function withStep(flow: Json, stepIndex: number, edit: (step: Step) => void): Json {
  const next = structuredClone(flow)
  const step = stepsOf(next)[stepIndex]
  if (step) edit(step)
  return next
}

export function moveField(flow: Json, stepIndex: number, name: string, by: -1 | 1): Json {
  return withStep(flow, stepIndex, (step) => {
    const names = fieldsOf(step)
    const at = names.indexOf(name)
    if (at < 0 || at + by < 0 || at + by >= names.length) return
    ;[names[at], names[at + by]] = [names[at + by]!, names[at]!]
    reorder(step, names)
  })
}

export function removeField(flow: Json, stepIndex: number, name: string): Json {
  return withStep(flow, stepIndex, (step) => {
    const names = fieldsOf(step).filter((n) => n !== name)
    if (step.schema?.required) step.schema.required = step.schema.required.filter((n) => n !== name)
    if (step.uiSchema) delete step.uiSchema[name]
    reorder(step, names)
  })
}

/** Adds a field of `kind` at the end of the step; `label` is its text key. Refuses a taken or bad name. */
export function addField(flow: Json, stepIndex: number, field: { name: string; kind: FieldKind; label: string; required: boolean }): Json | string {
  const step = stepsOf(flow)[stepIndex]
  if (!step) return 'no such step'
  if (!FIELD_NAME.test(field.name)) return 'a field name is letters and digits, starting with a letter'
  if (fieldsOf(step).includes(field.name)) return `the step already has a field ${field.name}`
  return withStep(flow, stepIndex, (s) => {
    const kind = FIELD_KINDS[field.kind] as { schema: Json; widget?: string }
    const properties = s.schema?.properties ?? {}
    const schema = { ...s.schema, properties: { ...properties, [field.name]: { ...kind.schema, title: field.label } } }
    if (field.required) schema.required = [...(schema.required ?? []), field.name]
    s.schema = schema
    if (kind.widget) s.uiSchema = { ...s.uiSchema, [field.name]: { 'ui:widget': kind.widget } }
    reorder(s, [...fieldsOf(step), field.name])
  })
}
