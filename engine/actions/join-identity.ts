/**
 * The identity steps a sign-up document may chain (spec §9): Russia's identification check and
 * its re-check every 1500 ms after sign-up, the simplified identification, Denmark's MitID login.
 * Registered with the other sign-up actions by ./join.ts.
 */
import type { Result } from '../../kernel/core/contracts'
import { authController } from './auth'
import { logIn, type LoginAnswer } from './join-session'
import { defineAction } from './registry'
import { definitions } from '../../kernel/actions/join-identity'

export const MOBILE_GATE = '/mobile-gate/api/v1'
/** Russia: identification re-check interval (spec §9). */
export const IDENTIFICATION_RECHECK_MS = 1500

interface CpsInfo {
  cupisOneInfo: { identified: boolean; result: string }
  identificationLink: string | null
}

export const identityCheck = defineAction(definitions, {
  name: 'identity.check',
  async handler(_params, env): Promise<Result<unknown>> {
    const result = await env.gateway.call<CpsInfo>('GET', `${MOBILE_GATE}/punter/cps/one/info`)
    if (!result.ok) return result
    return result.value.cupisOneInfo.identified ? { ok: true, value: result.value.cupisOneInfo } : { ok: false, code: 'NOT_IDENTIFIED' }
  },
})

export const identityWaitIdentified = defineAction(definitions, {
  name: 'identity.waitIdentified',
  async handler({ intervalMs, maxMs }, env): Promise<Result<unknown>> {
    const interval = intervalMs ?? IDENTIFICATION_RECHECK_MS
    const deadline = env.now() + (maxMs ?? 30 * 60_000)
    while (env.now() < deadline) {
      await new Promise((done) => setTimeout(done, interval))
      if (!env.stores.session.getState().accessToken) return { ok: false, code: 'UNAUTHORIZED' }
      const result = await env.gateway.call<CpsInfo>('GET', `${MOBILE_GATE}/punter/cps/one/info`)
      if (result.ok && result.value.cupisOneInfo.identified) {
        await authController(env).loadUser()
        return { ok: true, value: result.value.cupisOneInfo }
      }
    }
    return { ok: false, code: 'NOT_IDENTIFIED' }
  },
})

/** A simplified identification's params and call, shared with the identity page's action (./identity.ts). */
export const SIMPLIFIED_PARAMS = {
  type: 'object',
  required: ['data'],
  properties: { data: { type: 'object' }, withVerification: { type: 'boolean' } },
  additionalProperties: false,
} as const
export const simplifiedPath = (withVerification: unknown) => `${MOBILE_GATE}/punter/cps/one/identify-punter/simplified${withVerification ? '/with-verification' : ''}`

export const identitySimplified = defineAction(definitions, {
  name: 'identity.simplified',
  async handler({ data, withVerification }, env): Promise<Result<unknown>> {
    const path = simplifiedPath(withVerification)
    const result = await env.gateway.call<CpsInfo & { baseResult: { status: string; errorCode: string | null } }>('POST', path, data)
    if (!result.ok) return result
    if (result.value.baseResult.errorCode) return { ok: false, code: result.value.baseResult.errorCode }
    await authController(env).loadUser()
    return result
  },
})

export const identityMitIdStart = defineAction(definitions, {
  name: 'identity.mitIdStart',
  async handler({ askCpr }, env): Promise<Result<unknown>> {
    const result = await env.gateway.call<{ authorizationUrl: string }>('GET', `${MOBILE_GATE}/account/mitId/params?askCpr=${askCpr === true}`)
    if (!result.ok) return result
    env.reload(result.value.authorizationUrl)
    return { ok: true, value: result.value.authorizationUrl }
  },
})

export const identityMitIdLogin = defineAction(definitions, {
  name: 'identity.mitIdLogin',
  async handler({ authorizationCode, state }, env): Promise<Result<unknown>> {
    const result = await env.gateway.call<LoginAnswer>('POST', `${MOBILE_GATE}/auth/mitId/login`, { authorizationCode, state })
    if (!result.ok) {
      if (result.code === 'NEED_CPR_REQUEST') return identityMitIdStart.handler({ askCpr: true }, env)
      return result
    }
    await logIn(env, result.value)
    return { ok: true, value: null }
  },
})
