/**
 * Odds formats (spec §3 "Odds types") and the odds-change policy mapping, in ONE module so every
 * place that prints a price (settings preview, live prices, bet slip) prints it the same way.
 *
 * Prices travel as decimal odds; this module only formats them for the punter's chosen odds type:
 *   decimal 2.50 · fractions 3/2 · american +150 · hongkong 1.50 · indonesian +1.50 · malaysian -0.67
 * Fractions are the ones bookmakers print: the usual ladder first (1.91 → 10/11, 2.5 → 3/2), else
 * the simplest fraction (denominator ≤ 100) that prints back as the same 2-decimal price.
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

export function isOddsType(value: unknown): value is OddsType {
  return typeof value === 'string' && (ODDS_TYPES as readonly string[]).includes(value)
}

export function isBetPlacingMode(value: unknown): value is BetPlacingMode {
  return typeof value === 'string' && (BET_PLACING_MODES as readonly string[]).includes(value)
}

/**
 * The bookmakers' usual fractional ladder, in lowest terms (6/4 is printed 3/2, 4/6 as 2/3,
 * 100/30 as 10/3, 85/40 as 17/8).
 */
export const BOOKMAKER_FRACTIONS: readonly (readonly [number, number])[] = [
  [1, 100], [1, 66], [1, 50], [1, 40], [1, 33], [1, 25], [1, 20], [1, 16], [1, 14], [1, 12],
  [1, 11], [1, 10], [1, 9], [1, 8], [2, 15], [1, 7], [2, 13], [1, 6], [2, 11], [1, 5],
  [2, 9], [1, 4], [2, 7], [3, 10], [1, 3], [4, 11], [2, 5], [4, 9], [1, 2], [8, 15],
  [4, 7], [8, 13], [2, 3], [8, 11], [4, 5], [5, 6], [10, 11], [1, 1], [11, 10], [6, 5],
  [5, 4], [11, 8], [7, 5], [3, 2], [8, 5], [13, 8], [7, 4], [9, 5], [15, 8], [2, 1],
  [17, 8], [9, 4], [12, 5], [5, 2], [13, 5], [11, 4], [3, 1], [10, 3], [7, 2], [4, 1],
  [9, 2], [5, 1], [11, 2], [6, 1], [13, 2], [7, 1], [15, 2], [8, 1], [17, 2], [9, 1],
  [10, 1], [11, 1], [12, 1], [14, 1], [16, 1], [18, 1], [20, 1], [25, 1], [33, 1], [40, 1],
  [50, 1], [66, 1], [80, 1], [100, 1], [150, 1], [200, 1], [250, 1], [500, 1], [1000, 1],
]

/** A price prints back to the same 2-decimal value when it is within half a hundredth. */
const PRINTED_TOLERANCE = 0.005 + 1e-9
const MAX_DENOMINATOR = 100

/** Removes binary noise (2.1 - 1 = 1.1000000000000001), as the value would be written by hand. */
function clean(value: number): number {
  return parseFloat(value.toPrecision(12))
}

/** The profit per unit staked (fractional value), e.g. 1.5 for decimal 2.5. */
function profit(decimal: number): number {
  return clean(decimal - 1)
}

function nearestLadderFraction(x: number): readonly [number, number] | undefined {
  let best: readonly [number, number] | undefined
  let bestError = Infinity
  for (const fraction of BOOKMAKER_FRACTIONS) {
    const error = Math.abs(fraction[0] / fraction[1] - x)
    if (error <= PRINTED_TOLERANCE && error < bestError) {
      best = fraction
      bestError = error
    }
  }
  return best
}

/** The simplest fraction (smallest denominator, then nearest) within the printed tolerance. */
function simplestFraction(x: number): [number, number] {
  for (let denominator = 1; denominator <= MAX_DENOMINATOR; denominator++) {
    const numerator = Math.max(1, Math.round(x * denominator))
    if (Math.abs(numerator / denominator - x) <= PRINTED_TOLERANCE) return [numerator, denominator]
  }
  // below 1/100 (decimal under 1.01): one unit to win per so many staked, e.g. 1/500
  return [1, Math.max(1, Math.round(1 / x))]
}

/** "3/2" for 2.5: the bookmaker ladder first, then the simplest fraction that prints the same. */
export function fractionalOdds(decimal: number): [number, number] {
  const x = profit(decimal)
  return [...(nearestLadderFraction(x) ?? simplestFraction(x))] as [number, number]
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
 * (2.50 in English, 2,50 in Russian). Unknown formats print as decimal.
 */
export function formatOdds(decimal: number, format: OddsType, locale = 'en'): string {
  if (typeof decimal !== 'number' || !Number.isFinite(decimal) || decimal <= 1) return NO_PRICE
  switch (format) {
    case 'fractions': {
      const [numerator, denominator] = fractionalOdds(decimal)
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
