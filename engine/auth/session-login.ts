/**
 * Login (spec §4 "Login flow", §5): the call chosen by the login's classification, one CAPTCHA
 * solve and retry, the tokens stored with their refresh time, the heartbeat, the punter's saved
 * locale and the after-login rules. `applyTokens` also stores the tokens of every refresh.
 */
import type { Result } from '../../kernel/core/contracts'
import type { UserData } from '../core/stores'
import { MOBILE_GATE, type AuthController, type LoginInput, type LoginResult } from './session-contract'
import { offsetToExpire, startTimer, type SessionCore } from './session-core'
import { serverSettingsFrom } from './settings'

/** Does the login read as a phone number (spec §5)? The classification and its metadata load on first use. */
async function isPhoneLogin(raw: string, country: string | undefined): Promise<boolean> {
  const { classifyLogin } = await import('../../kernel/auth/login-classification')
  return classifyLogin(raw, country).kind === 'phone_number'
}

/**
 * When the access token must be refreshed, in the local clock (spec §9: creation time + login
 * timeout + clock offset). `clockOffset` = local time − server time when the tokens arrived;
 * `offsetToExpire` (remote config OFFSET_TO_EXPIRE_TOKEN, ms, usually negative) refreshes early.
 */
export function tokenExpiryTime(creationTime: number, loginTimeout: number, clockOffset: number, offsetToExpire = 0): number {
  return creationTime + loginTimeout + clockOffset + offsetToExpire
}

/** The login call: a phone login goes to the phone-number call with `phoneNumber`, any other with
 * `login` (trimmed both); the optional fields only when the punter gave them. */
export function loginRequest(input: LoginInput, byPhone: boolean): { path: string; body: Record<string, unknown> } {
  const raw = input.phoneNumber ?? input.login ?? ''
  const body: Record<string, unknown> = { password: input.password }
  if (byPhone) body.phoneNumber = raw.trim()
  else body.login = raw.trim()
  if (input.rememberMe !== undefined) body.rememberMe = input.rememberMe
  if (input.keepPunterLoggedIn !== undefined) body.keepPunterLoggedIn = input.keepPunterLoggedIn
  if (input.captcha) body.captcha = input.captcha
  return { path: `${MOBILE_GATE}/auth/v2/login${byPhone ? '/phone-number' : ''}`, body }
}

/** The punter's saved locale to switch to at login: one the site offers that is not the page's own; else null. */
export function localeToFollow(saved: string | undefined, pageLocale: string, siteLocales: readonly string[] | undefined): string | null {
  return saved && saved !== pageLocale && siteLocales?.includes(saved) ? saved : null
}

/** The punter's saved locale after a login: true when the page reloads for it (spec §2: a
 * locale change reloads the page with the code in the path, as on the language page). */
function followLocaleAtLogin(core: SessionCore, user: UserData): boolean {
  const site = core.stores.site.getState()
  const locale = localeToFollow(serverSettingsFrom(user).locale, site.locale, site.bootstrap?.site.locales)
  if (!locale) return false
  if (core.loginLocale) return core.loginLocale(locale)
  site.setLocale(locale)
  return false
}

/** The login call, answering a CAPTCHA_REQUIRED / INVALID_CAPTCHA with one solved challenge and a retry (spec §5). */
async function callLogin(core: SessionCore, input: LoginInput): Promise<Result<LoginResult>> {
  const { deps } = core
  const { gateway } = deps
  const raw = input.phoneNumber ?? input.login ?? ''
  const country = core.stores.site.getState().bootstrap?.site.country
  // the phone metadata (libphonenumber, ~25 KB brotli) loads at the login, not with the sign-up form (issue 10)
  const byPhone = input.phoneNumber !== undefined || (await isPhoneLogin(raw, country))
  const { path, body } = loginRequest(input, byPhone)
  const result = await gateway.call<LoginResult>('POST', path, body)
  if (result.ok || (result.code !== 'CAPTCHA_REQUIRED' && result.code !== 'INVALID_CAPTCHA') || !deps.solveCaptcha) return result
  const solved = await deps.solveCaptcha()
  if (!solved.ok) return solved
  return gateway.call<LoginResult>('POST', path, { ...body, captcha: solved.value })
}

/** The controller's `login` and `applyTokens`. */
export function loginMethods(core: SessionCore): Pick<AuthController, 'login' | 'applyTokens'> {
  const { deps, session } = core
  return {
    async login(input) {
      const result = await callLogin(core, input)
      if (!result.ok) return result
      core.controller.applyTokens(result.value)
      const user = await core.controller.loadUser()
      const reloading = user.ok && followLocaleAtLogin(core, user.value)
      deps.onEvent?.('login', { loginByAuthType: result.value.loginByAuthType })
      if (user.ok && !reloading) await deps.afterLogin?.()
      return result
    },

    applyTokens(result, receivedAt = deps.now()) {
      const newSession = !core.holdsSession() || (result.punterHash !== undefined && result.punterHash !== session().sessionHash)
      const clockOffset = receivedAt - result.creationTime
      session().setSession({
        accessToken: result.accessToken,
        refreshToken: result.refreshToken,
        creationTime: result.creationTime,
        loginTimeout: result.loginTimeout,
        expireTokenTime: tokenExpiryTime(result.creationTime, result.loginTimeout, clockOffset, offsetToExpire(core.stores)),
        ...(result.rememberMe !== undefined ? { rememberMe: result.rememberMe } : {}),
        isLoginByAuthToken: false,
      })
      if (result.punterHash) session().setSessionHash(result.punterHash)
      if (newSession) session().setStatus('restoring')
      startTimer(core)
      core.tabs.post({ kind: 'session' })
    },
  }
}
