/**
 * A flow's fields, per step, added, removed and put in order with buttons (issue 29 item 7): every
 * move is a real button a keyboard reaches, never drag only. The edits (./flow-fields.ts) change the
 * same draft text as the form and the JSON editor; the studio's lint and the server check it.
 */
import { useState } from 'react'
import { TextsToggle as FieldTexts } from './TextsBeside'
import { addField, FIELD_KINDS, FIELD_NAME, fieldsOf, moveField, removeField, type FieldKind } from './flow-fields'

type Json = Record<string, unknown>
type StepShape = { id: string; schema?: { properties?: Record<string, Json>; required?: string[] } }

function AddField({ flowId, onAdd }: { flowId: string; onAdd: (field: { name: string; kind: FieldKind; label: string; required: boolean }) => string | undefined }) {
  const [name, setName] = useState('')
  const [kind, setKind] = useState<FieldKind>('text')
  const [label, setLabel] = useState('')
  const [required, setRequired] = useState(false)
  const [problem, setProblem] = useState<string | undefined>()
  const key = label || `${flowId}.field.${name || 'name'}`
  const add = () => {
    const refused = onAdd({ name, kind, label: key, required })
    setProblem(refused)
    if (!refused) (setName(''), setLabel(''), setRequired(false))
  }
  return (
    <div className="add-field" role="group" aria-label="Add a field">
      <input value={name} aria-label="New field name" placeholder="field name" data-testid="flow-field-name" aria-invalid={!!name && !FIELD_NAME.test(name)} onChange={(e) => setName(e.target.value.trim())} />
      <select value={kind} aria-label="New field kind" data-testid="flow-field-kind" onChange={(e) => setKind(e.target.value as FieldKind)}>
        {Object.entries(FIELD_KINDS).map(([k, v]) => (
          <option key={k} value={k}>{v.label}</option>
        ))}
      </select>
      <input value={label} aria-label="New field label (text key)" placeholder={key} data-testid="flow-field-label" onChange={(e) => setLabel(e.target.value.trim())} />
      <label><input type="checkbox" checked={required} onChange={(e) => setRequired(e.target.checked)} /> required</label>
      <button type="button" disabled={!FIELD_NAME.test(name)} data-testid="flow-field-add" onClick={add}>Add field</button>
      {problem ? <span className="error" role="status">{problem}</span> : null}
    </div>
  )
}

export function FlowFields({ flow, readOnly, onChange }: { flow: Json; readOnly: boolean; onChange: (flow: Json) => void }) {
  const steps = Array.isArray(flow.steps) ? (flow.steps as StepShape[]) : []
  return (
    <section className="flow-fields" aria-label="Fields of each step" data-testid="flow-fields">
      <h3>Fields and their order</h3>
      {steps.map((step, i) => {
        const names = fieldsOf(step)
        return (
          <fieldset key={step.id} data-testid="flow-step-fields" data-step={step.id} disabled={readOnly}>
            <legend>Step {step.id}</legend>
            <ol>
              {names.map((name, at) => (
                <li key={name} data-testid="flow-field" data-name={name}>
                  <code>{name}</code> <span className="muted">{String(step.schema?.properties?.[name]?.title ?? '')}</span>{' '}
                  <button type="button" aria-label={`Move ${name} up`} disabled={at === 0} onClick={() => onChange(moveField(flow, i, name, -1))}>↑</button>
                  <button type="button" aria-label={`Move ${name} down`} disabled={at === names.length - 1} onClick={() => onChange(moveField(flow, i, name, 1))}>↓</button>
                  <button type="button" aria-label={`Remove ${name}`} onClick={() => onChange(removeField(flow, i, name))}>Remove</button>
                  <FieldTexts textKey={step.schema?.properties?.[name]?.title} readOnly={readOnly} />
                </li>
              ))}
            </ol>
            <AddField
              flowId={String(flow.id ?? 'flow')}
              onAdd={(field) => {
                const next = addField(flow, i, field)
                if (typeof next === 'string') return next
                onChange(next)
                return undefined
              }}
            />
          </fieldset>
        )
      })}
    </section>
  )
}
