/**
 * The login redirect (spec §2 "Login redirect may carry parameters", §9 stored key "params after
 * login redirect"): `/login?redirect=/account/deposit?method=card` sends the punter, once logged
 * in, to that page with its query. The target is kept in the tab's session storage while the
 * login takes its course (a captcha step, a reload, a detour to lost-password and back), and used
 * once.
 *
 * Only a path of this site is ever followed: an absolute URL (`https://evil`), a
 * protocol-relative one (`//evil`, `/\evil`), a scheme (`javascript:`) or anything with control
 * characters is refused, and the punter goes home instead — the parameter is no open redirect.
 */
import type { StorageLike } from './stores'

export const LOGIN_REDIRECT_PARAM = 'redirect'
export const LOGIN_REDIRECT_STORAGE_KEY = 'parlay.loginRedirect'
/** Where a refused or missing target sends the punter. */
export const LOGIN_REDIRECT_HOME = '/'

const MAX_TARGET_LENGTH = 2048

/** The target as a same-site path (path, query and anchor), or null when it is not one. */
export function safeRedirectTarget(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_TARGET_LENGTH) return null
  // a path of this site: one leading slash, never two, never a backslash (browsers read /\ as //)
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null
  if (/[\u0000-\u001f\u007f\s]/.test(value)) return null
  let parsed: URL
  try {
    parsed = new URL(value, 'https://parlay.invalid')
  } catch {
    return null
  }
  if (parsed.origin !== 'https://parlay.invalid') return null
  // the login page itself is no destination (it would loop)
  if (/^\/([a-z]{2,3}\/)?login\/?$/.test(parsed.pathname)) return null
  return `${parsed.pathname}${parsed.search}${parsed.hash}`
}

/** Keeps the login page's redirect parameter for the login to come: a safe target, else home
 * (the parameter was there but refused); no parameter clears what an earlier visit kept. */
export function rememberLoginRedirect(storage: StorageLike | undefined, requested: unknown): string | null {
  try {
    if (requested === undefined || requested === null) {
      storage?.removeItem(LOGIN_REDIRECT_STORAGE_KEY)
      return null
    }
    const target = safeRedirectTarget(requested) ?? LOGIN_REDIRECT_HOME
    storage?.setItem(LOGIN_REDIRECT_STORAGE_KEY, target)
    return target
  } catch {
    return null
  }
}

/** The kept target (checked again: storage is not trusted), removed as it is taken. */
export function takeLoginRedirect(storage: StorageLike | undefined): string | null {
  try {
    const kept = storage?.getItem(LOGIN_REDIRECT_STORAGE_KEY) ?? null
    if (kept === null) return null
    storage?.removeItem(LOGIN_REDIRECT_STORAGE_KEY)
    return safeRedirectTarget(kept) ?? LOGIN_REDIRECT_HOME
  } catch {
    return null
  }
}
