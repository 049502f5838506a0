/**
 * Logout (spec §3 "Logout", §4): the four reasons and their effects, once per session. `logout`
 * ends the session on the server and then here, and tells the other tabs; `endLocally` is the local
 * half alone (another tab already ended it, or the server refused the session). Which page and
 * popups follow a logout are rules of their own (`goesHomeAtLogout`, `logoutPopups`).
 */
import type { LogoutReason } from '../../kernel/core/action-choices'
import { ACCOUNT_STATUSES } from '../../kernel/punters/account-statuses'
import type { Popup } from '../core/stores'
import type { AuthController } from './session-contract'
import { MOBILE_GATE } from './session-contract'
import { stopTimers, type SessionCore } from './session-core'

/** States whose punters lose access (no login in kernel/punters/account-statuses.ts; the
 * exclusions and an unfinished registration are refused at login instead): logout shows "no access
 * any more" (account-closed for CLOSED). */
export const BLOCKED_STATES: readonly string[] = ACCOUNT_STATUSES.filter((s) => !s.may.login && s.group !== 'self-exclusion' && s.group !== 'registration').map((s) => s.state)

/** A logout leaves for the home page when the socket ended the session, or when it happens on an account page. */
export function goesHomeAtLogout(reason: LogoutReason | null, path: string): boolean {
  return reason === 'SOCKET' || /^\/account(\/|$)/.test(path)
}

type LogoutPopup = Pick<Popup, 'id'> & Partial<Pick<Popup, 'isCloseable'>>

/**
 * The popups a logout opens, in order: session-expired for an expiry or the socket; then the
 * popup the caller asked for (not closeable), else account-closed for a CLOSED account, else
 * logged-out-blocked-user for a state that loses access (`stateBefore`: the punter's state before).
 */
export function logoutPopups(reason: LogoutReason | null, stateBefore: string, popup?: string): LogoutPopup[] {
  const popups: LogoutPopup[] = []
  if (reason === 'AT_EXPIRED' || reason === 'RT_EXPIRED' || reason === 'SOCKET') popups.push({ id: 'session-expired' })
  if (popup) popups.push({ id: popup, isCloseable: false })
  else if (stateBefore === 'CLOSED') popups.push({ id: 'account-closed' })
  else if (BLOCKED_STATES.includes(stateBefore)) popups.push({ id: 'logged-out-blocked-user' })
  return popups
}

/** While a logout is in flight, a later one with a specific reason replaces the generic SOCKET. */
export const replacesEndingReason = (current: LogoutReason, incoming: LogoutReason): boolean => current === 'SOCKET' && incoming !== 'SOCKET'

/** The local half of logout (spec §4): clears everything, closes popups, redirects, popups by reason.
 * Once per session: a session already ended (by the other path, another tab) is not ended again. */
export async function endLocally(core: SessionCore, reason: LogoutReason | null, options: { popup?: string } = {}): Promise<void> {
  const { stores, deps } = core
  if (!core.anySession()) return
  const stateBefore = stores.user.getState().data?.punterInfo?.state ?? ''
  stopTimers(core)
  const ui = stores.ui.getState()
  core.session().clearSession()
  ui.closeAllPopups()
  ui.closeProfile()
  stores.user.getState().clearUser()
  stores.settings.getState().resetSettings()
  deps.onEvent?.('logout', { reason })
  if (goesHomeAtLogout(reason, stores.route.getState().path)) deps.navigate?.('/')
  for (const popup of logoutPopups(reason, stateBefore, options.popup)) ui.openPopup(popup)
}

/** The server call first (errors ignored), then the local half with the reason that won, then the other tabs. */
async function endEverywhere(core: SessionCore): Promise<void> {
  const { refreshToken, sessionHash } = core.session()
  stopTimers(core)
  // by refresh token if there is one, else plain
  try {
    if (refreshToken) await core.postText(`${MOBILE_GATE}/auth/token/logout`, refreshToken)
    else if (sessionHash) await core.deps.gateway.call('POST', `${MOBILE_GATE}/auth/logout`)
  } catch {
    // ignored (spec §4)
  }
  const { reason: why, options: how } = core.endingAs
  if (!core.anySession()) return // another tab's logout ended it meanwhile, with its own reason
  await endLocally(core, why, how)
  core.tabs.post({ kind: 'logout', reason: why })
}

/** The controller's `logout` and `whileEnding`. */
export function logoutMethods(core: SessionCore): Pick<AuthController, 'logout' | 'whileEnding'> {
  return {
    async logout(reason, options = {}) {
      // The socket's accountLogout is the generic word of a server change whose own answer (a
      // refused refresh, a self-exclusion) is on its way: that answer's reason wins.
      if (reason === 'SOCKET' && !core.ending && (core.refreshing || core.enders.size > 0)) {
        await Promise.allSettled([core.refreshing, ...core.enders])
      }
      if (core.ending) {
        // Concurrent logouts (several 401s, the HTTP answer and the socket frame) end the session once.
        if (replacesEndingReason(core.endingAs.reason, reason)) core.endingAs = { reason, options }
        return core.ending
      }
      // already ended (here by the other path, in another tab, or never logged in): nothing to end twice
      if (!core.anySession()) return
      core.endingAs = { reason, options }
      core.ending = endEverywhere(core).finally(() => {
        core.ending = null
      })
      return core.ending
    },

    async whileEnding(task) {
      const running = task()
      core.enders.add(running)
      try {
        return await running
      } finally {
        core.enders.delete(running)
      }
    },
  }
}
