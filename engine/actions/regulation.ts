/**
 * Responsible-gambling actions (issue 13): self-exclusion (after the confirmation popup), the
 * reality-check interval and its reminder's "continue" and "stop", confirming a regulation alert
 * and Spain's session. Each starts the page's regulation monitor (engine/regulation/monitor.ts,
 * through ./regulation-monitor.ts) through the auth controller, which starts it once per page.
 */
import type { SELF_EXCLUSION_KINDS } from '../../kernel/core/action-choices'
import type { Result } from '../../kernel/core/contracts'
import { MOBILE_GATE, GAME_GATES } from '../regulation/monitor'
import { authController } from './auth'
import { type ActionEnvironment, implementAction } from './registry'
import { definitions } from '../../kernel/actions/regulation'

export { ensureRegulationMonitor } from './regulation-monitor'

const action = implementAction

function failed<T>(env: ActionEnvironment, result: Result<T>): Result<T> {
  if (!result.ok) {
    // spec §8: self-exclusion failures show the code's text or 'common.request.error'
    const key = env.i18n.has(`server.error.${result.code}`) ? `server.error.${result.code}` : 'common.request.error'
    env.stores.ui.getState().notify({ id: key, status: 'error' })
  }
  return result
}

type SelfExcludeParams = { kind: (typeof SELF_EXCLUSION_KINDS)[number]; period?: string; daysCount?: number }

export const regulationSelfExclude = action<SelfExcludeParams>(definitions, {
  name: 'regulation.selfExclude',
  async handler({ kind, period, daysCount }, env) {
    const body = kind === 'temporary' ? { period } : kind === 'timeout' ? { daysCount } : {}
    const auth = authController(env)
    // the socket's accountLogout for the same exclusion waits for this: its popup wins (docs/adr/0067-one-logout-per-session.md)
    const result = await auth.whileEnding(async () => {
      const answer = await env.gateway.call<{ selfExcludeSettings: { endDate: string | null; permanent: boolean; selfExcludedByRegulator: boolean } }>('POST', `${MOBILE_GATE}/self-exclude/${kind}`, body)
      if (!answer.ok) return answer
      // leave the account page first: its login guard would otherwise ask the excluded punter to log in
      env.navigate('/')
      await auth.logout('SEFT_LOGOUT')
      return answer
    })
    if (!result.ok) return failed(env, result)
    const settings = result.value.selfExcludeSettings
    env.stores.ui.getState().closePopup('login')
    env.stores.ui.getState().openPopup({ id: 'self-exclude', params: { endDate: settings.endDate ?? '', permanent: settings.permanent, byRegulator: false } })
    return result
  },
})

export const realityCheckSaveSettings = action<{ timeout: number }>(definitions, {
  name: 'realityCheck.saveSettings',
  async handler({ timeout }, env) {
    const result = await env.gateway.call('POST', `${GAME_GATES.casino}/realitycheck/punter/settings`, { timeout })
    if (!result.ok) return failed(env, result)
    env.stores.ui.getState().closePopup('reality-check-required')
    env.stores.ui.getState().notify({ id: 'rg.realityCheck.saved', status: 'success', values: { count: timeout } })
    await authController(env).loadUser()
    return result
  },
})

const clearReality = (env: ActionEnvironment) => env.gateway.call('POST', `${GAME_GATES.casino}/realitycheck/clear`, {})

export const realityCheckContinue = action<Record<string, never>>(definitions, {
  name: 'realityCheck.continue',
  async handler(_params, env) {
    const result = await clearReality(env)
    if (result.ok) env.stores.ui.getState().closePopup('reality-check-session')
    return result.ok ? result : failed(env, result)
  },
})

export const realityCheckStop = action<Record<string, never>>(definitions, {
  name: 'realityCheck.stop',
  async handler(_params, env) {
    await clearReality(env)
    env.stores.ui.getState().closePopup('reality-check-session')
    await authController(env).logout('SEFT_LOGOUT')
    env.navigate('/')
    return { ok: true, value: null }
  },
})

export const regulationConfirmAlert = action<Record<string, never>>(definitions, {
  name: 'regulation.confirmAlert',
  async handler(_params, env) {
    const result = await env.gateway.call('POST', `${MOBILE_GATE}/regulation/punter/alerts/notification/confirm`, {})
    if (result.ok) env.stores.ui.getState().closePopup('regulation-alert')
    return result.ok ? result : failed(env, result)
  },
})

export const regulationConfirmSession = action<Record<string, never>>(definitions, {
  name: 'regulation.confirmSession',
  async handler(_params, env) {
    const result = await env.gateway.call('POST', `${MOBILE_GATE}/regulation/punter/session/confirm`, {})
    env.stores.ui.getState().closePopup('spain-session-reminder')
    return result.ok ? result : failed(env, result)
  },
})

export const regulationActions = [regulationSelfExclude, realityCheckSaveSettings, realityCheckContinue, realityCheckStop, regulationConfirmAlert, regulationConfirmSession]

