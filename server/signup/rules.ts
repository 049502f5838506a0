/**
 * The sign-up rules JSON Schema cannot say (spec §5), in one place. The flow documents declare
 * the field shapes (enforced with `validateFlowStep`); these functions add what needs the site,
 * the clock, other fields or the phone table. Each returns field errors `{field, code}`; the
 * phone rule is the one module the browser's form and login use too (kernel/core/phone-rule.ts).
 */
import type { FieldError } from '../http/validate'
import { parsePhone, type ParsedPhone } from '../../kernel/core/phone-rule'
import { countryById } from '../dictionary/countries'
import { communeById } from '../dictionary/italy'
import type { SIGNUP_CHECKS } from '../../kernel/documents/kinds'

/** Letters of any script (with their combining marks), digits, single spaces between words. */
export const NAME_LIKE = /^[\p{L}\p{M}\p{N}]+(?: [\p{L}\p{M}\p{N}]+)*$/u
export const isNameLike = (value: string) => value.length <= 100 && NAME_LIKE.test(value)

/** Nickname: 3–33 characters starting with a letter (spec §5 login rules). */
export const NICKNAME = /^\p{L}[\p{L}\p{N}_.-]{2,32}$/u

/** Passwords (REFERENCES / NIST 800-63B): at least 8, at least 64 allowed, no composition rules. */
export const PASSWORD = { min: 8, max: 128 } as const
/** A few of the most breached passwords (NIST: reject known-breached). */
const BREACHED = new Set(['password', '12345678', '123456789', '1234567890', 'qwertyui', 'qwerty123', 'password1', '11111111', 'iloveyou', '00000000', 'abc12345', 'passw0rd'])

export function passwordErrors(password: unknown, field = 'password'): FieldError[] {
  if (typeof password !== 'string') return [{ field, code: 'required' }]
  const length = [...password].length
  if (length < PASSWORD.min) return [{ field, code: 'minLength', limit: PASSWORD.min }]
  if (length > PASSWORD.max) return [{ field, code: 'maxLength', limit: PASSWORD.max }]
  if (BREACHED.has(password.toLowerCase())) return [{ field, code: 'breachedPassword' }]
  return []
}

/** Full years between an ISO birth date and the clock (UTC calendar). */
export function ageOn(birthDay: string, now: number): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(birthDay)
  if (!match) return undefined
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(y, m - 1, d))
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return undefined
  const today = new Date(now)
  let age = today.getUTCFullYear() - y
  if (today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d)) age--
  return age
}

/** Minimum age of the jurisdiction document (18; Belarus 21), enforced here, not only rendered. */
export function ageErrors(birthDay: unknown, minimumAge: number, now: number): FieldError[] {
  if (typeof birthDay !== 'string') return [{ field: 'birthDay', code: 'required' }]
  const age = ageOn(birthDay, now)
  if (age === undefined || age > 120) return [{ field: 'birthDay', code: 'format' }]
  return age < minimumAge ? [{ field: 'birthDay', code: 'minimumAge' }] : []
}

/**
 * The secret answer must not contain the birthday (spec §5): in any of the usual spellings
 * (1990-05-12, 12.05.1990, 12/05/90, 19900512 …), compared on digits only.
 */
export function answerContainsBirthday(answer: string, birthDay: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(birthDay)
  if (!match) return false
  const [, y, m, d] = match
  const digits = answer.replace(/\D/g, '')
  if (digits.length < 4) return false
  const forms = [`${y}${m}${d}`, `${d}${m}${y}`, `${m}${d}${y}`, `${d}${m}${y.slice(2)}`, `${m}${d}${y.slice(2)}`, `${y.slice(2)}${m}${d}`]
  return forms.some((form) => digits.includes(form))
}

/** Name-like fields of a payload (spec §5): any script, digits, single spaces. */
export function nameErrors(data: Record<string, unknown>, fields: readonly string[]): FieldError[] {
  const errors: FieldError[] = []
  for (const field of fields) {
    const value = data[field]
    if (value === undefined || value === '') continue
    if (typeof value !== 'string' || !isNameLike(value)) errors.push({ field, code: 'nameLike' })
  }
  return errors
}

export const NAME_FIELDS = ['firstName', 'lastName', 'middleName', 'city', 'birthPlace'] as const

/** Phone per country (spec §5): the one phone rule under the country's dial code. */
export function phoneRule(raw: unknown, countryCode: string | undefined): { errors: FieldError[]; phone?: ParsedPhone } {
  if (typeof raw !== 'string' || raw.trim() === '') return { errors: [{ field: 'phoneNumber', code: 'required' }] }
  const phone = parsePhone(raw, countryCode)
  return phone ? { errors: [], phone } : { errors: [{ field: 'phoneNumber', code: 'INCORRECT_PHONE_NUMBER' }] }
}

export interface NicknamePolicy {
  /** Does the jurisdiction ask for a nickname at all. */
  enabled?: boolean
  /** Country codes for which the nickname is skipped (Curacao: JP, KR, BY, NG). */
  skipCountries?: string[]
}

/** Whether the nickname is asked for this site and country (spec §5 "Nickname entry is skipped …"). */
export function nicknameApplies(policy: NicknamePolicy | undefined, countryCode: string | undefined): boolean {
  if (!policy || policy.enabled === false) return false
  return !(countryCode && policy.skipCountries?.includes(countryCode))
}

export function nicknameErrors(nickname: unknown, policy: NicknamePolicy | undefined, countryCode: string | undefined): FieldError[] {
  if (nickname === undefined || nickname === '') return []
  if (!nicknameApplies(policy, countryCode)) return [{ field: 'nickname', code: 'notAllowed' }]
  return typeof nickname === 'string' && NICKNAME.test(nickname) ? [] : [{ field: 'nickname', code: 'pattern' }]
}

export interface CountryCheckPolicy {
  enabled?: boolean
  /** Locales for which the check is off (Curacao and Spain: ru, su, be). */
  offForLocales?: string[]
  /** Countries whose residents may not register on this site. */
  blockedCountries?: string[]
}

/** Country check (spec §5): off for Belarus and Russia, and for Curacao and Spain in ru/su/be. */
export function countryCheckApplies(policy: CountryCheckPolicy | undefined, locale: string): boolean {
  if (!policy || policy.enabled === false) return false
  return !policy.offForLocales?.includes(locale)
}

export function countryErrors(countryId: unknown, policy: CountryCheckPolicy | undefined, locale: string): FieldError[] {
  if (countryId === undefined) return []
  const country = typeof countryId === 'number' ? countryById(countryId) : undefined
  if (!country) return [{ field: 'countryId', code: 'enum' }]
  if (countryCheckApplies(policy, locale) && policy?.blockedCountries?.includes(country.code)) return [{ field: 'countryId', code: 'countryNotAllowed' }]
  return []
}

/**
 * Danish CPR (personnummer): DDMMYY-SSSS, a real date. The modulus-11 check was dropped by the
 * CPR office in 2007, so only the date is checked.
 */
export function cprErrors(cpr: unknown): FieldError[] {
  if (typeof cpr !== 'string' || !/^\d{6}-?\d{4}$/.test(cpr)) return [{ field: 'cpr', code: 'CPR_CODE_INVALID' }]
  const digits = cpr.replace('-', '')
  const [d, m] = [Number(digits.slice(0, 2)), Number(digits.slice(2, 4))]
  if (m < 1 || m > 12 || d < 1 || d > 31) return [{ field: 'cpr', code: 'CPR_CODE_INVALID' }]
  return []
}

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE'

/** Spanish DNI (8 digits + check letter) or NIE (X/Y/Z + 7 digits + check letter). */
export function spanishDocumentErrors(value: unknown): FieldError[] {
  if (typeof value !== 'string') return [{ field: 'documentNumber', code: 'required' }]
  const text = value.toUpperCase().replace(/[\s-]/g, '')
  const match = /^([XYZ]?)(\d{7,8})([A-Z])$/.exec(text)
  if (!match || (match[1] === '' && match[2].length !== 8) || (match[1] !== '' && match[2].length !== 7)) return [{ field: 'documentNumber', code: 'pattern' }]
  const number = Number(`${match[1] ? 'XYZ'.indexOf(match[1]) : ''}${match[2]}`)
  return DNI_LETTERS[number % 23] === match[3] ? [] : [{ field: 'documentNumber', code: 'checksum' }]
}

/** The check character of an Italian codice fiscale (16 characters). */
export function fiscalCodeErrors(value: unknown): FieldError[] {
  if (typeof value !== 'string' || !/^[A-Z]{6}[0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]$/.test(value.toUpperCase()))
    return [{ field: 'fiscalCode', code: 'pattern' }]
  const text = value.toUpperCase()
  const ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23]
  let sum = 0
  for (let i = 0; i < 15; i++) {
    const c = text[i]
    const n = /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 65
    sum += i % 2 === 0 ? ODD[n] : n
  }
  return String.fromCharCode(65 + (sum % 26)) === text[15] ? [] : [{ field: 'fiscalCode', code: 'checksum' }]
}

/** The commune must be one of the chosen province's. */
export function communeErrors(data: Record<string, unknown>): FieldError[] {
  const commune = typeof data.communeId === 'number' ? communeById(data.communeId) : undefined
  return commune && commune.provinceId === data.provinceId ? [] : [{ field: 'communeId', code: 'enum' }]
}

/** The checks a jurisdiction's `signup.checks` names, by name: the document decides which run. */
export const SIGNUP_CHECK_RULES: Record<(typeof SIGNUP_CHECKS)[number], (data: Record<string, unknown>) => FieldError[]> = {
  spanishDocument: (data) => spanishDocumentErrors(data.documentNumber),
  italianFiscalCode: (data) => fiscalCodeErrors(data.fiscalCode),
  italianCommune: communeErrors,
}

export function signupCheckErrors(checks: unknown, data: Record<string, unknown>): FieldError[] {
  if (!Array.isArray(checks)) return []
  return checks.flatMap((name) => (typeof name === 'string' && Object.hasOwn(SIGNUP_CHECK_RULES, name) ? SIGNUP_CHECK_RULES[name as keyof typeof SIGNUP_CHECK_RULES](data) : []))
}
