/**
 * What a form needs to render its first step synchronously — the flow document and its
 * precompiled validator module — and how the server hands its forms to the `form` node (issue 10:
 * a server-rendered page carries the real form, not a placeholder). No rjsf here: this module is
 * in the entry chunk.
 */
import { createContext, type ComponentType } from 'react'
import type { FlowDocument, NodeOf } from '../../../kernel/documents/types'
import type { ValidatorModule } from '../form/validator-module'

export interface PreparedForm {
  flow: FlowDocument
  validators: ValidatorModule
}

export interface FormProps {
  node: NodeOf<'form'>
  /** The flow and validators, already loaded: the first render is the form itself (hydration
   * needs the same markup the server sent, not a loading placeholder). */
  prepared?: PreparedForm
  /** Hydrating over the server's markup: render exactly what the server rendered (no autofocus). */
  overServerMarkup?: boolean
  /** "Today" (YYYY-MM-DD) as the server rendered the form with it (date bounds and hints): the
   * browser hydrating that markup uses the same day, whatever the punter's time zone. */
  today?: string
  /** Called once the form has mounted in the browser (its markup is live React). */
  onLive?: () => void
}

export interface ServerForms {
  /** The form component (engine/renderers/form/flow-form.tsx), imported by the server only. */
  Form: ComponentType<FormProps>
  /** The page's flows, ready to render; a flow not here renders the placeholder. */
  prepared(flowId: string): PreparedForm | undefined
}

/** Provided by engine/ssr.tsx; absent in the browser. */
export const ServerFormsContext = createContext<ServerForms | null>(null)

/** On a form's host element while its markup is not live React (server-rendered, script not
 * hydrated yet); the page holds a submit made then (web/start-after-paint.js, ./FormNode.tsx). */
export const FORM_PENDING = 'data-form-pending'
/** Set on the host by the punter's first touch, key or focus inside a pending form. */
export const FORM_USED = 'data-form-used'
/** On the host of a server-rendered form: the day it was rendered with (`FormProps.today`). */
export const FORM_TODAY = 'data-form-today'
/** Set on the host when a submit was held: the form makes it again once it is live. */
export const FORM_HELD = 'data-form-held'

/** Is a draft of this flow kept in this tab (engine/core/flow-drafts.ts, key `parlay.draft:<site>:<flow>:<version>`)?
 * The `form` node then loads the form at once to show the kept step (issue 31). */
export function draftKept(site: string, flowId: string): boolean {
  try {
    const prefix = `parlay.draft:${site}:${flowId}:`
    for (let i = 0; i < sessionStorage.length; i++) if (sessionStorage.key(i)?.startsWith(prefix)) return true
  } catch {
    // no storage (a sandboxed frame, the server): nothing kept
  }
  return false
}
