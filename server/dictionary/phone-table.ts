/**
 * The phone country table (spec §3: about 230 entries of dial code, allowed leading digits,
 * allowed lengths, display mask) built from libphonenumber-js metadata at start, not typed by hand.
 *
 * - lengths: the numbering plan's possible national lengths;
 * - leading digits: the first digits the plan's national number pattern can start with
 *   (computed from the pattern itself, see `firstDigits`);
 * - mask: the international format of the country's example mobile number, digits as `#`.
 *
 * Validation (spec §5): after removing the dial code the digit count must be one of the country's
 * lengths and, if leading digits are listed, the number must start with one; without a known
 * country a number over 7 digits is valid if it matches any country.
 */
import { getCountries, getCountryCallingCode, getExampleNumber, Metadata, type CountryCode } from 'libphonenumber-js/max'
import examples from 'libphonenumber-js/mobile/examples'

export interface PhoneCountry {
  /** ISO 3166-1 alpha-2. */
  code: string
  dial: string
  lengths: number[]
  /** Single first digits; empty means any. */
  leading: string[]
  /** `#` is a digit. */
  mask: string
}

const DIGITS = '0123456789'

/**
 * The set of first characters a (libphonenumber-style) national number pattern can match:
 * digits, `\d`, classes, non-capturing groups, alternation and quantifiers. Anything else makes
 * the answer "any digit", which only loosens the rule, never rejects a valid number.
 */
export function firstDigits(pattern: string): Set<string> {
  let i = 0
  const any = () => new Set(DIGITS)
  // Returns [first set, can be empty].
  const parseAlternation = (): [Set<string>, boolean] => {
    const set = new Set<string>()
    let nullable = false
    for (;;) {
      const [s, n] = parseSequence()
      for (const d of s) set.add(d)
      nullable ||= n
      if (pattern[i] === '|') {
        i++
        continue
      }
      return [set, nullable]
    }
  }
  const parseSequence = (): [Set<string>, boolean] => {
    const set = new Set<string>()
    let nullable = true
    while (i < pattern.length && pattern[i] !== '|' && pattern[i] !== ')') {
      const [s, n] = parseQuantified()
      if (nullable) for (const d of s) set.add(d)
      nullable &&= n
    }
    return [set, nullable]
  }
  const parseQuantified = (): [Set<string>, boolean] => {
    let [s, n] = parseAtom()
    const q = pattern[i]
    if (q === '?' || q === '*') {
      n = true
      i++
    } else if (q === '+') i++
    else if (q === '{') {
      const end = pattern.indexOf('}', i)
      const min = Number(pattern.slice(i + 1, end).split(',')[0])
      if (min === 0) n = true
      i = end + 1
    }
    return [s, n]
  }
  const parseAtom = (): [Set<string>, boolean] => {
    const c = pattern[i]
    if (c === '(') {
      i++
      if (pattern.startsWith('?:', i)) i += 2
      const result = parseAlternation()
      i++ // ')'
      return result
    }
    if (c === '[') {
      const end = pattern.indexOf(']', i)
      const body = pattern.slice(i + 1, end)
      i = end + 1
      const set = new Set<string>()
      if (body.startsWith('^')) return [any(), false]
      for (let k = 0; k < body.length; k++) {
        if (body[k] === '\\' && body[k + 1] === 'd') {
          for (const d of DIGITS) set.add(d)
          k++
        } else if (body[k + 1] === '-' && k + 2 < body.length) {
          for (let code = body.charCodeAt(k); code <= body.charCodeAt(k + 2); code++) set.add(String.fromCharCode(code))
          k += 2
        } else set.add(body[k])
      }
      return [set, false]
    }
    if (c === '\\') {
      i += 2
      return [pattern[i - 1] === 'd' ? any() : new Set([pattern[i - 1]]), false]
    }
    i++
    return [c === '.' ? any() : new Set([c]), false]
  }
  try {
    const [set] = parseAlternation()
    return new Set([...set].filter((d) => DIGITS.includes(d)))
  } catch {
    return any()
  }
}

function buildTable(): PhoneCountry[] {
  const metadata = new Metadata()
  const table: PhoneCountry[] = []
  for (const code of getCountries()) {
    metadata.selectNumberingPlan(code)
    const plan = (metadata as unknown as { numberingPlan: { possibleLengths(): number[]; nationalNumberPattern(): string } }).numberingPlan
    const lengths = [...plan.possibleLengths()].sort((a, b) => a - b)
    const first = firstDigits(plan.nationalNumberPattern())
    const leading = first.size === 10 ? [] : [...first].sort()
    const dial = getCountryCallingCode(code)
    const example = getExampleNumber(code, examples)
    let mask = '#'.repeat(lengths[lengths.length - 1] ?? 10)
    if (example) {
      const international = example.formatInternational()
      mask = international.slice(`+${dial}`.length).trim().replace(/\d/g, '#')
    }
    table.push({ code, dial, lengths, leading, mask })
  }
  return table
}

let cached: PhoneCountry[] | undefined
let byCode: Map<string, PhoneCountry> | undefined

/** The whole table (built once, ~245 rows including territories that share a dial code). */
export function phoneTable(): PhoneCountry[] {
  if (!cached) {
    cached = buildTable()
    byCode = new Map(cached.map((c) => [c.code, c]))
  }
  return cached
}

export function phoneCountry(code: string | undefined): PhoneCountry | undefined {
  phoneTable()
  return code ? byCode!.get(code.toUpperCase()) : undefined
}

export const digitsOf = (text: string) => text.replace(/\D/g, '')

/** Spec §5 rule for national digits of a known country. */
export function isValidNational(national: string, country: PhoneCountry): boolean {
  if (!/^\d+$/.test(national)) return false
  if (!country.lengths.includes(national.length)) return false
  return country.leading.length === 0 || country.leading.includes(national[0])
}

export interface ParsedPhone {
  country: PhoneCountry
  national: string
  /** `+<dial><national>` */
  e164: string
}

/**
 * A full number (`+<dial><national>`, spaces and punctuation allowed). With a known country the
 * dial code must be that country's; without one, the first country whose rule matches wins
 * (numbers of 7 digits or fewer are refused, spec §5).
 */
export function parsePhone(raw: string, countryCode?: string): ParsedPhone | undefined {
  if (typeof raw !== 'string' || raw.length > 40 || !/^\+?[\d\s().-]+$/.test(raw.trim())) return undefined
  const digits = digitsOf(raw)
  const known = phoneCountry(countryCode)
  if (known) {
    const national = raw.trim().startsWith('+') ? (digits.startsWith(known.dial) ? digits.slice(known.dial.length) : undefined) : digits
    if (national === undefined || !isValidNational(national, known)) return undefined
    return { country: known, national, e164: `+${known.dial}${national}` }
  }
  if (digits.length <= 7) return undefined
  for (const country of phoneTable()) {
    if (!digits.startsWith(country.dial)) continue
    const national = digits.slice(country.dial.length)
    if (isValidNational(national, country)) return { country, national, e164: `+${country.dial}${national}` }
  }
  return undefined
}
