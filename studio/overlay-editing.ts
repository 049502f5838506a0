/**
 * Editing a jurisdiction's overlay in the studio (docs/overlays.md): the operator edits the whole
 * document as the site is served it (shared ⊕ overlay, in the form or as JSON); saving stores only
 * what differs from the shared document (kernel/documents/overlay-diff.ts), so later shared changes
 * keep reaching the site. Whole copies and shared documents are saved as they are typed.
 */
import { overlayDocumentOf } from '../kernel/documents/overlay-diff'
import { overlayBaseOf, resolveOverlay } from '../kernel/documents/overlay-set'
import { call } from './api'

export interface OverlayBase {
  file: string
  doc: Record<string, unknown>
}

const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`

/** The published shared document a stored overlay text builds on; undefined for any other text. */
export async function overlayBaseFor(stored: string): Promise<OverlayBase | undefined> {
  const file = overlayBaseOf(stored)
  if (!file) return undefined
  const answer = await call<{ published: { content: string } }>('GET', `/admin/api/document?file=${encodeURIComponent(file)}`)
  return answer.ok ? { file, doc: JSON.parse(answer.payload.published.content) as Record<string, unknown> } : undefined
}

/** What the editor shows for a stored text: an overlay resolved over its shared document. */
export function editableText(file: string, stored: string, base: OverlayBase | undefined): string {
  if (!base || overlayBaseOf(stored) !== base.file) return stored
  const resolved = resolveOverlay(file, JSON.parse(stored) as Record<string, unknown>, base.file, base.doc)
  return resolved.ok ? pretty(resolved.document) : stored
}

/** What to save for the edited text: for an overlay, its patch; why not, when no patch gives it back. */
export function textToSave(file: string, edited: string, base: OverlayBase | undefined): { ok: true; content: string } | { ok: false; problem: string } {
  if (!base) return { ok: true, content: edited }
  let doc: unknown
  try {
    doc = JSON.parse(edited)
  } catch {
    return { ok: false, problem: 'The JSON does not parse: an overlay stores what differs from the shared document, so fix the JSON before saving.' }
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return { ok: false, problem: 'A document is a JSON object.' }
  const overlay = overlayDocumentOf(file, base.file, base.doc, doc as Record<string, unknown>)
  return overlay.ok ? { ok: true, content: pretty(overlay.document) } : { ok: false, problem: `This change cannot be stored as an overlay: ${overlay.reason}.` }
}
