/**
 * Prices from probabilities: each market keeps the chances of its outcomes; a price is the fair
 * price with the book's margin, two decimals, never under 1.01. Moves are random walks on the
 * chances, so the prices of one market always stay consistent with each other.
 */
import type { Random } from './random'

export const MARGIN = 0.06
export const MIN_PRICE = 1.01

export const priceOf = (chance: number): number => Math.max(MIN_PRICE, Math.round(100 / (chance * (1 + MARGIN))) / 100)

export function normalise(chances: number[]): number[] {
  const sum = chances.reduce((a, b) => a + b, 0)
  return chances.map((c) => Math.min(0.97, Math.max(0.02, c / sum)))
}

/** Outcome chances of a match result from the home side's strength (0–1). */
export function resultChances(strength: number, draw: boolean): number[] {
  if (!draw) return [strength, 1 - strength]
  const drawChance = 0.29 - 0.25 * Math.abs(strength - 0.5)
  return [(1 - drawChance) * strength, drawChance, (1 - drawChance) * (1 - strength)]
}

/** A random walk step: every chance moves by a few percent, then they are normalised again. */
export function walk(chances: number[], rng: Random, size = 0.07): number[] {
  return normalise(chances.map((c) => c * Math.exp(size * rng.normal())))
}

/** After a score, the scoring side's chance grows (index 0 home, last away). */
export function shiftTowards(chances: number[], side: 'home' | 'away', factor = 1.4): number[] {
  const index = side === 'home' ? 0 : chances.length - 1
  return normalise(chances.map((c, i) => (i === index ? c * factor : c)))
}
