/**
 * The consent cookie (spec §3 page settings): its settings, how a choice is read from a Cookie
 * header or `document.cookie` string and written back. Pure: the server reads the same cookie to
 * render the first screen; the store over it is engine/core/consent.ts.
 */
import type { CONSENT_CHOICES } from './action-choices'

export const DEFAULT_CONSENT_COOKIE = 'ConsentCookie'
export const DEFAULT_CONSENT_EXPIRY_DAYS = 182
const DAY_SECONDS = 86_400

/** 'all': analytics and the like may run; 'necessary': only what the site needs to work. */
export type ConsentChoice = (typeof CONSENT_CHOICES)[number]
/**
 * The cookie's accepted values, keyed by the shared list's type: a choice added to
 * action-choices.ts fails to compile here until it is added. A type-only import on purpose: a
 * runtime import of action-choices from this module made the bundler split the lobby's entry into
 * five files (rolldown could no longer merge the modules shared with the lazy chunks into it).
 */
const KNOWN_CHOICES: Record<ConsentChoice, true> = { all: true, necessary: true }

export interface ConsentSettings {
  cookieName: string
  expiryDays: number
}

/** Reads and writes `document.cookie` (or a test double). */
export interface CookieJar {
  read(): string
  write(cookie: string): void
  /** Adds `Secure` to the cookie (pages served over https). */
  secure?: boolean
}

/** Untrusted settings (from a document) cleaned to usable values, spec defaults otherwise. */
export function consentSettings(input: Partial<ConsentSettings> | undefined): ConsentSettings {
  const name = input?.cookieName
  const days = input?.expiryDays
  return {
    cookieName: typeof name === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(name) ? name : DEFAULT_CONSENT_COOKIE,
    expiryDays: typeof days === 'number' && Number.isInteger(days) && days > 0 && days <= 400 ? days : DEFAULT_CONSENT_EXPIRY_DAYS,
  }
}

/** The choice stored under `name` in a `document.cookie` string; anything unknown counts as none. */
export function readConsentCookie(cookies: string, name: string): ConsentChoice | null {
  for (const part of cookies.split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key !== name) continue
    const value = rest.join('=')
    return Object.prototype.hasOwnProperty.call(KNOWN_CHOICES, value) ? (value as ConsentChoice) : null
  }
  return null
}

/** The `document.cookie` assignment that stores a choice. */
export function consentCookie(choice: ConsentChoice, settings: ConsentSettings, secure = false): string {
  return `${settings.cookieName}=${choice}; Max-Age=${settings.expiryDays * DAY_SECONDS}; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`
}
