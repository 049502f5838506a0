/**
 * The punter session on the client (spec §3 "Session", §4 "Login flow", "Logout", "Token
 * refresh"). Framework-free: the stores, the gateway, the clock and the timers are injected.
 *
 * - Login picks the call by classification (phones go to the phone-number call), answers a
 *   CAPTCHA_REQUIRED / INVALID_CAPTCHA with one proof-of-work solve and a retry, stores the tokens
 *   and the session hash, loads the heartbeat, applies the server-side settings and runs the
 *   after-login rules (./session-login).
 * - A refresh timer fires at creationTime + loginTimeout + clock offset (+ OFFSET_TO_EXPIRE_TOKEN
 *   from remote config, negative = earlier); INVALID_REFRESH_TOKEN logs out (refresh-token expired).
 * - Every token update (timer, page load, another tab, a late 401) has one of the spec's five
 *   outcomes (kernel/auth/token-update.ts), and what the session does next follows the outcome
 *   (./session-refresh).
 * - Logout has the four reasons of spec §3 and all their effects (./session-logout).
 * - On page load `restore` brings a stored session back: refresh first when the access token has
 *   expired, re-arm the timer, load the heartbeat, restore the locale and settings
 *   (`session.status`: 'restoring' until then, so nothing shows an empty punter) (./session-restore).
 * - An unauthorised answer (HTTP 401, INVALID_SESSION_HASH) ends the session once, with reason
 *   AT_EXPIRED and the session-expired popup — unless the request only carried a token since
 *   replaced (refreshed here or in another tab): then it is sent again (./session-unauthorized).
 * - Tabs share one session (see ./session-tabs): refreshes take a cross-tab lock and re-read the
 *   shared storage first; logins, refreshes and logouts reach the other tabs at once (./session-tab-sync).
 *
 * This file assembles the controller from those parts, which share one core (./session-core).
 */
import type { LogoutReason } from '../../kernel/core/action-choices'
import { isTransientFailure, type TokenUpdate } from '../../kernel/auth/token-update'
import type { AuthController, AuthDeps } from './session-contract'
import { createSessionCore, stopTimers } from './session-core'
import { loginMethods } from './session-login'
import { logoutMethods } from './session-logout'
import { refreshMethods } from './session-refresh'
import { restoreMethods } from './session-restore'
import { syncWithTabs } from './session-tab-sync'
import { unauthorizedMethods } from './session-unauthorized'

export { provideSessionServices, type SessionServices } from './session-tabs'
export type { LogoutReason }
export { isTransientFailure, type TokenUpdate }
export { MOBILE_GATE, SESSION_RETRY_MS, type AuthController, type AuthDeps, type LoginInput, type LoginResult } from './session-contract'
export { BLOCKED_STATES } from './session-logout'
export { tokenExpiryTime } from './session-login'

export function createAuthController(deps: AuthDeps): AuthController {
  const core = createSessionCore(deps)
  const unsubscribe = core.tabs.subscribe((message) => syncWithTabs(core, message.kind === 'logout' ? message.reason : null))
  const controller: AuthController = {
    ...loginMethods(core),
    ...refreshMethods(core),
    ...logoutMethods(core),
    ...restoreMethods(core),
    ...unauthorizedMethods(core),
    stop() {
      stopTimers(core)
      unsubscribe()
    },
  }
  core.controller = controller
  return controller
}
