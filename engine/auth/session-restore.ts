/**
 * The heartbeat and the page load (spec §3 "Session"): `loadUser` puts the punter's data and
 * server-side settings in the stores; `restore` brings a stored session back after a page load
 * (refresh first when the access token has expired, the timer, the heartbeat, the punter's locale),
 * retrying later when the network or the server failed.
 */
import { isTransientFailure } from '../../kernel/auth/token-update'
import type { ServerSettings, UserData } from '../core/stores'
import { MOBILE_GATE, SESSION_RETRY_MS, type AuthController } from './session-contract'
import type { SessionCore } from './session-core'
import { serverSettingsFrom } from './settings'

/** The heartbeat's user data and server-side settings into the stores; the punter is in. */
function applyUser(core: SessionCore, user: UserData): void {
  core.stores.user.getState().setUser(user)
  core.stores.settings.getState().setServerSettings(serverSettingsFrom(user) as Partial<ServerSettings>)
  if (core.holdsSession()) core.session().setStatus('punter')
}

/** Retries the restore later (network down, server error): the session is kept, still 'restoring'. */
function retryRestore(core: SessionCore): void {
  if (core.restoreTimer !== null) core.cancel(core.restoreTimer)
  core.restoreTimer = core.schedule(() => {
    core.restoreTimer = null
    void core.controller.restore()
  }, SESSION_RETRY_MS)
}

async function restoreOnce(core: SessionCore): Promise<void> {
  const { session } = core
  if (!core.holdsSession()) return session().setStatus('guest')
  if (session().status !== 'punter') session().setStatus('restoring')
  const update = await core.controller.updateTokens()
  if (update.outcome === 'ERROR_RT_UPDATE') return update.transient && core.holdsSession() ? retryRestore(core) : undefined
  if (update.outcome === 'AT_NOT_FOUND' || update.outcome === 'RT_NOT_AVAILABLE') return
  const user = await core.deps.gateway.call<UserData>('GET', `${MOBILE_GATE}/heartbeat`)
  if (!core.holdsSession()) return
  if (!user.ok) return isTransientFailure(user.code) ? retryRestore(core) : undefined
  const locale = serverSettingsFrom(user.value).locale
  // the page reloads in the punter's language: stay 'restoring' until then
  if (locale && core.restoreLocale?.(locale)) return
  applyUser(core, user.value)
  // a login that reloaded the page for the punter's language left its after-login rules to us
  if (core.takePendingAfterLogin?.()) await core.deps.afterLogin?.()
}

/** The controller's `loadUser` and `restore`. */
export function restoreMethods(core: SessionCore): Pick<AuthController, 'loadUser' | 'restore'> {
  return {
    async loadUser() {
      const result = await core.deps.gateway.call<UserData>('GET', `${MOBILE_GATE}/heartbeat`)
      if (result.ok) applyUser(core, result.value)
      return result
    },

    restore() {
      core.restoring ??= restoreOnce(core).finally(() => {
        core.restoring = null
      })
      return core.restoring
    },
  }
}
