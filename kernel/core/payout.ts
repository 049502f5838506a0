/**
 * A bet's potential win, exactly (issue 28 item 2; docs/money-rules.md): decimal prices are read
 * as integer thousandths and multiplied with the stake in BigInt, so a 20-leg accumulator's
 * product (up to 1000^20) is never a float that lost its digits. The win is rounded DOWN to the
 * currency's minor unit (a fraction of a cent is never paid), and the same function gives what
 * the bet shows, what the payout cap is checked against, and what settlement pays.
 */
import { scaledInteger } from './money'

/** Decimal prices carry at most this many decimals (the feed's have two). */
export const PRICE_DECIMALS = 3
const PRICE_SCALE = 10n ** BigInt(PRICE_DECIMALS)

/** A decimal price (≥ 1) as integer thousandths, or undefined when it is not one. */
export function priceThousandths(price: number): bigint | undefined {
  const scaled = scaledInteger(price, PRICE_DECIMALS)
  return scaled !== undefined && scaled >= PRICE_SCALE ? scaled : undefined
}

/**
 * stake × price₁ × … × priceₙ in minor units, rounded down, as a BigInt (compare it with a cap
 * before making it a number). A leg that counts as void passes price 1. Throws for a price that
 * is not a decimal price of at most three decimals: prices come from the feed, never from a punter.
 */
export function potentialWinMinor(stakeMinor: number, prices: readonly number[]): bigint {
  let numerator = BigInt(stakeMinor)
  let denominator = 1n
  for (const price of prices) {
    const units = priceThousandths(price)
    if (units === undefined) throw new RangeError(`not a decimal price: ${price}`)
    numerator *= units
    denominator *= PRICE_SCALE
  }
  return numerator / denominator
}
