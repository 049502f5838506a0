/**
 * The crash game a game document declares (kind `game`, engine `crash`), decided by the same
 * functions on the server, at document load and in the benchmark. One round in N (a uniform draw
 * below N is 0) crashes at 1.00: that is the house edge. Otherwise a uniform 32-bit k gives the
 * crash point 2^32 / (2^32 − k), floored to hundredths and capped at the game's maximum. The punter's automatic
 * cash-out at target t wins t × stake when the crash point is at least t.
 *
 * P(crash point ≥ t) = (N − 1)/N × ⌊100·2^32 / (100t)⌋ / 2^32 for 1 < t ≤ the maximum, so the return
 * is (N − 1)/N at every target to within 10^-6 points; crashReturn counts the k of each target
 * from the code itself (the crash point is non-decreasing in k, so a binary search finds them).
 */
import { UINT32_RANGE, uniformBelow, type Uint32Source } from './draw'
import type { Ratio } from './rational'

export interface CrashMaths {
  instantCrashOneIn: number
  maxMultiplier: number
}

export interface CrashRound {
  /** The crash point in hundredths (100 = 1.00). */
  crashHundredths: number
  instant: boolean
}

const SCALED = 100 * UINT32_RANGE

/**
 * The crash point in hundredths for k in [0, 2^32), outside an instant crash: ⌊100·2^32 / (2^32 − k)⌋,
 * capped. The double division floors exactly below the cap (at most 1000.00): a quotient there has
 * a divisor d ≥ 2^32/1000, so a non-integer one lies at least 1/d > 2^-23 from the next integer, far
 * more than a double's spacing near 10^5 (2^-36), and an integer one is exact (tests check every
 * boundary against BigInt).
 */
export function crashHundredths(crash: CrashMaths, k: number): number {
  return Math.min(Math.floor(SCALED / (UINT32_RANGE - k)), crash.maxMultiplier * 100)
}

/** One round drawn from the stream: the instant-crash draw first, then k. */
export function drawCrash(crash: CrashMaths, next: Uint32Source): CrashRound {
  if (uniformBelow(crash.instantCrashOneIn, next) === 0) return { crashHundredths: 100, instant: true }
  return { crashHundredths: crashHundredths(crash, next()), instant: false }
}

/** The number of k in [0, 2^32) whose crash point is at least `target` hundredths. */
export function roundsReaching(crash: CrashMaths, target: number): number {
  let low = 0
  let high = UINT32_RANGE // the first k reaching the target lies in [low, high]
  while (low < high) {
    const middle = Math.floor((low + high) / 2)
    if (crashHundredths(crash, middle) >= target) high = middle
    else low = middle + 1
  }
  return UINT32_RANGE - low
}

/** The exact return of an automatic cash-out at `target` hundredths (101 … maxMultiplier × 100). */
export function crashReturn(crash: CrashMaths, target: number): Ratio {
  const reaching = BigInt(roundsReaching(crash, target))
  const n = BigInt(crash.instantCrashOneIn)
  return { numerator: (n - 1n) * BigInt(target) * reaching, denominator: n * 100n * BigInt(UINT32_RANGE) }
}

/** Every cash-out target a punter may choose, in hundredths: 1.01 up to the maximum. */
export function crashTargets(crash: CrashMaths): number[] {
  return Array.from({ length: crash.maxMultiplier * 100 - 100 }, (_, i) => 101 + i)
}
