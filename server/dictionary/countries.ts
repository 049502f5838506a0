/**
 * Countries and currencies (spec §3 "Dictionary": countries with id, code, defaultCurrencyId;
 * currencies with id, code, symbol, name). Countries come from the phone metadata; names from
 * the platform's Intl data in the request's language. A country's id is derived from its code
 * (A=1 … Z=26, two letters → first*100+second: RU = 1821), so ids never move when the list grows.
 */
import { phoneCountries } from '../../kernel/core/phone-rule'

export interface Currency {
  id: number
  code: string
  symbol: string
  name: string
}

export const CURRENCIES: Currency[] = [
  { id: 1, code: 'USD', symbol: '$', name: 'US dollar' },
  { id: 2, code: 'EUR', symbol: '€', name: 'Euro' },
  { id: 3, code: 'RUB', symbol: '₽', name: 'Russian rouble' },
  { id: 4, code: 'BYN', symbol: 'Br', name: 'Belarusian rouble' },
  { id: 5, code: 'DKK', symbol: 'kr', name: 'Danish krone' },
  { id: 6, code: 'GBP', symbol: '£', name: 'Pound sterling' },
  { id: 7, code: 'NGN', symbol: '₦', name: 'Nigerian naira' },
  { id: 8, code: 'BRL', symbol: 'R$', name: 'Brazilian real' },
  { id: 9, code: 'KZT', symbol: '₸', name: 'Kazakhstani tenge' },
  { id: 10, code: 'UAH', symbol: '₴', name: 'Ukrainian hryvnia' },
]

const EURO = ['AT', 'BE', 'CY', 'DE', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PT', 'SI', 'SK', 'SM', 'VA', 'MC', 'AD', 'ME', 'XK']
const DEFAULT_CURRENCY: Record<string, string> = { RU: 'RUB', BY: 'BYN', DK: 'DKK', GB: 'GBP', GG: 'GBP', JE: 'GBP', IM: 'GBP', NG: 'NGN', BR: 'BRL', KZ: 'KZT', UA: 'UAH' }
for (const code of EURO) DEFAULT_CURRENCY[code] = 'EUR'

export interface Country {
  id: number
  code: string
  defaultCurrencyId: number
  name: string
  dialCode: string
}

export const countryIdOf = (code: string): number => (code.charCodeAt(0) - 64) * 100 + (code.charCodeAt(1) - 64)
export const currencyByCode = (code: string) => CURRENCIES.find((c) => c.code === code)
export const currencyById = (id: number) => CURRENCIES.find((c) => c.id === id)

const names = new Map<string, Intl.DisplayNames>()
function countryName(code: string, language: string): string {
  let display = names.get(language)
  if (!display) {
    try {
      display = new Intl.DisplayNames([language, 'en'], { type: 'region' })
    } catch {
      display = new Intl.DisplayNames(['en'], { type: 'region' })
    }
    names.set(language, display)
  }
  return display.of(code) ?? code
}

/** Every country of the phone table (spec "allCountries"), named in `language`, sorted by name. */
export function allCountries(language = 'en'): Country[] {
  const collator = new Intl.Collator(language)
  return phoneCountries()
    .filter((c) => /^[A-Z]{2}$/.test(c.code))
    .map((c) => ({
      id: countryIdOf(c.code),
      code: c.code,
      defaultCurrencyId: currencyByCode(DEFAULT_CURRENCY[c.code] ?? 'USD')!.id,
      name: countryName(c.code, language),
      dialCode: c.dial,
    }))
    .sort((a, b) => collator.compare(a.name, b.name))
}

let byId: Map<number, Country> | undefined
export function countryById(id: number): Country | undefined {
  if (!byId) byId = new Map(allCountries('en').map((c) => [c.id, c]))
  return byId.get(id)
}
export const countryByCode = (code: string) => countryById(countryIdOf(code.toUpperCase()))
