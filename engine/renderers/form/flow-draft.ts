/**
 * FlowForm's progress across a reload (issue 31 item 5), as a hook beside the form rather than in
 * it: at mount the kept draft of a `keepProgress` flow (engine/core/flow-drafts.ts) gives back the
 * values and the step; every change is kept again (secrets never); a completed flow forgets it.
 * Over the server's markup the first render stays the server's, and the draft comes in the layout
 * effect right after (before the first paint of the live form).
 */
import { useEffect, useLayoutEffect, useRef } from 'react'
import { clearDraft, readDraft, writeDraft, type FlowDraft } from '../../core/flow-drafts'
import type { FlowDocument } from '../../../kernel/documents/types'

export interface FlowDraftOptions {
  flow: FlowDocument
  /** The site the draft belongs to (its jurisdiction). */
  site: string
  values: Record<string, unknown>
  stepId: string | undefined
  done: boolean
  /** Gives the form the kept values and step. */
  restore(draft: FlowDraft): void
}

export function useFlowDraft({ flow, site, values, stepId, done, restore }: FlowDraftOptions): void {
  const ready = useRef(false)
  useLayoutEffect(() => {
    const draft = readDraft(site, flow, Date.now())
    if (draft) restore(draft)
    ready.current = true
    // at mount only: afterwards the form's own state is the truth
  }, [])
  useEffect(() => {
    if (!ready.current || !stepId) return
    if (done) clearDraft(site, flow.id)
    else writeDraft(site, flow, stepId, values, Date.now())
  }, [site, flow, stepId, values, done])
}
