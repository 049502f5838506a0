/**
 * Account actions: login, logout, refresh, legal agreement, settings, captcha. The behaviour lives
 * in `engine/auth/*`; these are the typed entry points documents call. One auth controller per
 * page (per stores), created on first use from the action environment.
 *
 * Failures show the server's message by code for 8 s (spec §8 display rules) unless the document
 * handles the code itself in `onError` — the chain still sees the code either way.
 */
import type { Result } from '../../kernel/core/contracts'
import { errorMessageKey } from '../core/gateway'
import { emitTelemetry } from '../core/telemetry'
import { NOTIFICATION_DURATION_MS, type EngineStores } from '../core/stores'
import type { JurisdictionDocument } from '../../kernel/documents/types'
import { runAfterLogin, rememberForUser, type AfterLoginRule } from '../auth/after-login'
import { fetchAndSolveCaptcha } from '../auth/captcha'
import { createAuthController, MOBILE_GATE, type AuthController, type LoginInput, type LogoutReason } from '../auth/session'
import { LOGOUT_REASONS } from '../../kernel/core/action-choices'
import { saveSettings } from '../auth/settings'
import { type ActionEnvironment, implementAction } from './registry'
import { definitions } from '../../kernel/actions/auth'
import { pageLocalStorage } from '../core/web-storage'
import { followLoginRedirect } from './nav'

/**
 * Params typed by hand rather than with defineAction's json-schema-to-ts derivation: with this
 * file's schemas the derivation hits TypeScript's instantiation depth limit (TS2589).
 */
const action = implementAction

const controllers = new WeakMap<EngineStores, AuthController>()

const browserStorage = pageLocalStorage

/** The page's auth controller (created once per set of stores). */
export function authController(env: ActionEnvironment): AuthController {
  let controller = controllers.get(env.stores)
  if (!controller) {
    const created: AuthController = createAuthController({
      stores: env.stores,
      gateway: env.gateway,
      now: () => env.now(),
      navigate: (path) => env.navigate(path),
      solveCaptcha: () => fetchAndSolveCaptcha(env.gateway),
      onEvent: (event, detail) => emitTelemetry(event === 'login' ? { type: 'login', ...(detail as { loginByAuthType?: string }) } : { type: 'logout', reason: (detail as { reason?: string | null } | undefined)?.reason ?? null }),
      afterLogin: async () => {
        const site = env.stores.site.getState().bootstrap?.site
        if (!site) return
        const doc = await env.documents.load<JurisdictionDocument>('jurisdiction', site.jurisdiction)
        const rules = doc.ok ? ((doc.value.document as { afterLogin?: AfterLoginRule[] }).afterLogin ?? []) : []
        await runAfterLogin(rules, {
          stores: env.stores,
          now: () => env.now(),
          storage: browserStorage(),
          checks: {
            nicknameEnabled: async () => {
              const enabled = await env.gateway.call<boolean>('GET', `${MOBILE_GATE}/nickname/enabled`)
              return enabled.ok && enabled.value === true
            },
          },
          logout: ({ popup }) => created.logout('SEFT_LOGOUT', { popup }),
        })
      },
    })
    controller = created
    controllers.set(env.stores, controller)
    // the responsible-gambling reminders run while a punter is logged in (engine/regulation)
    void import('./regulation').then(({ ensureRegulationMonitor }) => ensureRegulationMonitor(env))
  }
  return controller
}

function showFailure<T>(env: ActionEnvironment, result: Result<T>, notice: boolean | undefined): Result<T> {
  if (!result.ok && notice !== false) {
    const key = errorMessageKey(result.code, (k) => env.i18n.has(k))
    env.stores.ui.getState().notify({ id: key, status: 'error', duration: NOTIFICATION_DURATION_MS, values: (result.details ?? {}) as Record<string, unknown> })
  }
  return result
}

/**
 * A refused login of a self-excluded punter (spec §8: the self-exclude info passed through): the
 * self-exclude popup says until when, or that it is permanent or the regulator's, instead of a notice.
 */
function showSelfExclusion<T>(env: ActionEnvironment, result: Extract<Result<T>, { ok: false }>): Result<T> {
  const details = result.details as { selfExcludeSettings?: Record<string, unknown>; canOpen?: unknown; openToken?: unknown } | undefined
  const settings = (details?.selfExcludeSettings ?? {}) as Record<string, unknown>
  const ui = env.stores.ui.getState()
  ui.closePopup('login')
  ui.openPopup({
    id: 'self-exclude',
    params: {
      endDate: typeof settings.endDate === 'string' ? settings.endDate : '',
      permanent: settings.permanent === true,
      byRegulator: settings.selfExcludedByRegulator === true,
      refusedLogin: true,
      // the exclusion is over: the punter may reopen the account (auth.openProfile with this token)
      ...(details?.canOpen === true && typeof details.openToken === 'string' ? { canOpen: true, openToken: details.openToken } : {}),
    },
  })
  return { ...result, text: loginRefusalText(details?.canOpen === true, settings.endDate) }
}

/** What the login form says beside the popup: the login is refused because of the exclusion (until
 * when, if it ends), or, once it has ended, that the account must be opened again. */
function loginRefusalText(ended: boolean, endDate: unknown): { key: string; values?: Record<string, unknown> } {
  if (ended) return { key: 'auth.login.exclusionEnded' }
  return typeof endDate === 'string' && endDate !== '' ? { key: 'auth.login.selfExcludedUntil', values: { date: endDate } } : { key: 'auth.login.selfExcluded' }
}

const notice = { type: 'boolean', description: 'Show the failure notice (default true); false when the document handles every code.' } as const

export const authLogin = action<LoginInput & { notice?: boolean }>(definitions, {
  name: 'auth.login',
  async handler({ notice: show, ...input }, env) {
    const result = await authController(env).login(input)
    if (result.ok) {
      env.stores.ui.getState().closePopup('login')
      followLoginRedirect(env)
    }
    if (!result.ok && result.code === 'CUSTOMER_SELFEXCLUDED') return showSelfExclusion(env, result)
    return showFailure(env, result, show)
  },
})

export const authLogout = action<{ reason?: LogoutReason }>(definitions, {
  name: 'auth.logout',
  async handler({ reason }, env) {
    await authController(env).logout(reason ?? 'SEFT_LOGOUT')
    return { ok: true, value: null }
  },
})

export const authRefresh = action<Record<string, never>>(definitions, {
  name: 'auth.refresh',
  async handler(_params, env) {
    return authController(env).refresh()
  },
})

export const accountAcceptLegalAgreement = action<{ accepted: boolean; notice?: boolean }>(definitions, {
  name: 'account.acceptLegalAgreement',
  async handler({ accepted, notice: show }, env) {
    const result = await env.gateway.call('POST', `${MOBILE_GATE}/punter/legal-aggreement`, { accepted })
    if (result.ok) {
      if (!accepted) rememberForUser({ stores: env.stores, storage: browserStorage() }, 'legalAgreementDeclined', true)
      await authController(env).loadUser()
    }
    return showFailure(env, result, show)
  },
})

export const accountSaveSettings = action<{ settings: Record<string, unknown>; notice?: boolean }>(definitions, {
  name: 'account.saveSettings',
  async handler({ settings, notice: show }, env) {
    return showFailure(env, await saveSettings(env.stores, env.gateway, settings as Record<string, unknown>), show)
  },
})

export const captchaSolve = action<Record<string, never>>(definitions, {
  name: 'captcha.solve',
  async handler(_params, env) {
    return fetchAndSolveCaptcha(env.gateway)
  },
})

export const authActions = [authLogin, authLogout, authRefresh, accountAcceptLegalAgreement, accountSaveSettings, captchaSolve]

