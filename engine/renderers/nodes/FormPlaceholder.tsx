/**
 * What a form shows while its chunk, flow and validators load (issue 10: CLS ≤ 0.02): a busy box
 * as tall as the form's first step will be, so what follows the form on the screen does not jump
 * when the form replaces it. The height is estimated from the flow document (the page carries it
 * in its boot data): the heading block, one row per visible field (taller with a help text,
 * shorter for a checkbox), the buttons — the same metrics as web/styles' form rules.
 */
import { useEffect, useState } from 'react'
import type { FlowDocument } from '../../../kernel/documents/types'
import { useRuntime } from '../runtime'

/** The rows of the first step as the placeholder draws them, each a block of a fixed height in
 * web/styles/nodes.css (`.form-loading__*`): classes, not a style attribute, so the server can
 * render the placeholder under the CSP's `style-src 'self'` (issue 10: server-rendered first screen). */
type Row = 'heading' | 'field' | 'field-help' | 'check' | 'check-help' | 'actions'
const ROW_HEIGHT: Record<Row, number> = { heading: 118, field: 88, 'field-help': 114, check: 60, 'check-help': 86, actions: 64 }
/** A first step of four plain fields, until the flow document is in. */
const TYPICAL_ROWS: Row[] = ['heading', 'field', 'field', 'field', 'field', 'actions']

type UiField = { 'ui:widget'?: unknown; 'ui:help'?: unknown }

/** `headed` false: the form shows no flow title (the page or popup does), so a first step without
 * a title of its own has no heading block. */
function placeholderRows(flow: FlowDocument | undefined, headed = true): Row[] {
  const step = flow?.steps?.[0]
  if (!step) return TYPICAL_ROWS
  const properties = ((step.schema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties ?? {}) as Record<string, { type?: unknown }>
  const ui = (step.uiSchema ?? {}) as Record<string, UiField | undefined>
  const rows: Row[] = headed || step.title ? ['heading'] : []
  for (const [name, property] of Object.entries(properties)) {
    const widget = ui[name]?.['ui:widget']
    if (widget === 'hidden') continue
    const check = widget === 'checkbox' || property?.type === 'boolean'
    const help = Boolean(ui[name]?.['ui:help'])
    rows.push(check ? (help ? 'check-help' : 'check') : help ? 'field-help' : 'field')
  }
  rows.push('actions')
  return rows
}

/** The first step's height in CSS pixels at phone width. */
export function estimatedFormHeight(flow: FlowDocument | undefined, headed = true): number {
  return placeholderRows(flow, headed).reduce((height, row) => height + ROW_HEIGHT[row], 0)
}

export function FormPlaceholder({ flowId, label, className, testId, headed = true }: { flowId: string; label: string; className: string; testId?: string; headed?: boolean }) {
  const runtime = useRuntime()
  const [flow, setFlow] = useState(() => runtime.peek<FlowDocument>('flow', flowId))
  useEffect(() => {
    if (flow) return
    let alive = true
    void runtime.load<FlowDocument>('flow', flowId).then((result) => {
      if (alive && result.ok) setFlow(result.value)
    })
    return () => {
      alive = false
    }
  }, [flow, flowId, runtime])
  return (
    <div className={className} aria-busy="true" data-testid={testId}>
      <span className="form-loading__label">{label}</span>
      {placeholderRows(flow, headed).map((row, index) => (
        <span key={index} className={`form-loading__row form-loading__row--${row}`} aria-hidden="true" />
      ))}
    </div>
  )
}
