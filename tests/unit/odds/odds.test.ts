/**
 * Odds formats (spec §3) checked against an independent implementation, the npm package oddslib
 * (test-only oracle), over thousands of prices, plus the bookmakers' usual table of fractions.
 */
import fc from 'fast-check'
import * as oddslib from 'oddslib'
import { describe, expect, it } from 'vitest'
import {
  BOOKMAKER_FRACTIONS,
  betPlacingModeFor,
  formatOdds,
  fractionalOdds,
  NO_PRICE,
  ODDS_TYPES,
  oddsChangeAutoConfirm,
} from '../../../engine/core/odds'

/** Prices as a feed sends them: 2 decimals from 1.01 to 1000.00. */
const feedPrice = fc.integer({ min: 101, max: 100_000 }).map((hundredths) => hundredths / 100)
/** Any double price, including ones with binary noise and many decimals. */
const anyPrice = fc.double({ min: 1.01, max: 1000, noNaN: true, noDefaultInfinity: true })
const price = fc.oneof(feedPrice, anyPrice)
const RUNS = { numRuns: Number(process.env.ODDS_RUNS ?? 3000) }

const oracle = (decimal: number) => oddslib.from('decimal', decimal)
/** The oracle's value rounded by the oracle to the printed 2 decimals (ties away from zero). */
const atTwoDecimals = (d: number, format: 'decimal' | 'hongKong' | 'indonesian' | 'malay') => Number(oracle(d).to(format, { precision: 2 }))
/** The oracle's American value rounded to whole numbers half away from zero (oddslib's own precision 0 rounds -110.5 up to -110). */
const wholeAmerican = (d: number) => {
  const value = Number(oracle(d).to('moneyline'))
  return Math.sign(value) * Math.round(Math.abs(value))
}
const unsigned = (value: number) => value.toFixed(2)
const signed = (value: number, digits = 2) => (value > 0 ? '+' : '') + value.toFixed(digits)

describe('odds formats agree with the oddslib oracle to the printed precision', () => {
  it('decimal prints the price with 2 decimals', () => {
    fc.assert(fc.property(price, (d) => formatOdds(d, 'decimal') === unsigned(atTwoDecimals(d, 'decimal'))), RUNS)
  })
  it('Hong Kong prints the profit per unit (decimal - 1) with 2 decimals', () => {
    fc.assert(fc.property(price, (d) => formatOdds(d, 'hongkong') === unsigned(atTwoDecimals(d, 'hongKong'))), RUNS)
  })
  it('American prints whole numbers, + from 2.00 up and - below, half away from zero', () => {
    fc.assert(fc.property(price, (d) => formatOdds(d, 'american') === signed(wholeAmerican(d), 0)), RUNS)
  })
  it('Indonesian is signed: +(d-1) from 2.00 up, -1/(d-1) below, 2 decimals', () => {
    fc.assert(fc.property(price, (d) => formatOdds(d, 'indonesian') === signed(atTwoDecimals(d, 'indonesian'))), RUNS)
  })
  it('Malaysian is signed: +(d-1) up to 2.00, -1/(d-1) above, 2 decimals', () => {
    fc.assert(fc.property(price, (d) => formatOdds(d, 'malaysian') === signed(atTwoDecimals(d, 'malay'))), RUNS)
  })
  it('a fraction prints back, through the oracle, as the same 2-decimal price', () => {
    fc.assert(
      fc.property(price, (d) => {
        const fraction = formatOdds(d, 'fractions')
        return Math.abs(Number(oddslib.from('fractional', fraction).to('decimal')) - d) <= 0.005 + 1e-9
      }),
      RUNS,
    )
  })
  it('a fraction is in lowest terms and never more complex than the oracle\'s approximation, unless it is on the bookmaker ladder', () => {
    const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b))
    const onLadder = (n: number, q: number) => BOOKMAKER_FRACTIONS.some(([a, b]) => a === n && b === q)
    fc.assert(
      fc.property(price, (d) => {
        const [numerator, denominator] = fractionalOdds(d)
        const oracleDenominator = Number(String(oracle(d).to('fractional', { precision: 2 })).split('/')[1])
        return gcd(numerator, denominator) === 1 && (denominator <= oracleDenominator || onLadder(numerator, denominator))
      }),
      RUNS,
    )
  })
})

describe('fractions are printed as bookmakers print them', () => {
  it('every price on the usual ladder prints as its own fraction, exact or printed to 2 decimals (1.91 → 10/11, 2.5 → 3/2)', () => {
    const rounded = (n: number, q: number) => Math.round((1 + n / q) * 100) / 100
    for (const [numerator, denominator] of BOOKMAKER_FRACTIONS) {
      const exact = 1 + numerator / denominator
      expect(formatOdds(exact, 'fractions'), `decimal ${exact}`).toBe(`${numerator}/${denominator}`)
      // 1/66 and 1/50 both print as 1.02: the 2-decimal price names only the nearer one
      const sharing = BOOKMAKER_FRACTIONS.filter(([n, q]) => rounded(n, q) === rounded(numerator, denominator))
      if (sharing.length === 1) expect(formatOdds(rounded(numerator, denominator), 'fractions'), `decimal ${rounded(numerator, denominator)}`).toBe(`${numerator}/${denominator}`)
    }
  })
  it.each([
    [2.5, '3/2'], [1.91, '10/11'], [2, '1/1'], [1.5, '1/2'], [1.67, '2/3'], [3.25, '9/4'], [4.33, '10/3'],
    [3.13, '17/8'], [1.62, '8/13'], [1.44, '4/9'], [11, '10/1'], [101, '100/1'], [1.73, '8/11'],
  ])('%s prints as %s', (decimal, expected) => {
    expect(formatOdds(decimal, 'fractions')).toBe(expected)
  })
  it('off the ladder, the simplest fraction that prints the same price (1.72 → 13/18, 35 → 34/1)', () => {
    expect(formatOdds(1.72, 'fractions')).toBe('13/18')
    expect(formatOdds(35, 'fractions')).toBe('34/1')
  })
  it('a price under 1.01 prints as one to win per so many staked (1.002 → 1/500)', () => {
    expect(formatOdds(1.002, 'fractions')).toBe('1/500')
  })
})

describe('every format for one price', () => {
  it.each([
    ['decimal', '2.50', '1.80'], ['fractions', '3/2', '4/5'], ['american', '+150', '-125'],
    ['hongkong', '1.50', '0.80'], ['indonesian', '+1.50', '-1.25'], ['malaysian', '-0.67', '+0.80'],
  ] as const)('%s: 2.5 → %s, 1.8 → %s', (format, above, below) => {
    expect(formatOdds(2.5, format)).toBe(above)
    expect(formatOdds(1.8, format)).toBe(below)
  })
  it('evens (2.00) is +100 American and +1.00 Indonesian and Malaysian', () => {
    expect([formatOdds(2, 'american'), formatOdds(2, 'indonesian'), formatOdds(2, 'malaysian')]).toEqual(['+100', '+1.00', '+1.00'])
  })
  it('uses the locale\'s decimal separator and no grouping (ru 2,50; en -1000)', () => {
    expect(formatOdds(2.5, 'decimal', 'ru')).toBe('2,50')
    expect(formatOdds(1.25, 'malaysian', 'es')).toBe('+0,25')
    expect(formatOdds(1.1, 'american', 'en')).toBe('-1000')
    expect(formatOdds(501, 'decimal', 'da')).toBe('501,00')
  })
  it('an unknown locale tag prints in English rather than failing', () => {
    expect(formatOdds(2.5, 'decimal', 'not a locale!')).toBe('2.50')
  })
  it('a price that is not a number above 1 prints as a dash in every format', () => {
    for (const format of ODDS_TYPES) for (const bad of [1, 0.5, -2, Number.NaN, Number.POSITIVE_INFINITY, '2' as unknown as number]) {
      expect(formatOdds(bad, format)).toBe(NO_PRICE)
    }
  })
})

describe('odds-change policy (spec §3)', () => {
  it('GreaterOrEqualsToCurrent → when_increase, Any → always, EqualsToCurrent → off', () => {
    expect(oddsChangeAutoConfirm('GreaterOrEqualsToCurrent')).toBe('when_increase')
    expect(oddsChangeAutoConfirm('Any')).toBe('always')
    expect(oddsChangeAutoConfirm('EqualsToCurrent')).toBe('off')
  })
  it('maps each auto-confirm choice back to its mode', () => {
    for (const choice of ['off', 'when_increase', 'always'] as const) expect(oddsChangeAutoConfirm(betPlacingModeFor(choice))).toBe(choice)
  })
})
