/**
 * Odds formats (spec §3) checked against an independent implementation, the npm package oddslib
 * (test-only oracle), over thousands of prices; fractions against the UK bookmakers' ladder with an
 * exact nearest-price oracle.
 */
import fc from 'fast-check'
import * as oddslib from 'oddslib'
import { describe, expect, it } from 'vitest'
import {
  BOOKMAKER_LADDER,
  betPlacingModeFor,
  formatOdds,
  NO_PRICE,
  ODDS_TYPES,
  oddsChangeAutoConfirm,
} from '../../../kernel/core/odds'

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
})

/** The ladder as UK books print it, written out here by hand (the brief's list, then the short
 * end): the code's table must be exactly this. */
const UK_LADDER = (
  '1/100 1/50 1/33 1/25 1/20 1/16 1/14 1/12 1/10 1/9 1/8 2/15 1/7 2/13 1/6 2/11 ' +
  '1/5 2/9 1/4 2/7 3/10 1/3 4/11 2/5 4/9 1/2 8/15 4/7 8/13 4/6 8/11 4/5 5/6 10/11 1/1 21/20 11/10 6/5 5/4 11/8 6/4 13/8 7/4 15/8 ' +
  '2/1 85/40 9/4 5/2 11/4 3/1 100/30 7/2 4/1 9/2 5/1 11/2 6/1 13/2 7/1 15/2 8/1 17/2 9/1 10/1 11/1 12/1 14/1 16/1 18/1 20/1 25/1 33/1 40/1 50/1 66/1 80/1 100/1'
)
  .split(' ')
  .map((f) => f.split('/').map(BigInt) as [bigint, bigint])

/** Every fraction a price may print as: the ladder, then n/1 above 100/1 and 1/n below 1/100. */
const CANDIDATES: [bigint, bigint][] = [...UK_LADDER]
for (let n = 101n; n <= 2000n; n++) CANDIDATES.push([n, 1n], [1n, n])

/**
 * The oracle: the candidate nearest by implied chance, in exact rational arithmetic. A price given
 * in thousandths t implies 1000/t; n/d implies d/(n+d); the distance is |1000(n+d) − d·t| / (t(n+d)).
 * Ties go to the shorter price (the larger implied chance).
 */
function nearestExactly(thousandths: bigint): string {
  let best: { f: [bigint, bigint]; num: bigint; den: bigint } | undefined
  for (const f of CANDIDATES) {
    const [n, d] = f
    const diff = 1000n * (n + d) - d * thousandths
    const num = diff < 0n ? -diff : diff
    const den = thousandths * (n + d)
    if (!best) {
      best = { f, num, den }
      continue
    }
    const cmp = num * best.den - best.num * den // < 0: nearer
    const shorter = d * (best.f[0] + best.f[1]) > best.f[1] * (n + d)
    if (cmp < 0n || (cmp === 0n && shorter)) best = { f, num, den }
  }
  return `${best!.f[0]}/${best!.f[1]}`
}

describe('fractions are the nearest price of the UK bookmakers\' ladder', () => {
  it('the ladder is the one UK books print, shortest first, written as they write it (6/4, 4/6, 100/30, 85/40)', () => {
    expect(BOOKMAKER_LADDER.map(([n, d]) => `${n}/${d}`)).toEqual(UK_LADDER.map(([n, d]) => `${n}/${d}`))
  })
  it('a feed price (2 decimals) prints as the ladder price nearest by implied chance, ties to the shorter (exact oracle)', () => {
    fc.assert(fc.property(fc.integer({ min: 101, max: 100_000 }), (h) => formatOdds(h / 100, 'fractions') === nearestExactly(BigInt(h) * 10n)), RUNS)
  })
  it('a price in thousandths prints as the nearest ladder price too (exact oracle)', () => {
    fc.assert(fc.property(fc.integer({ min: 1001, max: 1_000_000 }), (t) => formatOdds(t / 1000, 'fractions') === nearestExactly(BigInt(t))), RUNS)
  })
  it('every price of the feed, 1.01 to 1000.00, prints in at most 6 characters', () => {
    for (let h = 101; h <= 100_000; h++) expect(formatOdds(h / 100, 'fractions').length).toBeLessThanOrEqual(6)
  })
  it('oddslib agrees for exact ladder prices: its decimal of each rung prints as that rung, and its fraction of our price is the same value', () => {
    for (const [n, d] of BOOKMAKER_LADDER) {
      const decimal = Number(oddslib.from('fractional', `${n}/${d}`).to('decimal'))
      expect(formatOdds(decimal, 'fractions'), `decimal ${decimal}`).toBe(`${n}/${d}`)
      const [on, od] = String(oddslib.from('decimal', 1 + n / d).to('fractional', { precision: 6 })).split('/').map(Number)
      expect(on! / od!, `${n}/${d}`).toBeCloseTo(n / d, 9)
    }
  })
  it('a ladder price rounded to 2 decimals (as the feed sends it) prints as its rung, unless two rungs round the same', () => {
    const rounded = (n: number, q: number) => Math.round((1 + n / q) * 100) / 100
    for (const [n, d] of BOOKMAKER_LADDER) {
      const sharing = BOOKMAKER_LADDER.filter(([a, b]) => rounded(a, b) === rounded(n, d))
      if (sharing.length === 1) expect(formatOdds(rounded(n, d), 'fractions'), `decimal ${rounded(n, d)}`).toBe(`${n}/${d}`)
    }
  })
  it.each([
    [2.5, '6/4'], [1.91, '10/11'], [2, '1/1'], [1.5, '1/2'], [1.67, '4/6'], [3.25, '9/4'], [4.33, '100/30'],
    [3.13, '85/40'], [1.62, '8/13'], [1.44, '4/9'], [11, '10/1'], [101, '100/1'], [1.73, '8/11'],
    [37.51, '40/1'], [1.72, '8/11'], [35, '33/1'], [1.95, '10/11'], [2.4, '11/8'], [151, '150/1'], [90.5, '100/1'], [85, '80/1'],
  ])('%s prints as %s', (decimal, expected) => {
    expect(formatOdds(decimal, 'fractions')).toBe(expected)
  })
  it('a price under 1.01 prints as one to win per so many staked (1.002 → 1/500)', () => {
    expect(formatOdds(1.002, 'fractions')).toBe('1/500')
  })
  it('an accumulator\'s combined price is not a quoted price: its fraction is exact, in lowest terms (2.46 → 73/50, 4.5 → 7/2)', () => {
    expect(formatOdds(2.46, 'fractions', 'en', true)).toBe('73/50')
    expect(formatOdds(4.5, 'fractions', 'en', true)).toBe('7/2')
    expect(formatOdds(2.46, 'decimal', 'en', true)).toBe('2.46')
    fc.assert(
      fc.property(fc.integer({ min: 101, max: 100_000 }), (h) => {
        const [n, d] = formatOdds(h / 100, 'fractions', 'en', true).split('/').map(Number)
        const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b))
        return n! * 100 === (h - 100) * d! && gcd(n!, d!) === 1
      }),
      RUNS,
    )
  })
})

describe('every format for one price', () => {
  it.each([
    ['decimal', '2.50', '1.80'], ['fractions', '6/4', '4/5'], ['american', '+150', '-125'],
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
