import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fnv1a32 } from '../../../kernel/experiments/hash'

/** Reference: FNV-1a over TextEncoder's UTF-8 bytes, the definition the README pins. */
function referenceFnv1a32(text: string): number {
  let hash = 0x811c9dc5
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}

/** GrowthBook's fnv1a32 (UTF-16 code units), copied from its MIT-licensed util.ts, for comparison. */
function growthbookFnv1a32(str: string): number {
  let hval = 0x811c9dc5
  const l = str.length
  for (let i = 0; i < l; i++) {
    hval ^= str.charCodeAt(i)
    hval += (hval << 1) + (hval << 4) + (hval << 7) + (hval << 8) + (hval << 24)
  }
  return hval >>> 0
}

describe('hash: FNV-1a 32-bit over UTF-8 bytes (pinned)', () => {
  it('equals FNV-1a over TextEncoder bytes for any string, including emoji and lone surrogates', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => fnv1a32(text) === referenceFnv1a32(text)), { numRuns: 5000 })
    for (const text of ['\ud800', 'a\udc00b', '\ud83d', '😀\ud83d', 'Jürgen', '👍🏽']) expect(fnv1a32(text)).toBe(referenceFnv1a32(text))
  })
  it("equals GrowthBook's FNV-1a for ASCII ids (same algorithm)", () => {
    fc.assert(fc.property(fc.string({ unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)) }), (text) =>
      fnv1a32(text) === growthbookFnv1a32(text)))
  })
  it("differs from GrowthBook's UTF-16 hashing for non-ASCII ids: ours hashes UTF-8 bytes", () => {
    expect(fnv1a32('Jürgen')).not.toBe(growthbookFnv1a32('Jürgen'))
    expect(fnv1a32('😀')).not.toBe(growthbookFnv1a32('😀'))
  })
})
