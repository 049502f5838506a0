/**
 * Login classification (spec §4 "Login flow", §5 "Login validation"): one function shared by the
 * server (which decides how to look a punter up) and the client (which picks the login call).
 *
 * Values are trimmed; phones are normalised to E.164. The order matters because the classes
 * overlap: an e-mail is checked first, then 6–20 plain digits are an account number, then a value
 * that reads as an international phone number (leading "+" or "00", or digits with phone
 * punctuation) is a phone, then a nickname (3–33 characters starting with a letter).
 * Classification is purely syntactic, so it reveals nothing about which accounts exist. Phones
 * are checked by the one phone rule (kernel/core/phone-rule.ts), as at sign-up.
 */
import { normalisePhone } from '../core/phone-rule'

export { normalisePhone }

export type LoginKind = 'phone_number' | 'email' | 'account_number' | 'nickname' | 'other'

export interface ClassifiedLogin {
  kind: LoginKind
  /** The value to look up: trimmed; E.164 for phones; lower case for e-mails. */
  value: string
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@.]{2,63}$/
const ACCOUNT_NUMBER = /^\d{6,20}$/
const NICKNAME = /^\p{L}[\p{L}\p{N}_.-]{2,32}$/u

export function classifyLogin(raw: string, defaultCountry?: string): ClassifiedLogin {
  const value = raw.trim()
  if (EMAIL.test(value)) return { kind: 'email', value: value.toLowerCase() }
  if (ACCOUNT_NUMBER.test(value)) return { kind: 'account_number', value }
  if (/^(\+|00)/.test(value) || /[\s().-]/.test(value)) {
    const phone = normalisePhone(value, defaultCountry)
    if (phone) return { kind: 'phone_number', value: phone }
  }
  if (NICKNAME.test(value)) return { kind: 'nickname', value }
  return { kind: 'other', value }
}

/** Classification for the phone-number login call: plain digits there are a national number. */
export function classifyPhoneLogin(raw: string, defaultCountry?: string): ClassifiedLogin {
  const phone = normalisePhone(raw, defaultCountry)
  if (phone) return { kind: 'phone_number', value: phone }
  return classifyLogin(raw, defaultCountry)
}

/** The error code that tells the client to switch login method (spec §8), carrying the login. */
export const AUTH_TYPE_NEEDED: Record<Exclude<LoginKind, 'other'>, string> = {
  phone_number: 'PHONE_NUMBER_AUTH_TYPE_NEEDED',
  email: 'EMAIL_AUTH_TYPE_NEEDED',
  account_number: 'LOGIN_AUTH_TYPE_NEEDED',
  nickname: 'NICKNAME_AUTH_TYPE_NEEDED',
}

/** The body of a login call (spec §7 "auth/v2/login", "…/login/phone-number"): what the client sends and the server reads. */
export interface LoginBody {
  login?: string
  phoneNumber?: string
  password: string
  rememberMe?: boolean
  keepPunterLoggedIn?: boolean
  captcha?: string
}
