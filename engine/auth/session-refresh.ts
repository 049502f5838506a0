/**
 * Token refresh (spec §3 "Token update", §4 "Token refresh"): one rotation at a time in this tab
 * and across tabs (two calls with one refresh token would be a reuse, which revokes the family),
 * and what the session does after each of the five outcomes of a token update.
 */
import type { Result } from '../../kernel/core/contracts'
import { isTransientFailure, updateTokens, type TokenUpdate } from '../../kernel/auth/token-update'
import { MOBILE_GATE, REFRESH_PATH, SESSION_RETRY_MS, type AuthController, type LoginResult } from './session-contract'
import { currentTokens, startTimer, type SessionCore } from './session-core'
import { endLocally } from './session-logout'
import { adopt } from './session-tab-sync'

/** One refresh call, inside the lock. Another tab's rotation (or logout) is adopted instead. */
async function refreshInLock(core: SessionCore, intended: string): Promise<Result<LoginResult> | 'ended'> {
  const stored = core.tabs.read()
  if (!stored) return 'ended'
  if (stored.refreshToken !== intended) {
    adopt(core, stored)
    return { ok: true, value: currentTokens(core) }
  }
  const result = await core.deps.gateway.call<LoginResult>('POST', `${MOBILE_GATE}${REFRESH_PATH}`, { token: intended })
  if (result.ok) core.controller.applyTokens(result.value)
  return result
}

/** The refresh and what its answer means: refused → logout RT_EXPIRED; transient → retried later. */
async function refreshOnce(core: SessionCore): Promise<Result<LoginResult>> {
  const intended = core.session().refreshToken
  if (!intended) return { ok: false, code: 'EMPTY_TOKEN' }
  const result = await core.tabs.withLock(() => refreshInLock(core, intended))
  if (result === 'ended') {
    await endLocally(core, null)
    return { ok: false, code: 'UNAUTHORIZED' }
  }
  if (result.ok) return result
  if (result.code === 'INVALID_REFRESH_TOKEN' || result.code === 'UNAUTHORIZED') await core.controller.logout('RT_EXPIRED')
  else if (isTransientFailure(result.code) && core.holdsSession()) startTimer(core, SESSION_RETRY_MS)
  return result
}

/**
 * What the session does after a token update (spec §4 "Token refresh", "Logout"): arm the refresh
 * timer (a current token, no timer armed), log out as expired (an expired token with nothing to
 * renew it; a session left without its access token), or nothing (the refresh itself already
 * logged a refused token out and re-armed a transient failure).
 */
export function afterTokenUpdate(outcome: TokenUpdate['outcome'], state: { timerArmed: boolean; anySession: boolean }): 'arm-timer' | 'logout' | 'nothing' {
  switch (outcome) {
    case 'CURRENT_AT_ACTIVE':
      // a timer that fired a moment early, or a page load with a good token: refresh at the expiry
      return state.timerArmed ? 'nothing' : 'arm-timer'
    case 'RT_NOT_AVAILABLE':
      // an expired access token with nothing to renew it: the session is over
      return 'logout'
    case 'AT_NOT_FOUND':
      // a refresh token (or a hash) left without its access token: end it, on the server too
      return state.anySession ? 'logout' : 'nothing'
    default:
      return 'nothing'
  }
}

/** The controller's `refresh` and `updateTokens`. */
export function refreshMethods(core: SessionCore): Pick<AuthController, 'refresh' | 'updateTokens'> {
  return {
    refresh() {
      // One refresh at a time in this tab (a second caller shares the first), and across tabs under the lock.
      core.refreshing ??= refreshOnce(core).finally(() => {
        core.refreshing = null
      })
      return core.refreshing
    },

    async updateTokens() {
      const update = await updateTokens(core.session(), core.deps.now(), () => core.controller.refresh())
      const next = afterTokenUpdate(update.outcome, { timerArmed: core.timer !== null, anySession: core.anySession() })
      if (next === 'arm-timer') startTimer(core)
      else if (next === 'logout') await core.controller.logout('AT_EXPIRED')
      return update
    },
  }
}
