/**
 * A game page's stake choices (issue 31 item 8): every choice lies in the jurisdiction's
 * games.stake bounds, so no round is refused for its stake (the Russian site's 10-rouble minimum
 * was below every fixed choice). The oracle: every amount of the 1-2-5 series in cents, brute
 * force, kept when it lies in [max(minimum, 0.50), maximum], the first four; and each site's
 * jurisdiction document read here.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { gameStakes } from '../../../engine/core/game-stakes'

const SERIES_CENTS = Array.from({ length: 15 }, (_, k) => [1, 2, 5].map((step) => step * 10 ** k)).flat()
const JURISDICTIONS = join(__dirname, '../../../schemas/jurisdictions')

describe('game stakes', () => {
  it('every site\'s choices lie within its jurisdiction\'s games.stake bounds (Russia 10 → 10 20 50 100, Denmark 1 → 1 2 5 10, Curaçao 0.10 → 0.50 1 2 5)', () => {
    for (const id of readdirSync(JURISDICTIONS)) {
      const bounds = (JSON.parse(readFileSync(join(JURISDICTIONS, id, 'jurisdiction.json'), 'utf8')) as { games: { stake: { minimum: number; maximum: number } } }).games.stake
      const stakes = gameStakes(bounds)
      expect(stakes, id).toHaveLength(4)
      for (const amount of stakes) expect(amount >= bounds.minimum && amount <= bounds.maximum, `${id} ${amount}`).toBe(true)
    }
    expect(gameStakes({ minimum: 10, maximum: 50000 })).toEqual([10, 20, 50, 100])
    expect(gameStakes({ minimum: 1, maximum: 3500 })).toEqual([1, 2, 5, 10])
    expect(gameStakes({ minimum: 0.1, maximum: 500 })).toEqual([0.5, 1, 2, 5])
  })
  it('random bounds: the first four series amounts in [max(minimum, 0.50), maximum] (brute force, in cents)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 0, max: 100_000_000 }), (minCents, extra) => {
        const bounds = { minimum: minCents / 100, maximum: (minCents + extra) / 100 }
        const expected = SERIES_CENTS.filter((c) => c >= Math.max(minCents, 50) && c <= minCents + extra).slice(0, 4).map((c) => c / 100)
        expect(gameStakes(bounds)).toEqual(expected)
      }),
    )
  })
  it('a document\'s stakes outside the bounds are dropped; all outside: from the bounds; no bounds: the document\'s, else 0.50 1 2 5', () => {
    expect(gameStakes({ minimum: 10, maximum: 100 }, [1, 10, 50, 500])).toEqual([10, 50])
    expect(gameStakes({ minimum: 10, maximum: 100 }, [1, 2])).toEqual([10, 20, 50, 100])
    expect(gameStakes(undefined, [3, 4])).toEqual([3, 4])
    expect(gameStakes(undefined)).toEqual([0.5, 1, 2, 5])
  })
})
