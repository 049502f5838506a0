/**
 * What a form shows while its chunk, flow and validators load (issue 10: CLS ≤ 0.02): a busy box
 * as tall as the form's first step will be, so what follows the form on the screen does not jump
 * when the form replaces it. The height is estimated from the flow document (the page carries it
 * in its boot data): the heading block, one row per visible field (taller with a help text,
 * shorter for a checkbox), the buttons — the same metrics as web/styles' form rules.
 */
import { useEffect, useState } from 'react'
import type { FlowDocument } from '../../documents/types'
import { useRuntime } from '../runtime'

const HEADING_BLOCK = 118
const FIELD_ROW = 88
const HELP_TEXT = 26
const CHECKBOX_ROW = 60
const ACTIONS = 64
/** A first step of four plain fields, until the flow document is in. */
const TYPICAL_HEIGHT = HEADING_BLOCK + 4 * FIELD_ROW + ACTIONS

type UiField = { 'ui:widget'?: unknown; 'ui:help'?: unknown }

/** The first step's height in CSS pixels at phone width. */
export function estimatedFormHeight(flow: FlowDocument | undefined): number {
  const step = flow?.steps?.[0]
  if (!step) return TYPICAL_HEIGHT
  const properties = ((step.schema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties ?? {}) as Record<string, { type?: unknown }>
  const ui = (step.uiSchema ?? {}) as Record<string, UiField | undefined>
  let height = HEADING_BLOCK + ACTIONS
  for (const [name, property] of Object.entries(properties)) {
    const widget = ui[name]?.['ui:widget']
    if (widget === 'hidden') continue
    height += widget === 'checkbox' || property?.type === 'boolean' ? CHECKBOX_ROW : FIELD_ROW
    if (ui[name]?.['ui:help']) height += HELP_TEXT
  }
  return height
}

export function FormPlaceholder({ flowId, label, className, testId }: { flowId: string; label: string; className: string; testId?: string }) {
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
    <div className={className} aria-busy="true" data-testid={testId} style={{ minHeight: estimatedFormHeight(flow) }}>
      {label}
    </div>
  )
}
