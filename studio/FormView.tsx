/**
 * The form view: the same draft as the JSON editor, as a form generated from the kind's JSON
 * Schema by rjsf, so an operator changes a label, a rule or a field's `required` without writing
 * JSON. Menus, footers, headers, popups, screens, translations, promotions, quizzes and jurisdiction settings use their kind's
 * schema as it is. A flow's step schemas are free-form JSON Schema, which a generated form cannot
 * edit usefully, so a flow gets a derived form: per step its title, per field its label (a text
 * key) and whether it is required; the rest of the flow stays as written.
 *
 * Validation: rjsf's ajv validator compiles schemas with `new Function`, which the CSP forbids, so
 * the form validates nothing itself (`noValidation`); the editor's schema diagnostics and the
 * server's lint check the same text.
 */
import Form, { getDefaultRegistry } from '@rjsf/core'
import type { FieldTemplateProps, RJSFSchema, UiSchema, ValidatorType } from '@rjsf/utils'
import { useMemo } from 'react'
import { withChoiceTitles } from './choice-titles'
import { FlowFields } from './FlowFields'
import { TextsToggle } from './TextsBeside'

const BaseField = getDefaultRegistry().templates.FieldTemplate
/** Every field: rjsf's own, and beside a field whose value is a text key (a title, a label, a
 * body…), its words in every locale, edited there (./TextsBeside.tsx). */
function FieldWithTexts(props: FieldTemplateProps) {
  return (
    <>
      <BaseField {...props} />
      {props.schema.type === 'string' ? <TextsToggle textKey={props.formData} readOnly={props.disabled || props.readonly} /> : null}
    </>
  )
}
const TEMPLATES = { FieldTemplate: FieldWithTexts }

export const FORM_KINDS = ['menu', 'footer', 'popup', 'screen', 'header', 'translations', 'promotion', 'quiz', 'jurisdiction', 'flow'] as const

/** A validator that never compiles anything (CSP: no eval); see the file comment. */
export const noValidation: ValidatorType = {
  validateFormData: () => ({ errors: [], errorSchema: {} }),
  isValid: () => true,
  rawValidation: () => ({ errors: [] }),
}

type Json = Record<string, unknown>

interface FlowStepShape {
  id: string
  title?: string
  schema?: { properties?: Record<string, Json>; required?: string[] }
}

interface FlowForm {
  steps: { id: string; title: string; fields: { name: string; label: string; required: boolean }[] }[]
}

const FLOW_SCHEMA: RJSFSchema = {
  type: 'object',
  properties: {
    steps: {
      type: 'array',
      title: 'Steps',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string', title: 'Step', readOnly: true },
          title: { type: 'string', title: 'Step title (text key)' },
          fields: {
            type: 'array',
            title: 'Fields',
            items: {
              type: 'object',
              properties: {
                name: { type: 'string', title: 'Field', readOnly: true },
                label: { type: 'string', title: 'Label (text key)' },
                required: { type: 'boolean', title: 'Required' },
              },
            },
          },
        },
      },
    },
  },
}
const FIXED_LIST = { 'ui:options': { addable: false, removable: false, orderable: false } }
const FLOW_UI: UiSchema = { 'ui:submitButtonOptions': { norender: true }, steps: { ...FIXED_LIST, items: { fields: { ...FIXED_LIST } } } }

export function flowToForm(flow: Json): FlowForm {
  const steps = Array.isArray(flow.steps) ? (flow.steps as FlowStepShape[]) : []
  return {
    steps: steps.map((step) => ({
      id: String(step.id),
      title: String(step.title ?? ''),
      fields: Object.entries(step.schema?.properties ?? {}).map(([name, field]) => ({ name, label: String(field.title ?? ''), required: !!step.schema?.required?.includes(name) })),
    })),
  }
}

/** The flow with the form's titles, labels and `required` written back; everything else untouched. */
export function formToFlow(flow: Json, form: FlowForm): Json {
  const next = structuredClone(flow) as Json & { steps?: FlowStepShape[] }
  for (const [i, step] of (next.steps ?? []).entries()) {
    const edited = form.steps?.[i]
    if (!edited || edited.id !== step.id) continue
    if (edited.title) step.title = edited.title
    const properties = step.schema?.properties ?? {}
    const required = new Set(step.schema?.required ?? [])
    for (const field of edited.fields ?? []) {
      if (!properties[field.name]) continue
      if (field.label) properties[field.name].title = field.label
      if (field.required) required.add(field.name)
      else required.delete(field.name)
    }
    if (step.schema) step.schema.required = [...(step.schema.required ?? []).filter((n) => required.has(n)), ...[...required].filter((n) => !step.schema!.required?.includes(n))]
  }
  return next
}

/** The same JSON value, whatever the order of object keys. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameJson(v, b[i]))
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = Object.keys(a).filter((k) => (a as Json)[k] !== undefined)
    return keys.length === Object.keys(b).filter((k) => (b as Json)[k] !== undefined).length && keys.every((k) => sameJson((a as Json)[k], (b as Json)[k]))
  }
  return a === b
}

/** The kind schema as a form schema: the document's bookkeeping keys are not form fields, and
 * every choice is named (./choice-titles: never "Option 1"). */
export function formSchemaOf(schema: Json): RJSFSchema {
  const properties = { ...((schema.properties as Json | undefined) ?? {}) }
  delete properties.$schema
  return withChoiceTitles({ ...schema, properties }) as RJSFSchema
}

/** A schema's defaults apply when the document runs; the form never writes one the operator did not choose. */
const KEEP_AS_WRITTEN = { emptyObjectFields: 'skipDefaults' } as const

const HIDDEN: UiSchema = { 'ui:submitButtonOptions': { norender: true }, kind: { 'ui:widget': 'hidden' }, $schema: { 'ui:widget': 'hidden' } }

interface Props {
  kind: string
  schema: Json | undefined
  text: string
  readOnly: boolean
  onChange: (text: string) => void
}

export function FormView({ kind, schema, text, readOnly, onChange }: Props) {
  const parsed = useMemo(() => {
    try {
      const value = JSON.parse(text) as unknown
      return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined
    } catch {
      return undefined
    }
  }, [text])
  const formSchema = useMemo(() => (schema ? formSchemaOf(schema) : undefined), [schema])
  if (!parsed) return <p className="muted" role="status">The JSON does not parse; fix it in the code view to use the form.</p>
  if (!schema || !formSchema) return <p className="muted">Loading the schema…</p>
  const write = (value: Json) => {
    const next = { ...(parsed.$schema ? { $schema: parsed.$schema } : {}), ...value }
    // rjsf answers its first render with the data in the schema's key order: not an edit, and the
    // operator's text (its order, its spacing) stays as it is
    if (!sameJson(next, parsed)) onChange(`${JSON.stringify(next, null, 2)}\n`)
  }
  if (kind === 'flow')
    return (
      <>
      <FlowFields flow={parsed} readOnly={readOnly} onChange={(next) => write(Object.fromEntries(Object.entries(next).filter(([k]) => k !== '$schema')))} />
      <Form
        className="studio-form"
        schema={FLOW_SCHEMA}
        uiSchema={FLOW_UI}
        formData={flowToForm(parsed)}
        validator={noValidation}
        templates={TEMPLATES}
        disabled={readOnly}
        noHtml5Validate
        onChange={(event) => write(formToFlow(parsed, event.formData as FlowForm))}
      />
      </>
    )
  return (
    <Form
      className="studio-form"
      schema={formSchema}
      uiSchema={HIDDEN}
      formData={parsed}
      validator={noValidation}
      templates={TEMPLATES}
      experimental_defaultFormStateBehavior={KEEP_AS_WRITTEN}
      disabled={readOnly}
      noHtml5Validate
      onChange={(event) => write(event.formData as Json)}
    />
  )
}
