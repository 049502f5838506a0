/**
 * "Create Spain's overlay of this document" (docs/overlays.md): a jurisdiction's version of a shared
 * document lives at `jurisdictions/<id>/<the shared path>` (a base's path without `bases/`) and
 * starts as an empty overlay — the shared document unchanged — which the operator then edits.
 */
import { OVERLAY_KEY } from '../kernel/documents/overlay-merge'
import { kindSchemaPath } from '../kernel/documents/overlay-set'

export function jurisdictionCopyFile(file: string, jurisdiction: string): string | undefined {
  if (file.startsWith('jurisdictions/') || !/^[a-z0-9-]+$/.test(jurisdiction)) return undefined
  return `jurisdictions/${jurisdiction}/${file.replace(/^bases\//, '')}`
}

/** An overlay on the shared document (of this kind and id) that changes nothing yet. */
export function jurisdictionOverlayText(shared: { file: string; kind: string; id: string }, overlayFile: string): string {
  return `${JSON.stringify({ $schema: kindSchemaPath(overlayFile, 'overlay'), [OVERLAY_KEY]: shared.file, kind: shared.kind, id: shared.id }, null, 2)}\n`
}
