/**
 * What the punter session on the client is (spec §3 "Session", §4): its calls' answers and inputs,
 * the controller's surface, what it is given (AuthDeps) and its constants. A file of its own so the
 * parts of the controller (./session-*.ts) and its assembly (./session.ts) share them without an
 * import circle; callers import them from ./session.
 */
import type { LogoutReason } from '../../kernel/core/action-choices'
import type { Result } from '../../kernel/core/contracts'
import type { TokenUpdate } from '../../kernel/auth/token-update'
import type { Gateway, SentCredentials } from '../core/gateway'
import type { EngineStores, UserData } from '../core/stores'
import type { SessionTabs } from './session-tabs'
import type { LoginBody } from '../../kernel/auth/login-classification'

export const MOBILE_GATE = '/mobile-gate/api/v1'
export const REFRESH_PATH = '/auth/v2/token/refresh'

/** Retry delay after a refresh or a restore failed for a transient reason (network, 5xx). */
export const SESSION_RETRY_MS = 10_000

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

/** What a login form hands the controller: the login call's body. */
export type LoginInput = LoginBody

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
