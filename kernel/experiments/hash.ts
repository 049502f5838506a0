/**
 * Hashing and bucketing: the parts of assignment the spec leaves open, pinned here and in
 * README.md ("Pinned decisions"). Test vectors: tests/vectors/experiments/cases.json.
 */

const FNV_OFFSET_BASIS = 0x811c9dc5
const FNV_PRIME = 0x01000193

/**
 * FNV-1a 32-bit over the UTF-8 bytes of `text` (not UTF-16 code units), as an unsigned integer.
 * The bytes are produced inline (no TextEncoder allocation: this runs on every assignment); a lone
 * surrogate encodes as U+FFFD, exactly as TextEncoder does.
 */
export function fnv1a32(text: string): number {
  let hash = FNV_OFFSET_BASIS
  const step = (byte: number) => {
    hash ^= byte
    hash = Math.imul(hash, FNV_PRIME)
  }
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i)
    if (code < 0x80) {
      hash ^= code
      hash = Math.imul(hash, FNV_PRIME)
      continue
    }
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0
      if (next >= 0xdc00 && next <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00)
        i++
      } else code = 0xfffd
    } else if (code >= 0xdc00 && code <= 0xdfff) code = 0xfffd
    if (code < 0x800) {
      step(0xc0 | (code >> 6))
      step(0x80 | (code & 0x3f))
    } else if (code < 0x10000) {
      step(0xe0 | (code >> 12))
      step(0x80 | ((code >> 6) & 0x3f))
      step(0x80 | (code & 0x3f))
    } else {
      step(0xf0 | (code >> 18))
      step(0x80 | ((code >> 12) & 0x3f))
      step(0x80 | ((code >> 6) & 0x3f))
      step(0x80 | (code & 0x3f))
    }
  }
  return hash >>> 0
}

/**
 * A point in [0, scale). FNV-1a's low bits mix poorly for keys that differ only in their last
 * characters (sequential ids), so the first hash's decimal text is hashed again before the modulo
 * (the same remedy GrowthBook's hash v2 uses).
 */
export function hashPoint(key: string, scale: number): number {
  return fnv1a32(String(fnv1a32(key))) % scale
}

/** Allocation point, integer 0-99: hash of id plus salt (spec §5). In iff point < allocation. */
export function allocationPoint(id: string, salt: string): number {
  return hashPoint(`${id}${salt}`, 100)
}

/**
 * Group point in [0, 100) with 0.01 resolution, from a hash independent of the allocation hash,
 * so the groups stay unbiased whatever the allocation.
 */
export function groupPoint(id: string, salt: string): number {
  return hashPoint(`group|${id}${salt}`, 10_000) / 100
}

/** Layer point in [0, 100) with 0.1 resolution: the layer hash (0-999) divided by 10, not integer division. */
export function layerPoint(id: string, layerId: string): number {
  return hashPoint(`${id}${layerId}`, 1000) / 10
}
