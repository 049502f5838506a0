/**
 * Odds formats (spec §3 "Odds types") and the odds-change policy mapping, in ONE module so every
 * place that prints a price (settings preview, live prices, bet slip) prints it the same way.
 *
 * Prices travel as decimal odds; this module only formats them for the punter's chosen odds type:
 *   decimal 2.50 · fractions 6/4 · american +150 · hongkong 1.50 · indonesian +1.50 · malaysian -0.67
 * Fractions are the nearest price of the ladder UK books print (1.91 → 10/11, 2.5 → 6/4, 4.33 →
 * 100/30, 37.51 → 40/1, never 1278/35): the label stays short enough for a price button.
 * American is rounded to whole numbers, half away from zero; Malaysian and Indonesian are signed.
 * A price that is not a number above 1 (suspended, void) prints as an en dash.
 */

/** The odds types of spec §3, spelled as the server stores them (PUT /punter/settings oddsType). */
export const ODDS_TYPES = ['decimal', 'fractions', 'american', 'hongkong', 'indonesian', 'malaysian'] as const
export type OddsType = (typeof ODDS_TYPES)[number]

/** The bet odds-change policies (server setting betPlacingMode) and their auto-confirm meaning. */
export const BET_PLACING_MODES = ['EqualsToCurrent', 'GreaterOrEqualsToCurrent', 'Any'] as const
export type BetPlacingMode = (typeof BET_PLACING_MODES)[number]
export type OddsChangeAutoConfirm = 'off' | 'when_increase' | 'always'

/** What a price that cannot be printed shows. */
export const NO_PRICE = '–'

const AUTO_CONFIRM: Record<BetPlacingMode, OddsChangeAutoConfirm> = {
  EqualsToCurrent: 'off',
  GreaterOrEqualsToCurrent: 'when_increase',
  Any: 'always',
}

/** Spec §3: GreaterOrEqualsToCurrent → when_increase, Any → always, EqualsToCurrent → off. */
export function oddsChangeAutoConfirm(mode: BetPlacingMode): OddsChangeAutoConfirm {
  return AUTO_CONFIRM[mode]
}

/** The inverse mapping: the betPlacingMode to save for an auto-confirm choice. */
export function betPlacingModeFor(autoConfirm: OddsChangeAutoConfirm): BetPlacingMode {
  return BET_PLACING_MODES.find((mode) => AUTO_CONFIRM[mode] === autoConfirm) ?? 'GreaterOrEqualsToCurrent'
}

/**
 * May a bet be taken at the `current` price when the punter agreed to `agreed`? EqualsToCurrent:
 * only the same price; GreaterOrEqualsToCurrent: the same or higher; Any: any. The server decides
 * a placement by it (server/bets/placement.ts) and the bet slip asks the punter exactly when it
 * says no, before Place, so a refused ODDS_CHANGED is a race rather than the first news of a move.
 */
export function priceAccepted(mode: BetPlacingMode, agreed: number, current: number): boolean {
  if (mode === 'Any') return true
  if (mode === 'GreaterOrEqualsToCurrent') return current >= agreed
  return current === agreed
}

export function isOddsType(value: unknown): value is OddsType {
  return typeof value === 'string' && (ODDS_TYPES as readonly string[]).includes(value)
}

export function isBetPlacingMode(value: unknown): value is BetPlacingMode {
  return typeof value === 'string' && (BET_PLACING_MODES as readonly string[]).includes(value)
}

/**
 * The fractional ladder UK books print, shortest first, written as they write it (6/4, not 3/2;
 * 4/6, 100/30, 85/40). From 1/5 to 100/1 it is the standard ladder of the UK conversion tables
 * (e.g. OLBG's "Odds Converter | Fraction to Decimal Odds & Probability",
 * https://www.olbg.com/blogs/fractional-decimal-odds-percentage-probability-betting-odds-guide:
 * 1/5, 2/9, 1/4 … 100/30 … 80/1, 100/1; it also lists fifths such as 7/5 or 13/5, which only some
 * books quote, so they are left out); below 1/5 the odds-on prices books quote for heavy
 * favourites (1/6 … 1/100). Beyond the ends the ladder goes on in whole units: n/1 above 100/1,
 * 1/n below 1/100.
 */
export const BOOKMAKER_LADDER: readonly (readonly [number, number])[] = [
  [1, 100], [1, 50], [1, 33], [1, 25], [1, 20], [1, 16], [1, 14], [1, 12], [1, 10], [1, 9],
  [1, 8], [2, 15], [1, 7], [2, 13], [1, 6], [2, 11], [1, 5], [2, 9], [1, 4], [2, 7],
  [3, 10], [1, 3], [4, 11], [2, 5], [4, 9], [1, 2], [8, 15], [4, 7], [8, 13], [4, 6],
  [8, 11], [4, 5], [5, 6], [10, 11], [1, 1], [21, 20], [11, 10], [6, 5], [5, 4], [11, 8],
  [6, 4], [13, 8], [7, 4], [15, 8], [2, 1], [85, 40], [9, 4], [5, 2], [11, 4], [3, 1],
  [100, 30], [7, 2], [4, 1], [9, 2], [5, 1], [11, 2], [6, 1], [13, 2], [7, 1], [15, 2],
  [8, 1], [17, 2], [9, 1], [10, 1], [11, 1], [12, 1], [14, 1], [16, 1], [18, 1], [20, 1],
  [25, 1], [33, 1], [40, 1], [50, 1], [66, 1], [80, 1], [100, 1],
]

/** Removes binary noise (2.1 - 1 = 1.1000000000000001), as the value would be written by hand. */
function clean(value: number): number {
  return parseFloat(value.toPrecision(12))
}

/** The profit per unit staked (fractional value), e.g. 1.5 for decimal 2.5. */
function profit(decimal: number): number {
  return clean(decimal - 1)
}

/** The chance a price implies: 1/decimal, and d/(n+d) for the fraction n/d. */
const impliedByFraction = ([numerator, denominator]: readonly [number, number]) => denominator / (numerator + denominator)

/** Distances closer than this are a tie (a price exactly half-way, as floating point computes it). */
const TIE = 1e-12

/** The nearest of `candidates` (shortest first) by implied chance; a tie goes to the shorter price. */
function nearestByChance(chance: number, candidates: readonly (readonly [number, number])[]): readonly [number, number] {
  let best = candidates[0]!
  let bestError = Math.abs(impliedByFraction(best) - chance)
  for (const fraction of candidates) {
    const error = Math.abs(impliedByFraction(fraction) - chance)
    if (error < bestError - TIE) {
      best = fraction
      bestError = error
    }
  }
  return best
}

const LONGEST = BOOKMAKER_LADDER[BOOKMAKER_LADDER.length - 1]!
const SHORTEST = BOOKMAKER_LADDER[0]!

/**
 * The ladder price nearest to a decimal price by implied chance (the punter's view of a price:
 * 1.95 is nearer 10/11 than evens because 51.3 % is nearer 52.4 % than 50 %), ties to the shorter
 * price; above 100/1 the nearest n/1, below 1/100 the nearest 1/n. Returned as printed: [6, 4].
 */
export function fractionalOdds(decimal: number): [number, number] {
  const chance = 1 / decimal
  if (chance < impliedByFraction(LONGEST)) {
    const whole = Math.floor(decimal - 1)
    return [...nearestByChance(chance, [[whole, 1], [whole + 1, 1]])] as [number, number]
  }
  if (chance > impliedByFraction(SHORTEST)) {
    const whole = Math.floor(1 / (decimal - 1))
    return [...nearestByChance(chance, [[1, whole + 1], [1, whole]])] as [number, number]
  }
  return [...nearestByChance(chance, BOOKMAKER_LADDER)] as [number, number]
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b))

/**
 * The fraction of an accumulator's combined price, exactly to the hundredth and in lowest terms
 * (2.46 → 73/50, 4.5 → 7/2): a combined price is not a quoted price, so it is not moved to the
 * ladder (the punter's potential win is computed from it).
 */
export function exactFractionalOdds(decimal: number): [number, number] {
  const hundredths = Math.round(profit(decimal) * 100)
  const divisor = gcd(hundredths, 100) || 1
  return [hundredths / divisor, 100 / divisor]
}

/** American (moneyline): +150 for 2.5, -110 for 1.909; whole numbers, half away from zero. */
export function americanOdds(decimal: number): number {
  const x = profit(decimal)
  const value = x >= 1 ? clean(x * 100) : clean(100 / x)
  const rounded = Math.round(value)
  return x >= 1 ? rounded : -rounded
}

/** Indonesian: +(d-1) from 2.00 up, -1/(d-1) below. */
export function indonesianOdds(decimal: number): number {
  const x = profit(decimal)
  return x >= 1 ? x : clean(-1 / x)
}

/** Malaysian: +(d-1) up to 2.00, -1/(d-1) above. */
export function malaysianOdds(decimal: number): number {
  const x = profit(decimal)
  return x <= 1 ? x : clean(-1 / x)
}

const numberFormats = new Map<string, Intl.NumberFormat>()
function numberFormat(locale: string, signed: boolean, digits: number): Intl.NumberFormat {
  const key = `${locale}|${signed}|${digits}`
  let format = numberFormats.get(key)
  if (!format) {
    const options: Intl.NumberFormatOptions = {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      useGrouping: false,
      signDisplay: signed ? 'exceptZero' : 'auto',
    }
    try {
      format = new Intl.NumberFormat(locale, options)
    } catch {
      // an unknown locale tag: print in English rather than break the price
      format = new Intl.NumberFormat('en', options)
    }
    numberFormats.set(key, format)
  }
  return format
}

function printNumber(value: number, locale: string, signed: boolean, digits = 2): string {
  return numberFormat(locale, signed, digits).format(value)
}

/**
 * A decimal price printed in the punter's odds type, with the locale's decimal separator
 * (2.50 in English, 2,50 in Russian). Unknown formats print as decimal. `combined`: an
 * accumulator's combined price, whose fraction is exact rather than the nearest ladder price.
 */
export function formatOdds(decimal: number, format: OddsType, locale = 'en', combined = false): string {
  if (typeof decimal !== 'number' || !Number.isFinite(decimal) || decimal <= 1) return NO_PRICE
  switch (format) {
    case 'fractions': {
      const [numerator, denominator] = combined ? exactFractionalOdds(decimal) : fractionalOdds(decimal)
      return `${numerator}/${denominator}`
    }
    case 'american':
      return printNumber(americanOdds(decimal), locale, true, 0)
    case 'hongkong':
      return printNumber(profit(decimal), locale, false)
    case 'indonesian':
      return printNumber(indonesianOdds(decimal), locale, true)
    case 'malaysian':
      return printNumber(malaysianOdds(decimal), locale, true)
    default:
      return printNumber(clean(decimal), locale, false)
  }
}
