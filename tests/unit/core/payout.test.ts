/**
 * A bet's potential win (kernel/core/payout.ts) is stake × the prices exactly, rounded down to the
 * minor unit, with no float in between: checked against its definition in BigInt over random
 * stakes, leg counts and prices drawn as integer hundredths (an independent way to the same
 * numbers), and on the 20-leg case whose float product lost its digits.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { potentialWinMinor, priceThousandths } from '../../../kernel/core/payout'

describe('the potential win is exact', () => {
  it('simple cases: 10.00 at 2.50 pays 25.00; 33.33 at 1.01 × 1.37 × 2.99 rounds down to the cent', () => {
    expect(potentialWinMinor(1000, [2.5])).toBe(2500n)
    // 3333 × 1.01 × 1.37 × 2.99 = 13789.745… cents
    expect(potentialWinMinor(3333, [1.01, 1.37, 2.99])).toBe(13789n)
    expect(potentialWinMinor(1, [1.999])).toBe(1n)
  })

  it('a 20-leg accumulator at 10,000.00 and 9.05 a leg is about 1.36e23, which a float cannot hold to the cent', () => {
    const exact = potentialWinMinor(1_000_000, Array.from({ length: 20 }, () => 9.05))
    expect(exact).toBe((1_000_000n * 905n ** 20n) / 100n ** 20n)
    expect(Number(exact) / 100).toBeGreaterThan(1.3e23)
    expect(exact > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true)
  })

  it('a price is a decimal of at most three places and at least 1; anything else is refused loudly', () => {
    expect(priceThousandths(1.01)).toBe(1010n)
    expect(priceThousandths(1000)).toBe(1_000_000n)
    expect(priceThousandths(1.0001)).toBeUndefined()
    expect(priceThousandths(0.99)).toBeUndefined()
    expect(() => potentialWinMinor(100, [Number.NaN])).toThrow(RangeError)
  })

  it('property: floor(stake × Π hundredths / 100^n), for any stake up to 10^9 minor units and 1–20 legs priced 1.01–1000.00', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000_000 }), fc.array(fc.integer({ min: 101, max: 100_000 }), { minLength: 1, maxLength: 20 }), (stake, hundredths) => {
        const product = hundredths.reduce((p, h) => p * BigInt(h), BigInt(stake))
        const scale = 100n ** BigInt(hundredths.length)
        const win = potentialWinMinor(stake, hundredths.map((h) => h / 100))
        expect(win * scale <= product && product < (win + 1n) * scale).toBe(true)
        expect(win >= BigInt(stake)).toBe(true) // every price is above 1: a win never pays less than the stake
      }),
      { numRuns: 3000 },
    )
  })
})
