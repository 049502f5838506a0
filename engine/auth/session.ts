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
 * - Every token update (timer, page load, another tab, a late 401) has one of the spec's five
 *   outcomes (kernel/auth/token-update.ts), and what the session does next follows the outcome
 *   (`updateTokens`, `followTokenUpdate`).
 * - Logout has the four reasons of spec §3 and all their effects.
 * - On page load `restore` brings a stored session back: refresh first when the access token has
 *   expired, re-arm the timer, load the heartbeat, restore the locale and settings
 *   (`session.status`: 'restoring' until then, so nothing shows an empty punter).
 * - An unauthorised answer (HTTP 401, INVALID_SESSION_HASH) ends the session once, with reason
 *   AT_EXPIRED and the session-expired popup — unless the request only carried a token since
 *   replaced (refreshed here or in another tab): then it is sent again.
 * - Tabs share one session (see ./session-tabs): refreshes take a cross-tab lock and re-read the
 *   shared storage first; logins, refreshes and logouts reach the other tabs at once.
 */
import { LOGOUT_REASONS, type LogoutReason } from '../../kernel/core/action-choices'
import type { Result } from '../../kernel/core/contracts'
import { isTransientFailure, updateTokens, type TokenUpdate } from '../../kernel/auth/token-update'
import { ACCOUNT_STATUSES } from '../../kernel/punters/account-statuses'
import type { Gateway, SentCredentials } from '../core/gateway'
import type { EngineStores, ServerSettings, SessionFields, StoredSession, UserData } from '../core/stores'
import { inPageLock, sessionServicesOf, type SessionMessage, type SessionTabs } from './session-tabs'
import { serverSettingsFrom } from './settings'

export { provideSessionServices, type SessionServices } from './session-tabs'
export type { LogoutReason }
export { isTransientFailure, type TokenUpdate }

/** Does the login read as a phone number (spec §5)? The classification and its metadata load on first use. */
async function isPhoneLogin(raw: string, country: string | undefined): Promise<boolean> {
  const { classifyLogin } = await import('../../kernel/auth/login-classification')
  return classifyLogin(raw, country).kind === 'phone_number'
}

export const MOBILE_GATE = '/mobile-gate/api/v1'
const REFRESH_PATH = '/auth/v2/token/refresh'

/** States whose punters lose access (no login in kernel/punters/account-statuses.ts; the
 * exclusions and an unfinished registration are refused at login instead): logout shows "no access
 * any more" (account-closed for CLOSED). */
export const BLOCKED_STATES: readonly string[] = ACCOUNT_STATUSES.filter((s) => !s.may.login && s.group !== 'self-exclusion' && s.group !== 'registration').map((s) => s.state)

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
  /** Plain-text POST (logout by refresh token); defaults to the gateway. */
  postText?: (path: string, text: string) => Promise<void>
  /** Solves a proof-of-work challenge; the payload goes in the login's captcha field. */
  solveCaptcha?: () => Promise<Result<string>>
  /** Runs the after-login rules (see ./after-login); called after the heartbeat is loaded. */
  afterLogin?: () => Promise<void>
  navigate?: (path: string) => void
  /** Stops the real-time connection on logout; emits events (login, logout). */
  onEvent?: (event: 'login' | 'logout', detail?: unknown) => void
  /** The other tabs of the browser; default: those given by `provideSessionServices`, else none. */
  tabs?: SessionTabs
  /** After a page load: follows the punter's server-side locale; true when the page reloads for it. */
  restoreLocale?: (serverLocale: string) => boolean
  /** After a login: follows the punter's server-side locale like the language page (reload on the
   * localised path; the after-login rules then run after the reload); true when the page reloads.
   * Without it (no page to reload) the store's locale switches in place. */
  loginLocale?: (serverLocale: string) => boolean
  /** After a page load: true once when a login reloaded the page before its after-login rules ran. */
  takePendingAfterLogin?: () => boolean
}

/** Retry delay after a refresh or a restore failed for a transient reason (network, 5xx). */
export const SESSION_RETRY_MS = 10_000

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
  /** Stores tokens from a login or refresh answer, (re)starts the refresh timer, tells the other tabs. */
  applyTokens(result: LoginResult, receivedAt?: number): void
  /** Rotates the tokens under the cross-tab lock (adopts another tab's rotation instead of calling). */
  refresh(): Promise<Result<LoginResult>>
  /**
   * One token update (spec §3): refreshes only when the access token has expired and a refresh
   * token is stored, answers the outcome, and acts on it (a dead session is logged out, a
   * transient failure retried later, a current token's timer kept armed).
   */
  updateTokens(): Promise<TokenUpdate>
  /** Ends the session once (see `logout` below): a logout of a session already ended is ignored. */
  logout(reason: LogoutReason, options?: { popup?: string }): Promise<void>
  /**
   * Runs a call that ends the session on the server and then logs out with its own reason (a
   * self-exclusion, a password reset): the socket's accountLogout that the same server change sends
   * waits until the task is over, so the task's specific reason and popup win over SOCKET.
   */
  whileEnding<T>(task: () => Promise<T>): Promise<T>
  /** Loads the heartbeat: user data and server-side settings; the session status becomes 'punter'. */
  loadUser(): Promise<Result<UserData>>
  /** Page load: brings the stored session back (refresh first if expired, timer, heartbeat, locale). */
  restore(): Promise<void>
  /** The gateway's unauthorised hook: 'retry' when the request only carried a stale token. */
  handleUnauthorized(code: string, sent: SentCredentials, path?: string): Promise<'retry' | undefined>
  stop(): void
}

const SESSION_KEYS = ['accessToken', 'refreshToken', 'creationTime', 'loginTimeout', 'expireTokenTime', 'rememberMe', 'isLoginByAuthToken'] as const

/** The session fields of a stored session, missing ones at their empty value. */
function sessionFieldsOf(stored: StoredSession): SessionFields {
  return {
    accessToken: stored.accessToken ?? null,
    refreshToken: stored.refreshToken ?? null,
    creationTime: stored.creationTime ?? null,
    loginTimeout: stored.loginTimeout ?? null,
    expireTokenTime: stored.expireTokenTime ?? null,
    rememberMe: stored.rememberMe ?? false,
    isLoginByAuthToken: stored.isLoginByAuthToken ?? false,
  }
}

/** A tab on its own: the lock is within the page, storage is the store itself, nobody to tell. */
function singleTab(stores: EngineStores): SessionTabs {
  return {
    withLock: inPageLock(),
    post: () => undefined,
    subscribe: () => () => undefined,
    read() {
      const state = stores.session.getState()
      if (!state.accessToken && !state.refreshToken) return null
      return { ...Object.fromEntries(SESSION_KEYS.map((k) => [k, state[k]])), sessionHash: state.sessionHash }
    },
  }
}

export function createAuthController(deps: AuthDeps): AuthController {
  const { stores, gateway } = deps
  const services = sessionServicesOf(stores)
  const tabs = deps.tabs ?? services.tabs ?? singleTab(stores)
  const restoreLocale = deps.restoreLocale ?? services.restoreLocale
  const loginLocale = deps.loginLocale ?? services.loginLocale
  const takePendingAfterLogin = deps.takePendingAfterLogin ?? services.takePendingAfterLogin
  const schedule = deps.setTimeout ?? ((fn: () => void, ms: number) => globalThis.setTimeout(fn, ms))
  const cancel = deps.clearTimeout ?? ((h: unknown) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>))
  let timer: unknown = null
  let restoreTimer: unknown = null
  let refreshing: Promise<Result<LoginResult>> | null = null
  let restoring: Promise<void> | null = null
  let ending: Promise<void> | null = null
  /** Why the logout in flight ends the session (a more specific reason arriving meanwhile replaces SOCKET). */
  let endingAs: { reason: LogoutReason; options: { popup?: string } } = { reason: 'SEFT_LOGOUT', options: {} }
  /** Calls in flight that end the session with their own reason (see whileEnding). */
  const enders = new Set<Promise<unknown>>()

  const session = () => stores.session.getState()
  const holdsSession = () => Boolean(session().accessToken || session().refreshToken)
  /** Anything of a session left to end (tokens, or a hash alone). */
  const anySession = () => holdsSession() || Boolean(session().sessionHash)
  const offsetToExpire = () => {
    const value = stores.site.getState().bootstrap?.remoteConfig?.OFFSET_TO_EXPIRE_TOKEN
    return typeof value === 'number' ? value : 0
  }
  const expired = () => {
    const { expireTokenTime } = session()
    return expireTokenTime !== null && expireTokenTime <= deps.now()
  }

  function stopTimers() {
    if (timer !== null) cancel(timer)
    if (restoreTimer !== null) cancel(restoreTimer)
    timer = restoreTimer = null
  }

  /** Arms the refresh at the token's expiry, or `delayMs` from now (retry after a failure). */
  function startTimer(delayMs?: number) {
    if (timer !== null) cancel(timer)
    timer = null
    const { expireTokenTime, refreshToken } = session()
    if (!refreshToken || (delayMs === undefined && !expireTokenTime)) return
    timer = schedule(() => {
      timer = null
      void controller.updateTokens()
    }, delayMs ?? Math.max(0, expireTokenTime! - deps.now()))
  }

  // the session hash and the other headers come from the gateway; an unauthorised answer to the
  // logout itself is not handed back to this controller
  const postText =
    deps.postText ??
    (async (path: string, text: string) => {
      await gateway.call('POST', path, text, { contentType: 'text/plain', retryUnauthorized: false })
    })

  /** Takes over the session another tab stored: same session → new tokens only; another one → a
   * new punter here too (status 'restoring' until its heartbeat is in). */
  function adopt(stored: StoredSession) {
    const sameSession = holdsSession() && stored.sessionHash === session().sessionHash
    session().setSession(sessionFieldsOf(stored))
    session().setSessionHash(stored.sessionHash)
    startTimer()
    if (sameSession) return
    stores.user.getState().clearUser()
    session().setStatus('restoring')
    void controller.loadUser()
  }

  const differs = (stored: StoredSession) =>
    stored.accessToken !== session().accessToken || stored.refreshToken !== session().refreshToken || stored.sessionHash !== session().sessionHash

  /** Brings this tab in line with the shared storage. `reason`: why the other tab logged out. */
  function syncWithTabs(reason: string | null) {
    const stored = tabs.read()
    if (!stored) {
      if (holdsSession()) void endLocally(isLogoutReason(reason) ? reason : null)
      return
    }
    if (differs(stored)) adopt(stored)
    else if (expired()) void controller.updateTokens()
  }

  function onMessage(message: SessionMessage) {
    syncWithTabs(message.kind === 'logout' ? message.reason : null)
  }
  const unsubscribe = tabs.subscribe(onMessage)

  /** The local half of logout (spec §4): clears everything, closes popups, redirects, popups by reason.
   * Once per session: a session already ended (by the other path, another tab) is not ended again. */
  async function endLocally(reason: LogoutReason | null, options: { popup?: string } = {}) {
    if (!anySession()) return
    const stateBefore = stores.user.getState().data?.punterInfo?.state ?? ''
    stopTimers()
    const ui = stores.ui.getState()
    session().clearSession()
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
    else if (BLOCKED_STATES.includes(stateBefore)) ui.openPopup({ id: 'logged-out-blocked-user' })
  }

  /** One refresh call, inside the lock. Another tab's rotation (or logout) is adopted instead. */
  async function refreshInLock(intended: string): Promise<Result<LoginResult> | 'ended'> {
    const stored = tabs.read()
    if (!stored) return 'ended'
    if (stored.refreshToken !== intended) {
      adopt(stored)
      return { ok: true, value: currentTokens() }
    }
    const result = await gateway.call<LoginResult>('POST', `${MOBILE_GATE}${REFRESH_PATH}`, { token: intended })
    if (result.ok) controller.applyTokens(result.value)
    return result
  }

  function currentTokens(): LoginResult {
    const s = session()
    return { status: 'OK', accessToken: s.accessToken ?? '', refreshToken: s.refreshToken ?? '', creationTime: s.creationTime ?? 0, loginTimeout: s.loginTimeout ?? 0 }
  }

  /** The heartbeat's user data and server-side settings into the stores; the punter is in. */
  function applyUser(user: UserData) {
    stores.user.getState().setUser(user)
    stores.settings.getState().setServerSettings(serverSettingsFrom(user) as Partial<ServerSettings>)
    if (holdsSession()) session().setStatus('punter')
  }

  /** Retries the restore later (network down, server error): the session is kept, still 'restoring'. */
  function retryRestore() {
    if (restoreTimer !== null) cancel(restoreTimer)
    restoreTimer = schedule(() => {
      restoreTimer = null
      void controller.restore()
    }, SESSION_RETRY_MS)
  }

  async function restoreOnce() {
    if (!holdsSession()) return session().setStatus('guest')
    if (session().status !== 'punter') session().setStatus('restoring')
    const update = await controller.updateTokens()
    if (update.outcome === 'ERROR_RT_UPDATE') return update.transient && holdsSession() ? retryRestore() : undefined
    if (update.outcome === 'AT_NOT_FOUND' || update.outcome === 'RT_NOT_AVAILABLE') return
    const user = await gateway.call<UserData>('GET', `${MOBILE_GATE}/heartbeat`)
    if (!holdsSession()) return
    if (!user.ok) return isTransientFailure(user.code) ? retryRestore() : undefined
    const locale = serverSettingsFrom(user.value).locale
    // the page reloads in the punter's language: stay 'restoring' until then
    if (locale && restoreLocale?.(locale)) return
    applyUser(user.value)
    // a login that reloaded the page for the punter's language left its after-login rules to us
    if (takePendingAfterLogin?.()) await deps.afterLogin?.()
  }

  /** The punter's saved locale after a login: true when the page reloads for it (spec §2: a
   * locale change reloads the page with the code in the path, as on the language page). */
  function followLocaleAtLogin(user: UserData): boolean {
    const locale = serverSettingsFrom(user).locale
    const site = stores.site.getState()
    if (!locale || locale === site.locale || !site.bootstrap?.site.locales.includes(locale)) return false
    if (loginLocale) return loginLocale(locale)
    site.setLocale(locale)
    return false
  }

  /**
   * What the session does after a token update (spec §4 "Token refresh", "Logout"). The refresh
   * itself already logged a refused token out (RT_EXPIRED) and re-armed a transient failure.
   */
  async function followTokenUpdate(update: TokenUpdate) {
    switch (update.outcome) {
      case 'CURRENT_AT_ACTIVE':
        // a timer that fired a moment early, or a page load with a good token: refresh at the expiry
        if (timer === null) startTimer()
        return
      case 'RT_NOT_AVAILABLE':
        // an expired access token with nothing to renew it: the session is over
        return controller.logout('AT_EXPIRED')
      case 'AT_NOT_FOUND':
        // a refresh token (or a hash) left without its access token: end it, on the server too
        return anySession() ? controller.logout('AT_EXPIRED') : undefined
      default:
        return
    }
  }

  const controller: AuthController = {
    async login(input) {
      const country = stores.site.getState().bootstrap?.site.country
      const raw = input.phoneNumber ?? input.login ?? ''
      // the phone metadata (libphonenumber, ~25 KB brotli) loads at the login, not with the sign-up form (issue 10)
      const byPhone = input.phoneNumber !== undefined || (await isPhoneLogin(raw, country))
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
      const reloading = user.ok && followLocaleAtLogin(user.value)
      deps.onEvent?.('login', { loginByAuthType: result.value.loginByAuthType })
      if (user.ok && !reloading) await deps.afterLogin?.()
      return result
    },

    applyTokens(result, receivedAt = deps.now()) {
      const newSession = !holdsSession() || (result.punterHash !== undefined && result.punterHash !== session().sessionHash)
      const clockOffset = receivedAt - result.creationTime
      session().setSession({
        accessToken: result.accessToken,
        refreshToken: result.refreshToken,
        creationTime: result.creationTime,
        loginTimeout: result.loginTimeout,
        expireTokenTime: tokenExpiryTime(result.creationTime, result.loginTimeout, clockOffset, offsetToExpire()),
        ...(result.rememberMe !== undefined ? { rememberMe: result.rememberMe } : {}),
        isLoginByAuthToken: false,
      })
      if (result.punterHash) session().setSessionHash(result.punterHash)
      if (newSession) session().setStatus('restoring')
      startTimer()
      tabs.post({ kind: 'session' })
    },

    refresh() {
      // One refresh at a time in this tab (a second caller shares the first), and across tabs
      // under the lock: two calls with one token would be a reuse and revoke the family.
      refreshing ??= (async (): Promise<Result<LoginResult>> => {
        const intended = session().refreshToken
        if (!intended) return { ok: false, code: 'EMPTY_TOKEN' }
        const result = await tabs.withLock(() => refreshInLock(intended))
        if (result === 'ended') {
          await endLocally(null)
          return { ok: false, code: 'UNAUTHORIZED' }
        }
        if (result.ok) return result
        if (result.code === 'INVALID_REFRESH_TOKEN' || result.code === 'UNAUTHORIZED') await controller.logout('RT_EXPIRED')
        else if (isTransientFailure(result.code) && holdsSession()) startTimer(SESSION_RETRY_MS)
        return result
      })().finally(() => {
        refreshing = null
      })
      return refreshing
    },

    async updateTokens() {
      const update = await updateTokens(session(), deps.now(), () => controller.refresh())
      await followTokenUpdate(update)
      return update
    },

    async logout(reason, options = {}) {
      // The socket's accountLogout is the generic word of a server change whose own answer (a
      // refused refresh, a self-exclusion) is on its way: that answer's reason wins.
      if (reason === 'SOCKET' && !ending && (refreshing || enders.size > 0)) {
        await Promise.allSettled([refreshing, ...enders])
      }
      if (ending) {
        // Concurrent logouts (several 401s, the HTTP answer and the socket frame) end the session
        // once; a specific reason arriving before the end replaces the generic SOCKET.
        if (endingAs.reason === 'SOCKET' && reason !== 'SOCKET') endingAs = { reason, options }
        return ending
      }
      // already ended (here by the other path, in another tab, or never logged in): nothing to end twice
      if (!anySession()) return
      endingAs = { reason, options }
      ending = (async () => {
        const { refreshToken, sessionHash } = session()
        stopTimers()
        // The server call first (errors ignored): by refresh token if there is one, else plain.
        try {
          if (refreshToken) await postText(`${MOBILE_GATE}/auth/token/logout`, refreshToken)
          else if (sessionHash) await gateway.call('POST', `${MOBILE_GATE}/auth/logout`)
        } catch {
          // ignored (spec §4)
        }
        const { reason: why, options: how } = endingAs
        if (!anySession()) return // another tab's logout ended it meanwhile, with its own reason
        await endLocally(why, how)
        tabs.post({ kind: 'logout', reason: why })
      })().finally(() => {
        ending = null
      })
      return ending
    },

    async whileEnding(task) {
      const running = task()
      enders.add(running)
      try {
        return await running
      } finally {
        enders.delete(running)
      }
    },

    async loadUser() {
      const result = await gateway.call<UserData>('GET', `${MOBILE_GATE}/heartbeat`)
      if (result.ok) applyUser(result.value)
      return result
    },

    restore() {
      restoring ??= restoreOnce().finally(() => {
        restoring = null
      })
      return restoring
    },

    async handleUnauthorized(code, sent, path = '') {
      // A refused refresh is the refresh's own outcome (RT_EXPIRED); a guest call changes nothing.
      if (code === 'INVALID_REFRESH_TOKEN' || path.endsWith(REFRESH_PATH) || (!sent.accessToken && !sent.sessionHash) || !holdsSession() || ending) return undefined
      if (refreshing) await refreshing
      const verdict = await tabs.withLock(async () => {
        const stored = tabs.read()
        if (!stored) return 'ended' as const
        if (differs(stored)) adopt(stored)
        if (session().accessToken !== sent.accessToken || session().sessionHash !== sent.sessionHash) return 'retry' as const
        // our timer was late (a sleeping device): the refresh token may still be good
        return expired() && session().refreshToken ? ('refresh' as const) : ('dead' as const)
      })
      if (verdict === 'retry') return holdsSession() ? 'retry' : undefined
      if (verdict === 'ended') return void (holdsSession() && (await endLocally(null)))
      if (verdict === 'refresh') return (await controller.updateTokens()).outcome === 'UPDATED_TOKENS' ? 'retry' : undefined
      await controller.logout('AT_EXPIRED')
      return undefined
    },

    stop() {
      stopTimers()
      unsubscribe()
    },
  }
  return controller
}

const isLogoutReason = (value: string | null): value is LogoutReason => value !== null && (LOGOUT_REASONS as readonly string[]).includes(value)
