/**
 * The other direction of overlay-merge.ts: the smallest patch that turns a shared document into a
 * given one. The studio saves an edited jurisdiction document through it (the operator edits the
 * whole resolved document; the overlay stores only the difference), the conversion of old whole
 * copies uses it, and the conflict check reads a shared change through it.
 *
 * A patch is returned only when shared ⊕ patch gives back the target exactly (key order included),
 * checked by merging: values a merge patch cannot write (a `null` inside an object, a key spelled
 * like a directive) make it fail, and the caller keeps a whole document.
 */
import { isPlainObject, listKeyOf, mergePatch, ORDER_PREFIX, OVERLAY_KEY, PATCH_KEY, type PatchProblem } from './overlay-merge'
import { kindSchemaPath } from './overlay-set'

const UNCHANGED = Symbol('unchanged')
type Diff = unknown | typeof UNCHANGED

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** The patch from `base` to `target` (not checked: see overlayPatchOf); undefined when they are equal. */
export function patchBetween(base: unknown, target: unknown): unknown {
  const diff = diffValue(base, target)
  return diff === UNCHANGED ? undefined : diff
}

function diffValue(base: unknown, target: unknown): Diff {
  if (sameJson(base, target)) return UNCHANGED
  if (isPlainObject(base) && isPlainObject(target)) return diffObject(base, target)
  if (Array.isArray(base) && Array.isArray(target)) return diffList(base, target).patch ?? []
  return target
}

function diffObject(base: Record<string, unknown>, target: Record<string, unknown>): Diff {
  const patch: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(target)) {
    if (!Object.hasOwn(base, key)) {
      patch[key] = value
      continue
    }
    if (Array.isArray(base[key]) && Array.isArray(value)) {
      const list = diffList(base[key] as unknown[], value)
      if (list.patch !== undefined) patch[key] = list.patch
      if (list.order) patch[`${ORDER_PREFIX}${key}`] = list.order
      continue
    }
    const diff = diffValue(base[key], value)
    if (diff !== UNCHANGED) patch[key] = diff
  }
  for (const key of Object.keys(base)) if (!Object.hasOwn(target, key)) patch[key] = null
  // A merge keeps the shared keys where they are and puts new ones after: any other order is a replacement.
  const merged = [...Object.keys(base).filter((k) => Object.hasOwn(target, k)), ...Object.keys(target).filter((k) => !Object.hasOwn(base, k))]
  if (merged.join('\u0000') !== Object.keys(target).join('\u0000')) return { [PATCH_KEY]: 'replace', ...target }
  return patch
}

/** A list's patch (undefined: no item changed) and, when the merge would leave another order, the order. */
function diffList(base: unknown[], target: unknown[]): { patch?: unknown[]; order?: string[] } {
  if (sameJson(base, target)) return {}
  const key = listKeyOf(base)
  if (!key) return { patch: target }
  if (target.length === 0 || listKeyOf(target) !== key) return { patch: [{ [PATCH_KEY]: 'replace' }, ...target] }
  const shared = new Map((base as Record<string, unknown>[]).map((item) => [item[key] as string, item]))
  const wanted = (target as Record<string, unknown>[]).map((item) => item[key] as string)
  const patch: unknown[] = []
  for (const item of target as Record<string, unknown>[]) {
    const id = item[key] as string
    if (!shared.has(id)) {
      patch.push(item)
      continue
    }
    const diff = diffValue(shared.get(id), item)
    if (diff === UNCHANGED) continue
    patch.push(isPlainObject(diff) && diff[PATCH_KEY] !== 'replace' ? { [key]: id, ...diff } : diff)
  }
  for (const id of shared.keys()) if (!wanted.includes(id)) patch.push({ [key]: id, [PATCH_KEY]: 'delete' })
  const merged = [...[...shared.keys()].filter((id) => wanted.includes(id)), ...wanted.filter((id) => !shared.has(id))]
  return { patch: patch.length > 0 ? patch : undefined, ...(merged.join('\u0000') !== wanted.join('\u0000') ? { order: wanted } : {}) }
}

/** The patch from `base` to `target`, or why none gives `target` back exactly. */
export function overlayPatchOf(base: Record<string, unknown>, target: Record<string, unknown>): { ok: true; patch: Record<string, unknown> } | { ok: false; reason: string } {
  const diff = diffValue(base, target)
  const patch = diff === UNCHANGED ? {} : (diff as Record<string, unknown>)
  if (!isPlainObject(patch) || patch[PATCH_KEY] === 'replace') return { ok: false, reason: 'its top-level keys are in another order than the shared document’s' }
  const problems: PatchProblem[] = []
  const merged = mergePatch(base, patch, '', problems)
  if (problems.length > 0) return { ok: false, reason: problems.map((p) => `${p.pointer}: ${p.message}`).join('; ') }
  if (!sameJson(merged, target)) return { ok: false, reason: 'it holds values a merge patch cannot write (a null inside an object, or a key spelled like a $patch directive)' }
  return { ok: true, patch }
}

/**
 * The overlay file that gives `target` at `file` over the shared document `base` (at `baseFile`):
 * `$schema` (the overlay editor schema), `$overlay`, kind and id first, then the patch. The
 * studio saves an edited jurisdiction document through it; the conversion writes old copies with it.
 */
export function overlayDocumentOf(file: string, baseFile: string, base: Record<string, unknown>, target: Record<string, unknown>): { ok: true; document: Record<string, unknown> } | { ok: false; reason: string } {
  // the resolved document's $schema is the one of its own path (overlay-set.ts), never a difference
  const result = overlayPatchOf({ ...base, $schema: target.$schema }, target)
  if (!result.ok) return result
  const { kind: _kind, id: _id, ...patch } = result.patch
  return { ok: true, document: { $schema: kindSchemaPath(file, 'overlay'), [OVERLAY_KEY]: baseFile, kind: target.kind, id: target.id, ...patch } }
}
