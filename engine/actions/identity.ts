/**
 * Identity and nickname actions (issue 13 items 4–5; spec §3 identity verification, §5 nickname,
 * §7 identity service and auto-verification, §8 identification errors and lock reasons). The
 * identity page, the ID confirmation page and the nickname page compose them; sign-up's Russian
 * re-check lives in ./join.ts.
 */
import type { Result } from '../../kernel/core/contracts'
import { NOTIFICATION_DURATION_MS } from '../core/stores'
import { authController } from './auth'
import { MOBILE_GATE } from './join'
import { SIMPLIFIED_PARAMS, simplifiedPath } from './join-identity'
import { joinLoadSettings } from './join-settings'
import { defineAction, type ActionEnvironment } from './registry'
import { definitions } from '../../kernel/actions/identity'

/** The passport form's fields the identification service takes (server/identity/index.ts). */
const IDENTITY_FIELDS = ['lastName', 'firstName', 'middleName', 'birthDay', 'passportSeries', 'passportNumber', 'passportIssueDate', 'inn', 'snils'] as const

interface CpsAnswer {
  baseResult: { status: string; errorCode: string | null }
  cupisOneInfo: { result: string; identified: boolean; clientStatus: string; error: string | null; lockReason: string | null }
  identificationLink: string | null
}

/** The display text of a failed identification: the error's, then the lock reason's (spec §8). */
export function identificationFailureText(env: Pick<ActionEnvironment, 'i18n'>, info: Pick<CpsAnswer['cupisOneInfo'], 'error' | 'lockReason'>): string {
  const parts = [info.error && `identification.error.${info.error}`, info.lockReason && `identification.lockReason.${info.lockReason}`]
    .filter((key): key is string => Boolean(key) && env.i18n.has(key as string))
    .map((key) => env.i18n.t(key))
  return parts.length > 0 ? parts.join(' ') : env.i18n.t('identity.failed.generic')
}

/** Keeps only the fields the service takes, without empty optional ones. */
function passportData(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(IDENTITY_FIELDS.filter((k) => typeof data[k] === 'string' && data[k] !== '').map((k) => [k, (data[k] as string).trim()]))
}

const failed = (env: ActionEnvironment, info: CpsAnswer['cupisOneInfo']): Result<unknown> => ({
  ok: false,
  code: 'IDENTIFICATION_FAILED',
  details: { reason: identificationFailureText(env, info), error: info.error ?? '', lockReason: info.lockReason ?? '' },
})

export const identityIdentify = defineAction(definitions, {
  name: 'identity.identify',
  async handler({ data, withVerification }, env): Promise<Result<unknown>> {
    const path = simplifiedPath(withVerification)
    let result = await env.gateway.call<CpsAnswer>('POST', path, passportData(data as Record<string, unknown>))
    if (!result.ok) return result
    const started = result.value.cupisOneInfo.result
    if (!result.value.baseResult.errorCode && (started === 'bind_in_progress' || started === 'data_requested'))
      result = await env.gateway.call<CpsAnswer>('POST', `${MOBILE_GATE}/punter/cps/one/identify-punter/continue`)
    if (!result.ok) return result
    await authController(env).loadUser()
    const info = result.value.cupisOneInfo
    return info.identified && !result.value.baseResult.errorCode ? { ok: true, value: info } : failed(env, info)
  },
})

export const identityEsia = defineAction(definitions, {
  name: 'identity.esia',
  async handler(_params, env): Promise<Result<unknown>> {
    const result = await env.gateway.call<CpsAnswer>('POST', `${MOBILE_GATE}/punter/cps/one/identify-punter/esia/full`)
    if (!result.ok) return result
    if (!result.value.identificationLink) return failed(env, result.value.cupisOneInfo)
    env.reload(result.value.identificationLink)
    return { ok: true, value: result.value.identificationLink }
  },
})

export const identityAutoVerify = defineAction(definitions, {
  name: 'identity.autoVerify',
  async handler(_params, env): Promise<Result<unknown>> {
    const result = await env.gateway.call<{ link: string | null; autoVerificationState: string }>('POST', `${MOBILE_GATE}/verification/start-punter-auto-verification`)
    if (!result.ok) return result
    if (result.value.link) env.reload(result.value.link)
    else env.stores.ui.getState().notify({ id: `idConfirmation.auto.${result.value.autoVerificationState}`, status: 'info', duration: NOTIFICATION_DURATION_MS })
    return { ok: true, value: result.value.autoVerificationState }
  },
})

export const nicknameSet = defineAction(definitions, {
  name: 'nickname.set',
  async handler({ nickname }, env): Promise<Result<unknown>> {
    const result = await env.gateway.call<{ nickname: string }>('PUT', `${MOBILE_GATE}/nickname`, { nickname: nickname.trim() })
    if (!result.ok) return result
    await authController(env).loadUser()
    return result
  },
})

export const nicknameCheck = defineAction(definitions, {
  name: 'nickname.check',
  async handler(_params, env): Promise<Result<unknown>> {
    const result = await env.gateway.call<boolean>('GET', `${MOBILE_GATE}/nickname/enabled`)
    if (!result.ok) return result
    env.stores.screenData.getState().setData('nicknameEnabled', result.value === true)
    return result
  },
})

export const identityLoadAgreement = defineAction(definitions, {
  name: 'identity.loadAgreement',
  async handler(_params, env): Promise<Result<unknown>> {
    const result = await env.gateway.call<Record<string, unknown>>('GET', `${MOBILE_GATE}/punter/cps/agreement-data`)
    if (result.ok) env.stores.screenData.getState().setData('agreement', result.value)
    return result
  },
})

export { joinLoadSettings }

export const identityActions = [joinLoadSettings, identityIdentify, identityEsia, identityAutoVerify, nicknameSet, nicknameCheck, identityLoadAgreement]

