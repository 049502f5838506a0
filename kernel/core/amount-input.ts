/**
 * What a punter TYPES as an amount, read in the page's locale into integer minor units, or a clear
 * refusal (issue 28 item 6: on Spain and Italy `2,5` was read as 25 by a `type=number` input).
 * Framework-free; the separators come from Intl for the locale, never from a table of ours.
 *
 * The rules (docs/money-input.md):
 * - the locale's decimal mark separates the decimals (`2,5` in es/it/da/pt/ru/be, `2.5` in en);
 * - the locale's grouping mark (or a space, in any locale) may group thousands, but only in true
 *   groups of three before the decimals: `1.000` in es is one thousand, `1.00` or `0.500` in es is
 *   refused, never read as 1.00 or 500;
 * - where the grouping mark is a space (ru, be), the other mark (`2.5`) is read as the decimal mark
 *   when it is the only mark: it cannot mean anything else there;
 * - both marks in the wrong order (`1,000.5` in es) or a repeated decimal mark is refused;
 * - more decimals than the currency has is refused, never rounded; no sign, no other characters.
 */
import { currencyCode } from './format'

export interface Separators {
  decimal: string
  group: string
}

export type AmountInputError = 'EMPTY' | 'NOT_A_NUMBER' | 'NEGATIVE' | 'SEPARATORS_MIXED' | 'GROUPING' | 'TOO_MANY_DECIMALS' | 'TOO_LARGE'

export type AmountInput = { ok: true; minor: number } | { ok: false; error: AmountInputError }

/** Whole units above this many digits are refused (minor units stay far inside safe integers). */
export const MAX_WHOLE_DIGITS = 12

const separatorCache = new Map<string, Separators>()

/** The locale's decimal and grouping marks, as Intl formats 1234567.5 there. */
export function separatorsOf(locale: string): Separators {
  let known = separatorCache.get(locale)
  if (!known) {
    let parts: Intl.NumberFormatPart[]
    try {
      parts = new Intl.NumberFormat(locale, { useGrouping: true }).formatToParts(1234567.5)
    } catch {
      parts = new Intl.NumberFormat('en', { useGrouping: true }).formatToParts(1234567.5)
    }
    known = { decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.', group: parts.find((p) => p.type === 'group')?.value ?? ',' }
    separatorCache.set(locale, known)
  }
  return known
}

/** The currency's minor-unit digits as Intl knows them (EUR 2, JPY 0); 2 when unknown or none. */
export function currencyDecimals(currency: string | undefined): number {
  if (!currencyCode(currency)) return 2
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
  } catch {
    return 2
  }
}

const SPACE = /^\s$/u
type Mark = { at: number; kind: 'decimal' | 'group' | 'space' | 'other' }

/** Where each mark of the text is and what it is in this locale; undefined on a foreign character. */
function marksOf(text: string, separators: Separators): Mark[] | undefined {
  const marks: Mark[] = []
  const groupIsSpace = SPACE.test(separators.group)
  for (let at = 0; at < text.length; at++) {
    const c = text[at]
    if (c >= '0' && c <= '9') continue
    if (c === separators.decimal) marks.push({ at, kind: 'decimal' })
    else if (SPACE.test(c)) marks.push({ at, kind: groupIsSpace ? 'group' : 'space' })
    else if (c === separators.group) marks.push({ at, kind: 'group' })
    else if (c === '.' || c === ',') marks.push({ at, kind: 'other' })
    else return undefined
  }
  return marks
}

/** The one decimal mark's position (-1: none), or the refusal the marks earn. */
function decimalAt(marks: Mark[], separators: Separators): number | AmountInputError {
  const decimals = marks.filter((m) => m.kind === 'decimal')
  const others = marks.filter((m) => m.kind === 'other')
  const groups = marks.filter((m) => m.kind === 'group' || m.kind === 'space')
  if (new Set(groups.map((m) => m.kind)).size > 1) return 'SEPARATORS_MIXED'
  let point = decimals[0]
  if (others.length > 0) {
    // the other mark stands for the decimal mark only where it cannot be a grouping mark
    if (!SPACE.test(separators.group) || others.length > 1 || decimals.length > 0) return 'SEPARATORS_MIXED'
    point = others[0]
  }
  if (decimals.length > 1) return 'SEPARATORS_MIXED'
  if (point && groups.some((m) => m.at > point.at)) return 'SEPARATORS_MIXED'
  return point ? point.at : -1
}

/** The whole part's digits when its groups are true groups of three (or it has none); null if not. */
function wholeDigits(whole: string, marks: Mark[]): string | null {
  if (!marks.some((m) => m.kind === 'group' || m.kind === 'space')) return whole
  const groups = whole.split(/[^0-9]/)
  const [first, ...rest] = groups
  // a leading zero is no thousands group: `0.500` in es is refused, not read as 500
  if (!/^[1-9][0-9]{0,2}$/.test(first) || rest.some((g) => g.length !== 3)) return null
  return groups.join('')
}

/** Reads a typed amount with `decimals` minor digits in `locale` (see the rules above). */
export function parseTypedAmount(typed: string, locale: string, decimals: number): AmountInput {
  const text = typed.trim()
  if (text === '') return { ok: false, error: 'EMPTY' }
  if (/^[-−‐–]/u.test(text)) return { ok: false, error: 'NEGATIVE' }
  const separators = separatorsOf(locale)
  const marks = marksOf(text, separators)
  if (!marks || !/[0-9]/.test(text)) return { ok: false, error: 'NOT_A_NUMBER' }
  const point = decimalAt(marks, separators)
  if (typeof point === 'string') return { ok: false, error: point }
  const whole = wholeDigits(point < 0 ? text : text.slice(0, point), marks.filter((m) => point < 0 || m.at < point))
  if (whole === null) return { ok: false, error: 'GROUPING' }
  const fraction = point < 0 ? '' : text.slice(point + 1)
  if (!/^[0-9]*$/.test(fraction)) return { ok: false, error: 'SEPARATORS_MIXED' }
  if (fraction.length > decimals) return { ok: false, error: 'TOO_MANY_DECIMALS' }
  const significant = whole.replace(/^0+/, '')
  if (significant.length > MAX_WHOLE_DIGITS) return { ok: false, error: 'TOO_LARGE' }
  return { ok: true, minor: Number(significant || '0') * 10 ** decimals + Number(fraction.padEnd(decimals, '0') || '0') }
}

/** A typed amount of money in the currency's own minor units. */
export function parseMoneyInput(typed: string, locale: string, currency: string | undefined): AmountInput {
  return parseTypedAmount(typed, locale, currencyDecimals(currency))
}

/** Minor units back to the major-unit number the gateway takes (2.5 for 250 cents). */
export const minorToMajor = (minor: number, decimals: number): number => minor / 10 ** decimals

/** Major units to minor units, exact for any amount with at most `decimals` decimals. */
export const majorToMinor = (major: number, decimals: number): number => Math.round(major * 10 ** decimals)

/** An amount as the punter would type it back in this locale: no grouping, no sign ("2,5"). */
export function formatTypedAmount(minor: number, locale: string, decimals: number): string {
  const { decimal } = separatorsOf(locale)
  const whole = Math.trunc(minor / 10 ** decimals)
  const fraction = decimals > 0 ? String(minor % 10 ** decimals).padStart(decimals, '0').replace(/0+$/, '') : ''
  return fraction ? `${whole}${decimal}${fraction}` : String(whole)
}

/** The text key and values that say why a typed amount was refused (`amount.error.<code>`). */
export function amountErrorText(error: AmountInputError | 'ZERO', locale: string, decimals: number): { key: string; values: Record<string, unknown> } {
  const { decimal } = separatorsOf(locale)
  const example = decimals > 0 ? `2${decimal}${'5'.padEnd(decimals, '0')}` : '25'
  return { key: `amount.error.${error}`, values: { decimal, example, decimals } }
}
