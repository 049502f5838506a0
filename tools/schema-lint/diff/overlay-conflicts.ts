/**
 * Conflicts between a change of a shared document and the jurisdictions' overlays on it
 * (docs/adr/0005-jurisdiction-overlays.md): "Spain's overlay changes X, which this shared change
 * also changes". Both sides are read as patches against the shared document as it was: the
 * overlay as written, the shared change as the patch from its old text to its new one
 * (kernel/documents/overlay-diff.ts), so both name places the same way (`/items[quiz]/label`).
 *
 * Four cases: both change the same place (the overlay's value wins, the shared change does not
 * reach that site there); the shared change removes or replaces something the overlay changes
 * inside; the overlay replaces or removes something the shared change changes inside (it does not
 * reach that site); the overlay sets a list's order and the shared change adds an item to it.
 * Conflicts are warnings shown at submit and in review, except one: a shared change that removes
 * something an overlay changes is an error, because the overlay would then add back a partial item
 * (a menu item with only a label, without its `loginOnly`). Fixed by changing the overlay in the
 * same release (the overlay as it will be live is the one compared).
 */
import { isPlainObject, listKeyOf, ORDER_PREFIX, OVERLAY_KEY, PATCH_KEY } from '../../../kernel/documents/overlay-merge'
import { patchBetween } from '../../../kernel/documents/overlay-diff'
import { jurisdictionOfFile, overlayBaseOf } from '../../../kernel/documents/overlay-set'
import { classifyWords } from './classify'
import { documentIdentity, fingerprintOf, refOf, type DiffFinding } from './differ'
import { snapshotOf } from './sources'

interface Segment {
  key: string
  keyed: boolean
}
type Op = 'set' | 'remove' | 'add' | 'order'
interface Touch {
  path: Segment[]
  op: Op
}

export interface OverlayConflict {
  /** The overlay file and the shared file it builds on. */
  overlay: string
  base: string
  jurisdiction: string
  /** Where, keyed by identity as the differ writes it: `/items[quiz]/label`. */
  location: string
  message: string
  severity: 'error' | 'warning'
}

const parse = (text: string | undefined): Record<string, unknown> | undefined => {
  if (text === undefined) return undefined
  try {
    const value = JSON.parse(text) as unknown
    return isPlainObject(value) ? value : undefined
  } catch {
    return undefined
  }
}
const locationOf = (path: Segment[]) => path.map((s) => (s.keyed ? `[${s.key}]` : `/${s.key}`)).join('') || '/'
const titleCase = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s)
/** Top-level keys that say what a document is or describe it: an overlay repeats them, they never conflict. */
const IDENTITY_KEYS = new Set(['$schema', OVERLAY_KEY, 'kind', 'id', 'description'])
const isPrefix = (a: Segment[], b: Segment[]) => a.length <= b.length && a.every((s, i) => s.key === b[i].key && s.keyed === b[i].keyed)

/** Every place a patch touches, against the document it applies to. */
export function touchesOf(patch: unknown, base: unknown, path: Segment[] = [], out: Touch[] = []): Touch[] {
  if (Array.isArray(patch)) {
    const key = listKeyOf(base)
    const first = patch[0]
    if (!key || (isPlainObject(first) && first[PATCH_KEY] === 'replace')) {
      out.push({ path, op: 'set' })
      return out
    }
    for (const item of patch) {
      if (!isPlainObject(item) || typeof item[key] !== 'string') continue
      const at = [...path, { key: item[key] as string, keyed: true }]
      const shared = (base as Record<string, unknown>[]).find((b) => b[key] === item[key])
      if (item[PATCH_KEY] === 'delete') out.push({ path: at, op: 'remove' })
      else if (!shared) out.push({ path: at, op: 'add' })
      else touchesOf(Object.fromEntries(Object.entries(item).filter(([k]) => k !== key)), shared, at, out)
    }
    return out
  }
  if (!isPlainObject(patch) || !isPlainObject(base) || patch[PATCH_KEY] === 'replace') {
    out.push({ path, op: 'set' })
    return out
  }
  for (const [key, value] of Object.entries(patch)) {
    if (key === PATCH_KEY || (path.length === 0 && IDENTITY_KEYS.has(key))) continue
    if (key.startsWith(ORDER_PREFIX)) out.push({ path: [...path, { key: key.slice(ORDER_PREFIX.length), keyed: false }], op: 'order' })
    else if (value === null) out.push({ path: [...path, { key, keyed: false }], op: 'remove' })
    else if (!Object.hasOwn(base, key)) out.push({ path: [...path, { key, keyed: false }], op: 'add' })
    else touchesOf(value, base[key], [...path, { key, keyed: false }], out)
  }
  return out
}

/** How one shared touch and one overlay touch meet, in words; undefined when they do not. */
function meeting(shared: Touch, overlay: Touch, site: string): { message: string; severity: 'error' | 'warning' } | undefined {
  const s = locationOf(shared.path)
  const o = locationOf(overlay.path)
  const warn = (message: string) => ({ message, severity: 'warning' as const })
  if (shared.op === 'order' || overlay.op === 'order') {
    if (overlay.op === 'order' && shared.op === 'add' && shared.path.length === overlay.path.length + 1 && isPrefix(overlay.path, shared.path))
      return warn(`${site}'s overlay sets the order of ${o}: the item ${shared.path[shared.path.length - 1].key} this shared change adds comes last there`)
    return shared.op === overlay.op && s === o ? warn(`${site}'s overlay sets the order of ${o}, which this shared change also reorders: ${site} keeps its own order`) : undefined
  }
  if (shared.op === 'remove' && overlay.op !== 'remove' && isPrefix(shared.path, overlay.path))
    return { message: `this shared change removes ${s}, which ${site}'s overlay changes${s === o ? '' : ` (${o})`}: the overlay would add it back in part; change the overlay in the same release`, severity: 'error' }
  if (s === o) return shared.op === 'remove' ? undefined : warn(`${site}'s overlay changes ${o}, which this shared change also changes: ${site} keeps its own`)
  if (isPrefix(shared.path, overlay.path)) return warn(`this shared change replaces ${s}, inside which ${site}'s overlay changes ${o}`)
  if (isPrefix(overlay.path, shared.path)) return warn(`${site}'s overlay ${overlay.op === 'remove' ? 'removes' : 'replaces'} ${o}, so this shared change to ${s} does not reach ${site}`)
  return undefined
}

/** The conflicts between the shared documents a change edits and the overlays on them. */
export function overlayConflicts(before: Map<string, string>, after: Map<string, string>): OverlayConflict[] {
  const conflicts: OverlayConflict[] = []
  for (const [file, text] of after) {
    const baseFile = overlayBaseOf(text)
    if (!baseFile) continue
    const [old, next] = [parse(before.get(baseFile)), parse(after.get(baseFile))]
    const overlay = parse(text)
    if (!old || !next || !overlay || before.get(baseFile) === after.get(baseFile)) continue
    const shared = touchesOf(patchBetween(old, next) ?? {}, old)
    const own = touchesOf(overlay, old)
    const jurisdiction = jurisdictionOfFile(file)
    for (const s of shared)
      for (const o of own) {
        const met = meeting(s, o, titleCase(jurisdiction))
        if (met) conflicts.push({ overlay: file, base: baseFile, jurisdiction, location: locationOf(o.path.length > s.path.length ? o.path : s.path), message: `${met.message} (shared document ${baseFile})`, severity: met.severity })
      }
  }
  return conflicts
}

/** The conflicts as review findings (warnings), on each overlay's resolved document. */
export function overlayConflictFindings(before: Map<string, string>, after: Map<string, string>): DiffFinding[] {
  return overlayConflicts(before, after).flatMap((conflict) => {
    const snapshot = snapshotOf(conflict.overlay, after.get(conflict.overlay) ?? '')
    if (!snapshot) return []
    const document = refOf(snapshot)
    const impact = classifyWords(...conflict.location.split(/[/[\]]/).filter(Boolean)) ?? classifyWords(snapshot.id) ?? 'cosmetic'
    return [
      {
        fingerprint: fingerprintOf(impact, documentIdentity(document), conflict.location, 'overlay.conflict'),
        rule: 'overlay.conflict',
        impact,
        severity: conflict.severity,
        direction: 'neutral' as const,
        message: `${document.label}: ${conflict.message}`,
        document,
        location: conflict.location,
      },
    ]
  })
}
