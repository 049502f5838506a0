/**
 * A small demo set of Italian provinces and their communes (spec §7
 * `/dictionary/italy/provinces/{id}/communes`), with ISTAT-style codes, enough for the Italian
 * sign-up form. A real deployment loads the full ISTAT list behind the same functions.
 */
export interface Province {
  id: number
  code: string
  name: string
}
export interface Commune {
  id: number
  provinceId: number
  name: string
  /** Cadastral code (used in the codice fiscale). */
  cadastralCode: string
}

export const PROVINCES: Province[] = [
  { id: 1, code: 'RM', name: 'Roma' },
  { id: 2, code: 'MI', name: 'Milano' },
  { id: 3, code: 'NA', name: 'Napoli' },
  { id: 4, code: 'TO', name: 'Torino' },
  { id: 5, code: 'FI', name: 'Firenze' },
  { id: 6, code: 'BO', name: 'Bologna' },
]

export const COMMUNES: Commune[] = [
  { id: 101, provinceId: 1, name: 'Roma', cadastralCode: 'H501' },
  { id: 102, provinceId: 1, name: 'Fiumicino', cadastralCode: 'M297' },
  { id: 103, provinceId: 1, name: 'Tivoli', cadastralCode: 'L182' },
  { id: 201, provinceId: 2, name: 'Milano', cadastralCode: 'F205' },
  { id: 202, provinceId: 2, name: 'Sesto San Giovanni', cadastralCode: 'I690' },
  { id: 301, provinceId: 3, name: 'Napoli', cadastralCode: 'F839' },
  { id: 302, provinceId: 3, name: 'Pozzuoli', cadastralCode: 'G964' },
  { id: 401, provinceId: 4, name: 'Torino', cadastralCode: 'L219' },
  { id: 402, provinceId: 4, name: 'Moncalieri', cadastralCode: 'F335' },
  { id: 501, provinceId: 5, name: 'Firenze', cadastralCode: 'D612' },
  { id: 502, provinceId: 5, name: 'Prato', cadastralCode: 'G999' },
  { id: 601, provinceId: 6, name: 'Bologna', cadastralCode: 'A944' },
  { id: 602, provinceId: 6, name: 'Imola', cadastralCode: 'E289' },
]

export const communesOf = (provinceId: number) => COMMUNES.filter((c) => c.provinceId === provinceId)
export const communeById = (id: number) => COMMUNES.find((c) => c.id === id)

/** Demo addresses for `/dictionary/address-search/{countryId}` (prefix search on street or city). */
export const DEMO_ADDRESSES: { countryCode: string; street: string; city: string; postCode: string }[] = [
  { countryCode: 'IT', street: 'Via del Corso 1', city: 'Roma', postCode: '00186' },
  { countryCode: 'IT', street: 'Via Montenapoleone 8', city: 'Milano', postCode: '20121' },
  { countryCode: 'IT', street: 'Via Toledo 256', city: 'Napoli', postCode: '80132' },
  { countryCode: 'ES', street: 'Calle de Alcalá 42', city: 'Madrid', postCode: '28014' },
  { countryCode: 'ES', street: 'Passeig de Gràcia 92', city: 'Barcelona', postCode: '08008' },
  { countryCode: 'DK', street: 'Strøget 12', city: 'København', postCode: '1160' },
  { countryCode: 'DK', street: 'Nørregade 7', city: 'Aarhus', postCode: '8000' },
  { countryCode: 'GB', street: 'High Street 3', city: 'St Anne', postCode: 'GY9 3AA' },
  { countryCode: 'RU', street: 'Тверская улица 7', city: 'Москва', postCode: '125009' },
  { countryCode: 'BY', street: 'проспект Независимости 4', city: 'Минск', postCode: '220030' },
]
