/**
 * What the lint gate checks once overlays are resolved (docs/adr/0005-jurisdiction-overlays.md):
 * a change is turned into the changes of the SERVED documents it makes — an overlay's resolved
 * document; for a shared document (or a base), every overlay built on it too — so the gate
 * validates and lints each site's resolved document whole, exactly as a whole copy is. An overlay
 * that no longer resolves (its shared document removed, a list item without its id) is an error;
 * a conflict between a shared change and an overlay is a warning the submit and the review show
 * (an error when the shared change removes what an overlay changes: tools/schema-lint/diff/overlay-conflicts.ts).
 *
 * Kept apart from lint-gate.ts: the gate itself is unchanged and receives these versions.
 */
import { resolveOverlaySet } from '../../kernel/documents/overlay-set'
import { overlayConflicts } from '../../tools/schema-lint'
import type { GateFinding } from './lint-gate'

export interface GateVersion {
  file: string
  content: string
  deleted: boolean
}

/** The published texts with these versions in place (a deletion takes its file out). */
export function textsWith(published: Map<string, string>, versions: GateVersion[]): Map<string, string> {
  const texts = new Map(published)
  for (const v of versions) v.deleted ? texts.delete(v.file) : texts.set(v.file, v.content)
  return texts
}

/** The served changes a set of versions makes, the overlays it breaks, and its conflicts with overlays. */
export function overlayEffects(published: Map<string, string>, versions: GateVersion[]): { versions: GateVersion[]; problems: GateFinding[]; conflicts: GateFinding[] } {
  const after = textsWith(published, versions)
  const [was, now] = [resolveOverlaySet(published), resolveOverlaySet(after)]
  const own = new Set(versions.map((v) => v.file))
  const known = new Set(was.problems.map((p) => `${p.file}|${p.message}`))
  const problems = now.problems.filter((p) => own.has(p.file) || !known.has(`${p.file}|${p.message}`)).map((p) => ({ ...p, severity: 'error' as const, rule: 'overlay' }))
  const served: GateVersion[] = []
  for (const [file, content] of now.texts) if (own.has(file) || was.texts.get(file) !== content) served.push({ file, content, deleted: false })
  for (const file of was.texts.keys()) if (!now.texts.has(file)) served.push({ file, content: '', deleted: true })
  const conflicts = overlayConflicts(published, after).map((c) => ({ file: c.overlay, pointer: '', message: c.message, severity: c.severity, rule: 'overlay/conflict' }))
  return { versions: served, problems, conflicts }
}
