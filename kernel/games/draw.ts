/**
 * Uniform draws from a stream of 32-bit words, exactly (issue 28 item 3). A reel of L stops gets
 * each stop with probability exactly 1/L: words at or above the largest multiple of L below 2^32
 * are rejected and the next word is used (no modulo bias), so the probabilities an exact
 * enumeration assumes are the ones the server really plays. The stream is the server's
 * (HMAC-SHA256 of the round id, server/games/engine.ts), a test's or the benchmark's.
 */

/** A source of uniform unsigned 32-bit integers. */
export type Uint32Source = () => number

export const UINT32_RANGE = 2 ** 32

/** A uniform integer in [0, n), 1 ≤ n ≤ 2^32, by rejection sampling. */
export function uniformBelow(n: number, next: Uint32Source): number {
  if (!Number.isInteger(n) || n < 1 || n > UINT32_RANGE) throw new RangeError(`uniformBelow: ${n} is not an integer in [1, 2^32]`)
  const limit = UINT32_RANGE - (UINT32_RANGE % n)
  for (;;) {
    const word = next()
    if (word < limit) return word % n
  }
}
