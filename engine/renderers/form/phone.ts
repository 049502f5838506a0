/**
 * A small phone-country table with display masks (spec §3: dial code, allowed leading digits,
 * allowed lengths, display mask; spec §5: the national number's digit count must be one of the
 * country's lengths and start with a listed leading digit). A later issue replaces this with
 * libphonenumber; the widget only needs `countries`, `formatNational` and `isValidNational`.
 */
export interface PhoneCountry {
  code: string
  dial: string
  lengths: number[]
  leading?: string[]
  /** `#` is a digit. */
  mask: string
}

export const PHONE_COUNTRIES: PhoneCountry[] = [
  { code: 'RU', dial: '7', lengths: [10], leading: ['9', '3', '4', '8'], mask: '(###) ###-##-##' },
  { code: 'BY', dial: '375', lengths: [9], leading: ['2', '3', '4'], mask: '(##) ###-##-##' },
  { code: 'ES', dial: '34', lengths: [9], leading: ['6', '7', '8', '9'], mask: '### ### ###' },
  { code: 'IT', dial: '39', lengths: [9, 10], leading: ['3', '0'], mask: '### ### ####' },
  { code: 'DK', dial: '45', lengths: [8], mask: '## ## ## ##' },
  { code: 'CW', dial: '599', lengths: [7, 8], leading: ['9'], mask: '### ####' },
  { code: 'GB', dial: '44', lengths: [10], leading: ['7'], mask: '#### ######' },
  { code: 'NG', dial: '234', lengths: [10], leading: ['7', '8', '9'], mask: '### ### ####' },
  { code: 'GG', dial: '44', lengths: [10], leading: ['7'], mask: '#### ######' },
]

export const digitsOf = (text: string): string => text.replace(/\D/g, '')

export function countryFor(code: string | undefined): PhoneCountry {
  return PHONE_COUNTRIES.find((c) => c.code === code) ?? PHONE_COUNTRIES[0]
}

/** Formats national digits with the country's mask as far as they go. */
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

export function isValidNational(digits: string, country: PhoneCountry): boolean {
  if (!country.lengths.includes(digits.length)) return false
  return !country.leading || country.leading.some((l) => digits.startsWith(l))
}

/** Splits a stored `+<dial><national>` value into a country (preferred one first) and national digits. */
export function splitPhone(value: string, preferred?: string): { country: PhoneCountry; national: string } {
  const digits = digitsOf(value)
  const ordered = [...PHONE_COUNTRIES].sort((a, b) => (a.code === preferred ? -1 : b.code === preferred ? 1 : b.dial.length - a.dial.length))
  if (value.startsWith('+')) {
    const country = ordered.find((c) => digits.startsWith(c.dial))
    if (country) return { country, national: digits.slice(country.dial.length) }
  }
  return { country: countryFor(preferred), national: digits }
}

/** The stored value: `+<dial><national digits>`, or '' when no digits. */
export const joinPhone = (country: PhoneCountry, national: string): string => (national ? `+${country.dial}${national}` : '')
