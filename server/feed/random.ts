/**
 * The feed's randomness: a small seeded generator (mulberry32) and a hash that mixes integers, so
 * every draw is a pure function of (seed, tick, event). The same seed always gives the same tree
 * and the same price moves, whatever order events are processed in.
 */

/** 32-bit integer hash of a list of integers (a murmur-style finaliser over each part). */
export function mix(...parts: number[]): number {
  let h = 0x9e3779b9
  for (const part of parts) {
    h = Math.imul(h ^ (part | 0), 0x85ebca6b)
    h ^= h >>> 13
    h = Math.imul(h, 0xc2b2ae35)
    h ^= h >>> 16
  }
  return h >>> 0
}

export interface Random {
  /** A float in [0, 1). */
  next(): number
  /** An integer in [min, max]. */
  int(min: number, max: number): number
  pick<T>(list: readonly T[]): T
  /** True with probability p. */
  chance(p: number): boolean
  /** A standard normal draw (Box–Muller). */
  normal(): number
}

/** The first draw `randomFrom(seed)` would give, without making the generator. */
export function firstDraw(seed: number): number {
  let t = ((seed >>> 0) + 0x6d2b79f5) >>> 0
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

export function randomFrom(seed: number): Random {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
    normal: () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next()),
  }
}
