/**
 * The one phone rule (spec §3 "phone country table", §5 "Phone numbers per country", §4 login
 * phones), the same module in the browser (sign-up form widget and check, login classification)
 * and on the server (sign-up validators, login lookup, the dictionary's table). It used to be three
 * rule sets that could disagree on a number; now it is libphonenumber-js's PUBLIC API with its
 * `min` metadata, nothing else:
 *
 * - a number is valid when libphonenumber calls it valid (`isValid()`, the numbering plan's
 *   lengths and digit patterns) under the dial code of the chosen country; without a known country
 *   a number over 7 digits is valid if it is valid for some country;
 * - the table's rows: dial code (`getCountryCallingCode`), lengths (`Metadata` numbering plan
 *   `possibleLengths()`, documented), display mask (the international format of the country's
 *   example mobile number, digits as `#`). Leading digits are not listed (the spec's "if leading
 *   digits are listed"): libphonenumber's digit patterns are stricter than any single-digit list,
 *   and its public API does not expose them.
 *
 * The browser loads this module lazily (the login and the phone widget import it with `import()`),
 * so libphonenumber never enters the lobby's first load.
 */
import { getCountries, getCountryCallingCode, getExampleNumber, Metadata, parsePhoneNumberFromString, type CountryCode, type PhoneNumber } from 'libphonenumber-js/min'
import examples from 'libphonenumber-js/mobile/examples'

export interface PhoneCountry {
  /** ISO 3166-1 alpha-2. */
  code: string
  dial: string
  lengths: number[]
  /** Single first digits; empty means any (see the header). */
  leading: string[]
  /** `#` is a digit. */
  mask: string
}

export interface ParsedPhone {
  country: PhoneCountry
  national: string
  /** `+<dial><national>` */
  e164: string
}

export const digitsOf = (text: string): string => text.replace(/\D/g, '')

function maskOf(code: CountryCode, dial: string, lengths: number[]): string {
  const example = getExampleNumber(code, examples)
  if (!example) return '#'.repeat(lengths[lengths.length - 1] ?? 10)
  return example.formatInternational().slice(`+${dial}`.length).trim().replace(/\d/g, '#')
}

function rowOf(code: CountryCode, metadata: Metadata): PhoneCountry {
  metadata.selectNumberingPlan(code)
  const lengths = [...(metadata.numberingPlan?.possibleLengths() ?? [])].sort((a, b) => a - b)
  const dial = getCountryCallingCode(code)
  return { code, dial, lengths, leading: [], mask: maskOf(code, dial, lengths) }
}

let table: PhoneCountry[] | undefined
let byCode: Map<string, PhoneCountry> | undefined

/** The whole table (built once on first use, ~245 rows including territories sharing a dial code). */
export function phoneCountries(): PhoneCountry[] {
  if (!table) {
    const metadata = new Metadata()
    table = getCountries().map((code) => rowOf(code, metadata))
    byCode = new Map(table.map((row) => [row.code, row]))
  }
  return table
}

export function phoneCountry(code: string | undefined): PhoneCountry | undefined {
  phoneCountries()
  return code ? byCode!.get(code.toUpperCase()) : undefined
}

/** A parsed number counts when libphonenumber calls it valid: the single test of every call site. */
const isAcceptable = (parsed: PhoneNumber | undefined): parsed is PhoneNumber => parsed !== undefined && parsed.isValid()

function parseInternational(digits: string): PhoneNumber | undefined {
  return digits.length > 0 && digits.length <= 17 ? parsePhoneNumberFromString(`+${digits}`) : undefined
}

/** Spec §5 for the national digits of a known country (dial code already removed). */
export function isValidNational(national: string, country: PhoneCountry): boolean {
  if (!/^\d{1,17}$/.test(national)) return false
  const parsed = parseInternational(country.dial + national)
  return isAcceptable(parsed) && parsed.nationalNumber === national
}

const resultOf = (country: PhoneCountry, national: string): ParsedPhone => ({ country, national, e164: `+${country.dial}${national}` })

/** The table row of a valid number: its own region when libphonenumber names one, else the first row of its dial code. */
function rowOfNumber(parsed: PhoneNumber): PhoneCountry | undefined {
  return phoneCountry(parsed.country) ?? phoneCountries().find((row) => row.dial === parsed.countryCallingCode)
}

/**
 * A sign-up number (`+<dial><national>` or, with a known country, national digits; spaces and
 * punctuation allowed). With a known country the dial code must be that country's; without one,
 * a number of 7 digits or fewer is refused and a longer one must be valid for some country.
 */
export function parsePhone(raw: unknown, countryCode?: string): ParsedPhone | undefined {
  if (typeof raw !== 'string' || raw.length > 40 || !/^\+?[\d\s().-]+$/.test(raw.trim())) return undefined
  const digits = digitsOf(raw)
  const known = phoneCountry(countryCode)
  if (known) {
    const international = raw.trim().startsWith('+')
    if (international && !digits.startsWith(known.dial)) return undefined
    const national = international ? digits.slice(known.dial.length) : digits
    return isValidNational(national, known) ? resultOf(known, national) : undefined
  }
  if (digits.length <= 7) return undefined
  const parsed = parseInternational(digits)
  const row = isAcceptable(parsed) ? rowOfNumber(parsed) : undefined
  return parsed && row ? resultOf(row, parsed.nationalNumber) : undefined
}

const PHONE_LIKE = /^(\+|00)?[\d\s().-]{7,24}$/

/**
 * A login phone (spec §4/§5 "phone numbers normalised") to E.164, or undefined if it is not a
 * valid number. Unlike sign-up, a national number may carry its trunk prefix (8 916 … in Russia),
 * as punters type it; "00" reads as "+".
 */
export function normalisePhone(raw: string, defaultCountry?: string): string | undefined {
  const value = raw.trim().replace(/^00/, '+')
  if (!PHONE_LIKE.test(value)) return undefined
  const country = phoneCountry(defaultCountry)?.code as CountryCode | undefined
  const parsed = parsePhoneNumberFromString(value, country)
  return isAcceptable(parsed) ? parsed.number : undefined
}

/** Formats national digits with the country's mask as far as they go (the widget's display). */
export function formatNational(digits: string, country: PhoneCountry): string {
  let out = ''
  let i = 0
  for (const ch of country.mask) {
    if (i >= digits.length) break
    if (ch === '#') out += digits[i++]
    else out += ch
  }
  return i < digits.length ? out + digits.slice(i) : out
}

/** The row for a widget: the code's, else the first row (the table is never empty). */
export function countryFor(code: string | undefined): PhoneCountry {
  return phoneCountry(code) ?? phoneCountries()[0]
}

/** Splits a stored `+<dial><national>` value into a country (the preferred one when its dial code fits) and national digits. */
export function splitPhone(value: string, preferred?: string): { country: PhoneCountry; national: string } {
  const digits = digitsOf(value)
  const wanted = phoneCountry(preferred)
  if (value.startsWith('+')) {
    if (wanted && digits.startsWith(wanted.dial)) return { country: wanted, national: digits.slice(wanted.dial.length) }
    const parsed = parseInternational(digits)
    const row = parsed ? rowOfNumber(parsed) : undefined
    if (parsed && row) return { country: row, national: digits.slice(row.dial.length) }
  }
  return { country: wanted ?? countryFor(undefined), national: digits }
}

/** The stored value: `+<dial><national digits>`, or '' when no digits. */
export const joinPhone = (country: PhoneCountry, national: string): string => (national ? `+${country.dial}${national}` : '')
