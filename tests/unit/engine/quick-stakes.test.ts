/**
 * The bet slip's quick stakes (issue 31 item 1): a document's own list wins; otherwise four amounts
 * from the jurisdiction's stake bounds. The oracle: every amount of the 5-10-25 series, brute force,
 * kept when it lies in [10 × minimum, maximum], the first four.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { quickStakes } from '../../../engine/core/quick-stakes'

const SERIES = Array.from({ length: 13 }, (_, k) => [5, 10, 25].map((step) => step * 10 ** k)).flat()

describe('quick stakes', () => {
  it('the sites\' bounds: Curaçao/Spain 0.10 → 5 10 25 50, Italy/Denmark 1 → 10 25 50 100, Russia 10 → 100 250 500 1000', () => {
    expect(quickStakes({ minimum: 0.1, maximum: 10000 })).toEqual([5, 10, 25, 50])
    expect(quickStakes({ minimum: 1, maximum: 10000 })).toEqual([10, 25, 50, 100])
    expect(quickStakes({ minimum: 10, maximum: 600000 })).toEqual([100, 250, 500, 1000])
  })
  it('random bounds: the first four series amounts in [10 × minimum, maximum] (brute force)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: 100_000_000 }), (minCents, extra) => {
        const bounds = { minimum: minCents / 100, maximum: minCents / 100 + extra / 100 }
        const expected = SERIES.filter((a) => a >= bounds.minimum * 10 - 1e-9 && a <= bounds.maximum).slice(0, 4)
        expect(quickStakes(bounds)).toEqual(expected)
      }),
    )
  })
  it('a document\'s stakes win; no bounds and no document: none', () => {
    expect(quickStakes({ minimum: 1, maximum: 100 }, [2, 4])).toEqual([2, 4])
    expect(quickStakes(undefined)).toEqual([])
    expect(quickStakes({ minimum: 5, maximum: 1 })).toEqual([])
  })
})
