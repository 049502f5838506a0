/**
 * Exact returns as fractions of the stake (BigInt numerator and denominator), so a declared
 * 96.50 % is compared with the paytable's return without a rounding error anywhere.
 */
export interface Ratio {
  numerator: bigint
  denominator: bigint
}

/** The ratio as a percentage, for display and reports (the comparisons stay exact). */
export function percentOf(ratio: Ratio): number {
  const scaled = (ratio.numerator * 100_000_000n) / ratio.denominator
  return Number(scaled) / 1_000_000
}

/** A number with at most 2 decimals as a whole number of hundredths (96.5 → 9650), or undefined. */
export function hundredthsOfPercent(declared: number): number | undefined {
  const scaled = Math.round(declared * 100)
  return Number.isFinite(declared) && Math.abs(scaled - declared * 100) < 1e-6 ? scaled : undefined
}

/** |ratio − declared %| ≤ 0.01 percentage points, exactly. */
export function withinHundredth(ratio: Ratio, declaredHundredths: number): boolean {
  // ratio × 10000 is the return in hundredths of a percent
  const difference = ratio.numerator * 10_000n - BigInt(declaredHundredths) * ratio.denominator
  return (difference < 0n ? -difference : difference) <= ratio.denominator
}

/** a < b for two ratios. */
export function lessThan(a: Ratio, b: Ratio): boolean {
  return a.numerator * b.denominator < b.numerator * a.denominator
}
