import blueimpMd5 from 'blueimp-md5'
import type { Condition, ConditionalStatement } from './types'

/**
 * The one evaluator of experiment-service conditions (spec §3, §5).
 *
 * `attributes` is the visitor's flat attribute map (see `visitorAttributes` in ./visitor): keys
 * like `userId`, `geo.country`, `os.name`, `custom.vip`, `time`, `date`. Values compare as text;
 * an absent attribute equals nothing, so 'equal' / 'any of' fail and 'not equal' / 'none of' pass.
 * For private flags the condition's value is an MD5 hex digest and the visitor's value is hashed
 * before comparing, so the config never carries the raw value (e-mails, user ids).
 */

export type VisitorAttributes = Record<string, string | undefined>

/** MD5 hex of the UTF-8 bytes of `text` (blueimp-md5: 1.6 KB brotli, was spark-md5 at 2.6 KB; the
 * experiment client is on every page's first load). */
export function md5(text: string): string {
  return blueimpMd5(text)
}

// Normalised expected values per condition object (config objects are not changed after parsing).
const expectedCache = new WeakMap<Condition, { plain: Set<string>; digests: Set<string> }>()

function expectedValues(condition: Condition, isPrivate: boolean): Set<string> {
  let entry = expectedCache.get(condition)
  if (!entry) {
    const list = (Array.isArray(condition.value) ? condition.value : [condition.value]).map((item) => String(item).trim())
    entry = { plain: new Set(list), digests: new Set(list.map((v) => v.toLowerCase())) }
    expectedCache.set(condition, entry)
  }
  return isPrivate ? entry.digests : entry.plain
}

export function evaluateCondition(condition: Condition, attributes: VisitorAttributes, isPrivate = false): boolean {
  const raw = attributes[condition.name]
  const actual = raw === undefined ? undefined : isPrivate ? md5(raw.trim()) : raw.trim()
  const matches = actual !== undefined && expectedValues(condition, isPrivate).has(actual)
  switch (condition.condition_sign) {
    case 'equal':
    case 'any of':
      return matches
    case 'not equal':
    case 'none of':
      return !matches
    default:
      return false
  }
}

/** OR: any condition holds; AND (default): every condition holds. No conditions: holds. */
export function evaluateConditions(
  conditions: readonly Condition[] | undefined,
  statement: ConditionalStatement | undefined,
  attributes: VisitorAttributes,
  isPrivate = false,
): boolean {
  if (!conditions || conditions.length === 0) return true
  const check = (c: Condition) => evaluateCondition(c, attributes, isPrivate)
  return statement === 'OR' ? conditions.some(check) : conditions.every(check)
}
