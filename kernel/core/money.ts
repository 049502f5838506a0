/**
 * Money as integer minor units, the one representation from a request body to the database
 * (issue 28 item 2; docs/money-rules.md). Framework-free, no DOM and no Node: the server and the
 * browser read amounts with the same rules.
 *
 * - A currency's minor units are ISO 4217's (most currencies 2, JPY 0, KWD 3): `minorUnitsOf`.
 * - A major-unit JSON number is read EXACTLY or refused (`toMinor`): its decimal text (the
 *   shortest one that reads back as the same number, which is what a JSON sender wrote) must
 *   have at most the currency's decimals. 2.675 is refused in euros, never rounded to 2.67 or 2.68.
 * - Every amount is at most MAX_MINOR minor units: an integer JavaScript holds exactly (below
 *   Number.MAX_SAFE_INTEGER), PostgreSQL's bigint holds, and a JSON number of the major amount
 *   reads back to the same minor amount (`toMajor` then `toMinor` is the identity up to it).
 */

/** ISO 4217 minor units of the currencies Parlay knows (server/dictionary/countries.ts CURRENCIES and common others). */
export const MINOR_UNITS: Readonly<Record<string, number>> = {
  USD: 2, EUR: 2, RUB: 2, BYN: 2, DKK: 2, GBP: 2, NGN: 2, BRL: 2, KZT: 2, UAH: 2,
  SEK: 2, NOK: 2, CHF: 2, PLN: 2, CZK: 2, CAD: 2, AUD: 2, TRY: 2, INR: 2, MXN: 2, ANG: 2, XCG: 2,
  JPY: 0, KRW: 0, ISK: 0, CLP: 0, VND: 0, XAF: 0, XOF: 0,
  KWD: 3, BHD: 3, JOD: 3, OMR: 3, TND: 3, LYD: 3,
}

/** The largest amount in minor units: 10^15 (10 000 000 000 000.00 in a 2-decimal currency). */
export const MAX_MINOR = 1_000_000_000_000_000

/** The currency's minor units, or undefined for a currency this table does not know. */
export function minorUnitsOf(currency: string): number | undefined {
  return Object.prototype.hasOwnProperty.call(MINOR_UNITS, currency) ? MINOR_UNITS[currency] : undefined
}

export type MoneyRefusal = 'type' | 'multipleOf' | 'maximum' | 'currency'
export type MinorResult = { ok: true; minor: number } | { ok: false; code: MoneyRefusal }

/**
 * The exact decimal text of a finite number: its shortest round-trip form, written without an
 * exponent ("1e-7" → "0.0000001", "1.5e+21" → "1500000000000000000000").
 */
export function decimalText(value: number): string {
  const text = String(Math.abs(value))
  const exponent = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text)
  if (!exponent) return value < 0 ? `-${text}` : text
  const digits = exponent[1] + (exponent[2] ?? '')
  const point = 1 + Number(exponent[3])
  const plain = point <= 0 ? `0.${'0'.repeat(-point)}${digits}` : point >= digits.length ? digits + '0'.repeat(point - digits.length) : `${digits.slice(0, point)}.${digits.slice(point)}`
  return value < 0 ? `-${plain}` : plain
}

/**
 * A number with at most `decimals` decimals as an integer count of 10^-decimals, exactly (BigInt
 * from its decimal text), or undefined when it has more decimals or is not finite.
 */
export function scaledInteger(value: number, decimals: number): bigint | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined
  const text = decimalText(value)
  const negative = text.startsWith('-')
  const [whole, fraction = ''] = (negative ? text.slice(1) : text).split('.')
  if (fraction.length > decimals) return undefined
  const scaled = BigInt(whole + fraction.padEnd(decimals, '0'))
  return negative ? -scaled : scaled
}

/** Reads a major-unit amount of `currency` into minor units exactly, or says why not. */
export function toMinor(major: unknown, currency: string): MinorResult {
  const decimals = minorUnitsOf(currency)
  if (decimals === undefined) return { ok: false, code: 'currency' }
  if (typeof major !== 'number' || !Number.isFinite(major)) return { ok: false, code: 'type' }
  const scaled = scaledInteger(major, decimals)
  if (scaled === undefined) return { ok: false, code: 'multipleOf' }
  if (scaled > BigInt(MAX_MINOR) || scaled < -BigInt(MAX_MINOR)) return { ok: false, code: 'maximum' }
  return { ok: true, minor: Number(scaled) }
}

/**
 * Minor units as the major-unit number a JSON answer carries (1999 → 19.99 in euros). Exact up to
 * MAX_MINOR: the division's result is the number nearest the decimal amount, which is what
 * reading that decimal back gives.
 */
export function toMajor(minor: number, currency: string): number {
  const decimals = minorUnitsOf(currency) ?? 2
  return minor / 10 ** decimals
}

/** A limit a document states in major units, in minor units (a limit with too many decimals counts down to what the currency can pay). */
export function limitToMinor(major: number, currency: string): number {
  const decimals = minorUnitsOf(currency) ?? 2
  const exact = toMinor(major, currency)
  if (exact.ok) return exact.minor
  return Math.min(MAX_MINOR, Math.floor(major * 10 ** decimals))
}
