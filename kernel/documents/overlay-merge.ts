/**
 * Jurisdiction overlays (docs/adr/0005-jurisdiction-overlays.md): a jurisdiction's document that
 * stores only what it changes over a shared document. This file is the merge, shared ⊕ overlay,
 * pure (no Node, no imports) so the server, the tools and the studio in the browser run the same one.
 *
 * The patch is a JSON Merge Patch (RFC 7396) extended the way Kubernetes' strategic merge patch
 * extends it, for lists of objects with an identity:
 * - objects merge key by key; `null` removes a key; a new key goes after the shared ones;
 * - a list whose shared items all carry a distinct string `id` (else `name`) merges item by item
 *   on that key: a patch item with a known key changes that item, an unknown key adds an item at
 *   the end, `{"id": "x", "$patch": "delete"}` removes one; any other list is replaced whole;
 * - `"$setElementOrder/<list>": ["a", "b", …]` beside a list puts its items in that order (items
 *   not named follow, in their merged order);
 * - `{"$patch": "replace", …}` replaces an object whole; a list starting with `{"$patch": "replace"}`
 *   replaces the list whole.
 */
export const OVERLAY_KEY = '$overlay'
export const PATCH_KEY = '$patch'
export const ORDER_PREFIX = '$setElementOrder/'
/** The keys a list of objects can be merged by, in the order they are tried. */
export const LIST_KEYS = ['id', 'name'] as const
export type ListKey = (typeof LIST_KEYS)[number]

export interface PatchProblem {
  pointer: string
  message: string
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)

export const escapeSegment = (segment: string | number) => String(segment).replace(/~/g, '~0').replace(/\//g, '~1')

/** The key a list merges by: every item an object with a distinct string `id` (else `name`). */
export function listKeyOf(items: unknown): ListKey | undefined {
  if (!Array.isArray(items) || items.length === 0) return undefined
  for (const key of LIST_KEYS) {
    const seen = new Set<string>()
    const keyed = items.every((item) => {
      if (!isPlainObject(item) || typeof item[key] !== 'string' || seen.has(item[key] as string)) return false
      seen.add(item[key] as string)
      return true
    })
    if (keyed) return key
  }
  return undefined
}

const isReplaceMarker = (value: unknown) => isPlainObject(value) && value[PATCH_KEY] === 'replace' && Object.keys(value).length === 1
const isDeletion = (value: unknown) => value === null || (isPlainObject(value) && value[PATCH_KEY] === 'delete')
const isDirective = (key: string) => key === PATCH_KEY || key.startsWith(ORDER_PREFIX)

/** A patch value applied to nothing: directives and `null`s dropped, the rest as written. */
export function materialize(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((item) => !isReplaceMarker(item) && !(isPlainObject(item) && item[PATCH_KEY] === 'delete')).map(materialize)
  if (!isPlainObject(value)) return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, item]) => !isDirective(key) && !isDeletion(item))
      .map(([key, item]) => [key, materialize(item)]),
  )
}

/** shared ⊕ patch. Problems (a list item without its key, an unknown directive) name the patch's pointer. */
export function mergePatch(base: unknown, patch: unknown, pointer: string, problems: PatchProblem[]): unknown {
  if (Array.isArray(patch)) return mergeList(base, patch, pointer, problems)
  if (!isPlainObject(patch)) return patch
  const directive = patch[PATCH_KEY]
  if (directive !== undefined && directive !== 'replace' && directive !== 'merge')
    problems.push({ pointer: `${pointer}/${PATCH_KEY}`, message: `unknown ${PATCH_KEY} ${JSON.stringify(directive)}: expected "replace" or "merge" (or "delete" for a list item)` })
  if (directive === 'replace' || !isPlainObject(base)) return materialize(patch)
  const merged = new Map(Object.entries(base))
  for (const [key, value] of Object.entries(patch)) {
    if (isDirective(key)) continue
    if (key === '__proto__') {
      problems.push({ pointer: `${pointer}/__proto__`, message: 'the key __proto__ is not allowed' })
      continue
    }
    if (isDeletion(value)) merged.delete(key)
    else merged.set(key, mergePatch(merged.get(key), value, `${pointer}/${escapeSegment(key)}`, problems))
  }
  for (const [key, order] of Object.entries(patch)) {
    if (!key.startsWith(ORDER_PREFIX)) continue
    const list = key.slice(ORDER_PREFIX.length)
    merged.set(list, reorder(merged.get(list), order, `${pointer}/${escapeSegment(key)}`, problems))
  }
  return Object.fromEntries(merged)
}

function mergeList(base: unknown, patch: unknown[], pointer: string, problems: PatchProblem[]): unknown[] {
  if (isReplaceMarker(patch[0])) return patch.slice(1).map(materialize)
  const key = listKeyOf(base)
  if (!key) return patch.map(materialize)
  const items = new Map((base as Record<string, unknown>[]).map((item) => [item[key] as string, item as unknown]))
  patch.forEach((item, i) => {
    if (!isPlainObject(item) || typeof item[key] !== 'string') {
      problems.push({ pointer: `${pointer}/${i}`, message: `each item needs its "${key}": the shared list is merged by ${key}` })
      return
    }
    const id = item[key] as string
    if (item[PATCH_KEY] === 'delete') items.delete(id)
    else items.set(id, items.has(id) ? mergePatch(items.get(id), item, `${pointer}/${i}`, problems) : materialize(item))
  })
  return [...items.values()]
}

/** The named items first, in the order given; the others after, as they were. */
function reorder(list: unknown, order: unknown, pointer: string, problems: PatchProblem[]): unknown {
  const key = listKeyOf(list)
  if (!Array.isArray(order) || !order.every((k) => typeof k === 'string')) {
    problems.push({ pointer, message: 'an element order is a list of item ids (or names)' })
    return list
  }
  if (!key) {
    // An empty or missing list has nothing to order; any other list has no item identity to order by.
    if (Array.isArray(list) && list.length > 0) problems.push({ pointer, message: 'only a list of items with an id (or a name) can be ordered' })
    return list
  }
  const items = list as Record<string, unknown>[]
  const named = (order as string[]).flatMap((id) => items.filter((item) => item[key] === id))
  return [...named, ...items.filter((item) => !named.includes(item))]
}
