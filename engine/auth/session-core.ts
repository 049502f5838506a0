/**
 * What the parts of the client session share (see ./session.ts): the stores and services it was
 * given, its few pieces of mutable state (the two timers, the refresh, restore and logout in
 * flight), small readers of the session store and the refresh timer. The parts are functions of
 * this core; they reach each other through `core.controller`, the assembled controller.
 */
import type { LogoutReason } from '../../kernel/core/action-choices'
import type { Result } from '../../kernel/core/contracts'
import type { EngineStores, SessionFields, SessionState, StoredSession } from '../core/stores'
import type { AuthController, AuthDeps, LoginResult } from './session-contract'
import { inPageLock, sessionServicesOf, type SessionTabs } from './session-tabs'

export interface SessionCore {
  readonly deps: AuthDeps
  readonly stores: EngineStores
  readonly tabs: SessionTabs
  readonly restoreLocale?: (serverLocale: string) => boolean
  readonly loginLocale?: (serverLocale: string) => boolean
  readonly takePendingAfterLogin?: () => boolean
  readonly schedule: (fn: () => void, ms: number) => unknown
  readonly cancel: (handle: unknown) => void
  /** Plain-text POST (the logout by refresh token). */
  readonly postText: (path: string, text: string) => Promise<void>
  /** The controller the parts make up, set once it is assembled: the parts call each other through it. */
  controller: AuthController
  /** The refresh timer, and the timer of a restore retried after a transient failure. */
  timer: unknown
  restoreTimer: unknown
  refreshing: Promise<Result<LoginResult>> | null
  restoring: Promise<void> | null
  ending: Promise<void> | null
  /** Why the logout in flight ends the session (a more specific reason arriving meanwhile replaces SOCKET). */
  endingAs: { reason: LogoutReason; options: { popup?: string } }
  /** Calls in flight that end the session with their own reason (see whileEnding). */
  readonly enders: Set<Promise<unknown>>
  session(): SessionState
  /** Tokens held (an access or a refresh token). */
  holdsSession(): boolean
  /** Anything of a session left to end (tokens, or a hash alone). */
  anySession(): boolean
  /** The access token's expiry has passed. */
  expired(): boolean
}

const SESSION_KEYS = ['accessToken', 'refreshToken', 'creationTime', 'loginTimeout', 'expireTokenTime', 'rememberMe', 'isLoginByAuthToken'] as const

/** The session fields of a stored session, missing ones at their empty value. */
export function sessionFieldsOf(stored: StoredSession): SessionFields {
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

/** The core of one controller: `deps` with its defaults (the page's session services, the global timers). */
export function createSessionCore(deps: AuthDeps): SessionCore {
  const { stores, gateway } = deps
  const services = sessionServicesOf(stores)
  const session = () => stores.session.getState()
  const holdsSession = () => Boolean(session().accessToken || session().refreshToken)
  return {
    deps,
    stores,
    tabs: deps.tabs ?? services.tabs ?? singleTab(stores),
    restoreLocale: deps.restoreLocale ?? services.restoreLocale,
    loginLocale: deps.loginLocale ?? services.loginLocale,
    takePendingAfterLogin: deps.takePendingAfterLogin ?? services.takePendingAfterLogin,
    schedule: deps.setTimeout ?? ((fn: () => void, ms: number) => globalThis.setTimeout(fn, ms)),
    cancel: deps.clearTimeout ?? ((h: unknown) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>)),
    // the session hash and the other headers come from the gateway; an unauthorised answer to the
    // logout itself is not handed back to this controller
    postText:
      deps.postText ??
      (async (path: string, text: string) => {
        await gateway.call('POST', path, text, { contentType: 'text/plain', retryUnauthorized: false })
      }),
    controller: undefined as unknown as AuthController,
    timer: null,
    restoreTimer: null,
    refreshing: null,
    restoring: null,
    ending: null,
    endingAs: { reason: 'SEFT_LOGOUT', options: {} },
    enders: new Set(),
    session,
    holdsSession,
    anySession: () => holdsSession() || Boolean(session().sessionHash),
    expired() {
      const { expireTokenTime } = session()
      return expireTokenTime !== null && expireTokenTime <= deps.now()
    },
  }
}

/** The remote config's OFFSET_TO_EXPIRE_TOKEN (ms, usually negative: refresh early); 0 when unset. */
export function offsetToExpire(stores: EngineStores): number {
  const value = stores.site.getState().bootstrap?.remoteConfig?.OFFSET_TO_EXPIRE_TOKEN
  return typeof value === 'number' ? value : 0
}

export function stopTimers(core: SessionCore): void {
  if (core.timer !== null) core.cancel(core.timer)
  if (core.restoreTimer !== null) core.cancel(core.restoreTimer)
  core.timer = core.restoreTimer = null
}

/** Arms the refresh at the token's expiry, or `delayMs` from now (retry after a failure). */
export function startTimer(core: SessionCore, delayMs?: number): void {
  if (core.timer !== null) core.cancel(core.timer)
  core.timer = null
  const { expireTokenTime, refreshToken } = core.session()
  if (!refreshToken || (delayMs === undefined && !expireTokenTime)) return
  core.timer = core.schedule(() => {
    core.timer = null
    void core.controller.updateTokens()
  }, delayMs ?? Math.max(0, expireTokenTime! - core.deps.now()))
}

/** The tokens the session holds, as a login answer (what a refresh adopted from another tab returns). */
export function currentTokens(core: SessionCore): LoginResult {
  const s = core.session()
  return { status: 'OK', accessToken: s.accessToken ?? '', refreshToken: s.refreshToken ?? '', creationTime: s.creationTime ?? 0, loginTimeout: s.loginTimeout ?? 0 }
}
