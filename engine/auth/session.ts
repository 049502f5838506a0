/**
 * The punter session on the client (spec §3 "Session", §4 "Login flow", "Logout", "Token
 * refresh"). Framework-free: the stores, the gateway, the clock and the timers are injected.
 *
 * - Login picks the call by classification (phones go to the phone-number call), answers a
 *   CAPTCHA_REQUIRED / INVALID_CAPTCHA with one proof-of-work solve and a retry, stores the tokens
 *   and the session hash, loads the heartbeat, applies the server-side settings and runs the
 *   after-login rules.
 * - A refresh timer fires at creationTime + loginTimeout + clock offset (+ OFFSET_TO_EXPIRE_TOKEN
 *   from remote config, negative = earlier); INVALID_REFRESH_TOKEN logs out (refresh-token expired).
 * - Logout has the four reasons of spec §3 and all their effects.
 */
import type { Result } from '../core/contracts'
import type { Gateway } from '../core/gateway'
import type { EngineStores, ServerSettings, UserData } from '../core/stores'
import { classifyLogin, JURISDICTION_PHONE_COUNTRY } from './login-classification'
import { serverSettingsFrom } from './settings'

/** Logout reasons (spec §3 enumerations; SEFT_LOGOUT is the spec's spelling). */
export const LOGOUT_REASONS = ['AT_EXPIRED', 'RT_EXPIRED', 'SEFT_LOGOUT', 'SOCKET'] as const
export type LogoutReason = (typeof LOGOUT_REASONS)[number]

export const MOBILE_GATE = '/mobile-gate/api/v1'

/** States whose punters lose access: logout shows "no access any more" (account-closed for CLOSED). */
export const BLOCKED_STATES = ['CLOSED', 'BLOCKED_ID_UPLOAD', 'SEIZED', 'SUSPENDED_GDPR'] as const

export interface LoginResult {
  status: 'OK'
  accessToken: string
  refreshToken: string
  creationTime: number
  loginTimeout: number
  punterHash?: string
  rememberMe?: boolean
  loginByAuthType?: string
}

export interface LoginInput {
  login?: string
  phoneNumber?: string
  password: string
  rememberMe?: boolean
  keepPunterLoggedIn?: boolean
  captcha?: string
}

export interface AuthDeps {
  stores: EngineStores
  gateway: Gateway
  now: () => number
  setTimeout?: (fn: () => void, ms: number) => unknown
  clearTimeout?: (handle: unknown) => void
  /** Plain-text POST (logout by refresh token); defaults to fetch on the same origin. */
  postText?: (path: string, text: string) => Promise<void>
  /** Solves a proof-of-work challenge; the payload goes in the login's captcha field. */
  solveCaptcha?: () => Promise<Result<string>>
  /** Runs the after-login rules (see ./after-login); called after the heartbeat is loaded. */
  afterLogin?: () => Promise<void>
  navigate?: (path: string) => void
  /** Stops the real-time connection on logout; emits events (login, logout). */
  onEvent?: (event: 'login' | 'logout', detail?: unknown) => void
}

/**
 * When the access token must be refreshed, in the local clock (spec §9: creation time + login
 * timeout + clock offset). `clockOffset` = local time − server time when the tokens arrived;
 * `offsetToExpire` (remote config OFFSET_TO_EXPIRE_TOKEN, ms, usually negative) refreshes early.
 */
export function tokenExpiryTime(creationTime: number, loginTimeout: number, clockOffset: number, offsetToExpire = 0): number {
  return creationTime + loginTimeout + clockOffset + offsetToExpire
}

export interface AuthController {
  login(input: LoginInput): Promise<Result<LoginResult>>
  /** Stores tokens from a login or refresh answer and (re)starts the refresh timer. */
  applyTokens(result: LoginResult, receivedAt?: number): void
  refresh(): Promise<Result<LoginResult>>
  logout(reason: LogoutReason, options?: { popup?: string }): Promise<void>
  loadUser(): Promise<Result<UserData>>
  /** Restarts the refresh timer from a stored session (page load). */
  resume(): void
  stop(): void
}

export function createAuthController(deps: AuthDeps): AuthController {
  const { stores, gateway } = deps
  const schedule = deps.setTimeout ?? ((fn: () => void, ms: number) => globalThis.setTimeout(fn, ms))
  const cancel = deps.clearTimeout ?? ((h: unknown) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>))
  let timer: unknown = null
  let refreshing: Promise<Result<LoginResult>> | null = null

  const offsetToExpire = () => {
    const value = stores.site.getState().bootstrap?.remoteConfig?.OFFSET_TO_EXPIRE_TOKEN
    return typeof value === 'number' ? value : 0
  }

  function startTimer() {
    if (timer !== null) cancel(timer)
    timer = null
    const { expireTokenTime, refreshToken } = stores.session.getState()
    if (!expireTokenTime || !refreshToken) return
    timer = schedule(() => {
      timer = null
      void controller.refresh()
    }, Math.max(0, expireTokenTime - deps.now()))
  }

  const postText =
    deps.postText ??
    (async (path: string, text: string) => {
      const hash = stores.session.getState().sessionHash
      await fetch(path, { method: 'POST', headers: { 'content-type': 'text/plain', ...(hash ? { 'punter-session-hash': hash } : {}) }, body: text, credentials: 'same-origin' })
    })

  const controller: AuthController = {
    async login(input) {
      const jurisdiction = stores.site.getState().bootstrap?.site.jurisdiction ?? ''
      const raw = input.phoneNumber ?? input.login ?? ''
      const byPhone = input.phoneNumber !== undefined || classifyLogin(raw, JURISDICTION_PHONE_COUNTRY[jurisdiction]).kind === 'phone_number'
      const body: Record<string, unknown> = { password: input.password }
      if (byPhone) body.phoneNumber = raw.trim()
      else body.login = raw.trim()
      if (input.rememberMe !== undefined) body.rememberMe = input.rememberMe
      if (input.keepPunterLoggedIn !== undefined) body.keepPunterLoggedIn = input.keepPunterLoggedIn
      if (input.captcha) body.captcha = input.captcha
      const path = `${MOBILE_GATE}/auth/v2/login${byPhone ? '/phone-number' : ''}`
      let result = await gateway.call<LoginResult>('POST', path, body)
      // Spec §5: captcha required or invalid → a challenge, then one retry.
      if (!result.ok && (result.code === 'CAPTCHA_REQUIRED' || result.code === 'INVALID_CAPTCHA') && deps.solveCaptcha) {
        const solved = await deps.solveCaptcha()
        if (!solved.ok) return solved
        result = await gateway.call<LoginResult>('POST', path, { ...body, captcha: solved.value })
      }
      if (!result.ok) return result
      controller.applyTokens(result.value)
      const user = await controller.loadUser()
      if (user.ok) {
        const locale = serverSettingsFrom(user.value).locale
        if (locale && stores.site.getState().bootstrap?.site.locales.includes(locale)) stores.site.getState().setLocale(locale)
      }
      deps.onEvent?.('login', { loginByAuthType: result.value.loginByAuthType })
      if (user.ok) await deps.afterLogin?.()
      return result
    },

    applyTokens(result, receivedAt = deps.now()) {
      const clockOffset = receivedAt - result.creationTime
      stores.session.getState().setSession({
        accessToken: result.accessToken,
        refreshToken: result.refreshToken,
        creationTime: result.creationTime,
        loginTimeout: result.loginTimeout,
        expireTokenTime: tokenExpiryTime(result.creationTime, result.loginTimeout, clockOffset, offsetToExpire()),
        ...(result.rememberMe !== undefined ? { rememberMe: result.rememberMe } : {}),
        isLoginByAuthToken: false,
      })
      if (result.punterHash) stores.session.getState().setSessionHash(result.punterHash)
      startTimer()
    },

    refresh() {
      // One refresh at a time: a second caller shares the first (two would be a token reuse).
      refreshing ??= (async () => {
        const token = stores.session.getState().refreshToken
        if (!token) return { ok: false as const, code: 'EMPTY_TOKEN' }
        const result = await gateway.call<LoginResult>('POST', `${MOBILE_GATE}/auth/v2/token/refresh`, { token })
        if (result.ok) controller.applyTokens(result.value)
        else if (result.code === 'INVALID_REFRESH_TOKEN' || result.code === 'UNAUTHORIZED') await controller.logout('RT_EXPIRED')
        return result
      })().finally(() => {
        refreshing = null
      })
      return refreshing
    },

    async logout(reason, options = {}) {
      const session = stores.session.getState()
      const stateBefore = stores.user.getState().data?.punterInfo?.state ?? ''
      if (timer !== null) cancel(timer)
      timer = null
      // The server call first (errors ignored): by refresh token if there is one, else plain.
      try {
        if (session.refreshToken) await postText(`${MOBILE_GATE}/auth/token/logout`, session.refreshToken)
        else if (session.sessionHash) await gateway.call('POST', `${MOBILE_GATE}/auth/logout`)
      } catch {
        // ignored (spec §4)
      }
      const ui = stores.ui.getState()
      session.clearSession()
      ui.closeAllPopups()
      ui.closeProfile()
      stores.user.getState().clearUser()
      stores.settings.getState().resetSettings()
      deps.onEvent?.('logout', { reason })
      const path = stores.route.getState().path
      if (reason === 'SOCKET' || /^\/account(\/|$)/.test(path)) deps.navigate?.('/')
      if (reason === 'AT_EXPIRED' || reason === 'RT_EXPIRED' || reason === 'SOCKET') ui.openPopup({ id: 'session-expired' })
      if (options.popup) ui.openPopup({ id: options.popup, isCloseable: false })
      else if (stateBefore === 'CLOSED') ui.openPopup({ id: 'account-closed' })
      else if ((BLOCKED_STATES as readonly string[]).includes(stateBefore)) ui.openPopup({ id: 'logged-out-blocked-user' })
    },

    async loadUser() {
      const result = await gateway.call<UserData>('GET', `${MOBILE_GATE}/heartbeat`)
      if (result.ok) {
        stores.user.getState().setUser(result.value)
        stores.settings.getState().setServerSettings(serverSettingsFrom(result.value) as Partial<ServerSettings>)
      }
      return result
    },

    resume() {
      const { expireTokenTime, refreshToken } = stores.session.getState()
      if (!refreshToken) return
      if (expireTokenTime !== null && expireTokenTime <= deps.now()) void controller.refresh()
      else startTimer()
    },

    stop() {
      if (timer !== null) cancel(timer)
      timer = null
    },
  }
  return controller
}
