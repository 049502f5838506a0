/**
 * Sign-up actions (spec §4 "Phone-code registration", "Sign-up stages", "Registration by
 * registration token"; §2 "After sign-up"). Documents compose them: the flow's last step runs
 * `join.start`, the code popup's flow runs `join.verifyCode`, its onComplete runs
 * `join.afterSignUp`, which runs the jurisdiction document's `afterSignUp` chain.
 *
 * The join session lives in ./join-session.ts, the identity steps in ./join-identity.ts.
 */
import type { Result } from '../../kernel/core/contracts'
import { buildContext } from '../core/context'
import type { JurisdictionDocument } from '../../kernel/documents/types'
import { SIGNUP_VARIANT_NAMES, SIGNUP_VARIANTS, signupVariant, type SignupVariant } from '../../kernel/documents/signup-variants'
import { fetchAndSolveCaptcha } from '../auth/captcha'
import { actionRegistry, defineAction, runChain, type ActionEnvironment } from './registry'
import { definitions } from '../../kernel/actions/join'
import { identityCheck, identityMitIdLogin, identityMitIdStart, identitySimplified, identityWaitIdentified, MOBILE_GATE } from './join-identity'
import { applyState, clearJoinSession, joinSession, logIn, saveJoinSession, storage, type JoinVariant, type LoginAnswer, type VerificationState } from './join-session'

export { clearJoinSession, joinSession, JOIN_STORAGE_KEY, type JoinSession, type JoinVariant } from './join-session'
export { IDENTIFICATION_RECHECK_MS, MOBILE_GATE } from './join-identity'

/** The variant's API: a session from storage may name one that no longer exists. */
const api = (variant: JoinVariant): SignupVariant => signupVariant(variant) ?? SIGNUP_VARIANTS.phone

const CAPTCHA_CODES = new Set(['CAPTCHA_REQUIRED', 'INVALID_CAPTCHA'])

/**
 * A sign-up call that may send an SMS: when the server asks for the proof-of-work captcha
 * (spec §5: captcha codes trigger a challenge), solve one and send the call once more, as login does.
 */
async function postWithCaptcha<T>(env: ActionEnvironment, path: string, body: Record<string, unknown>): Promise<Result<T>> {
  const first = await env.gateway.call<T>('POST', path, body)
  if (first.ok || !CAPTCHA_CODES.has(first.code)) return first
  const solved = await fetchAndSolveCaptcha(env.gateway, undefined, 'signup-sms')
  if (!solved.ok) return first
  return env.gateway.call<T>('POST', path, { ...body, captcha: solved.value })
}

const CODE_ERRORS = new Set(['CODE_NO_MATCH', 'CODE_EXPIRED', 'CODE_OVERRIDDEN', 'CODE_NO_MATCH_OR_EXPIRED'])

export const joinStart = defineAction(definitions, {
  name: 'join.start',
  async handler({ variant, data }, env): Promise<Result<unknown>> {
    const body = filled(data)
    const referer = storage()?.getItem('parlay.refererId')
    if (referer) body.refererId = referer
    const result = await postWithCaptcha<VerificationState & { email?: string }>(env, MOBILE_GATE + api(variant).begin[0], body)
    if (!result.ok) return result
    const now = env.now()
    if (api(variant).channel === 'email') {
      saveJoinSession({ variant, email: String(body.email ?? ''), codeExpiresAt: now + 30 * 60_000, nextSendAt: now + 60_000, attemptsLeft: 0 })
      return result
    }
    const state = result.value
    saveJoinSession(
      applyState({ variant, verificationToken: state.verificationToken, registrationToken: state.registrationToken, phoneNumber: state.phoneNumber, codeExpiresAt: 0, nextSendAt: 0, attemptsLeft: 0 }, state, now),
    )
    return result
  },
})

/** The form values worth sending: empty ones are left out (as join.start does). */
function filled(data: unknown): Record<string, unknown> {
  const body: Record<string, unknown> = { ...(data as Record<string, unknown>) }
  for (const [key, value] of Object.entries(body)) if (value === '' || value === undefined || value === null) delete body[key]
  return body
}

/** Issue 31: a step's fields are checked when the punter leaves it, not only after the last step. */
export const joinCheckStep = defineAction(definitions, {
  name: 'join.checkStep',
  async handler({ variant, step, data }, env): Promise<Result<unknown>> {
    return env.gateway.call('POST', `${MOBILE_GATE}/account/signup/check-step`, { variant, step, data: filled(data) })
  },
})

export const joinVerifyCode = defineAction(definitions, {
  name: 'join.verifyCode',
  async handler({ code }, env): Promise<Result<unknown>> {
    const session = joinSession(env.now())
    if (!session?.verificationToken) return { ok: false, code: 'UNKNOWN_HASH' }
    const variant = api(session.variant)
    const path = (variant.complete ?? SIGNUP_VARIANTS.phone.complete!)[0]
    const body: Record<string, string> = { verificationToken: session.verificationToken, verificationCode: code }
    if (variant.registrationToken && session.registrationToken) body.registrationToken = session.registrationToken
    const result = await env.gateway.call<LoginAnswer>('POST', MOBILE_GATE + path, body)
    if (!result.ok) {
      const state = result.details as VerificationState | undefined
      if (state && typeof state === 'object' && 'attemptCodeCount' in state) saveJoinSession(applyState(session, state, env.now()))
      if (CODE_ERRORS.has(result.code)) return { ...result, details: [{ field: 'verificationCode', code: result.code }] }
      return result
    }
    clearJoinSession()
    await logIn(env, result.value)
    return { ok: true, value: { registered: true } }
  },
})

export const joinResendCode = defineAction(definitions, {
  name: 'join.resendCode',
  async handler(_params, env): Promise<Result<unknown>> {
    const now = env.now()
    const session = joinSession(now)
    if (!session?.verificationToken) return { ok: false, code: 'UNKNOWN_HASH' }
    // Spec §5: resend only once the pending window has passed.
    if (session.nextSendAt > now) return { ok: false, code: 'TEMPORARY_BLOCKED', details: { nextVerificationAfterMillis: session.nextSendAt - now } }
    const path = api(session.variant).resend ?? SIGNUP_VARIANTS.phone.resend!
    const result = await postWithCaptcha<VerificationState>(env, MOBILE_GATE + path, { verificationToken: session.verificationToken })
    if (result.ok) saveJoinSession(applyState(session, result.value, env.now()))
    return result
  },
})

export const joinResendEmail = defineAction(definitions, {
  name: 'join.resendEmail',
  async handler(_params, env): Promise<Result<unknown>> {
    const session = joinSession(env.now())
    if (!session?.email) return { ok: false, code: 'UNKNOWN_HASH' }
    return env.gateway.call('POST', `${MOBILE_GATE}/account/signup/send-confirmation-mail`, { login: session.email })
  },
})

async function jurisdictionDocument(env: ActionEnvironment): Promise<JurisdictionDocument | undefined> {
  const site = env.stores.site.getState().bootstrap?.site
  if (!site) return undefined
  const doc = await env.documents.load<JurisdictionDocument>('jurisdiction', site.jurisdiction)
  return doc.ok ? doc.value.document : undefined
}

export const joinAfterSignUp = defineAction(definitions, {
  name: 'join.afterSignUp',
  async handler(_params, env): Promise<Result<unknown>> {
    const doc = await jurisdictionDocument(env)
    const chain = (doc as { afterSignUp?: Parameters<typeof runChain>[0] } | undefined)?.afterSignUp
    if (!chain) return { ok: true, value: null }
    await runChain(chain, env, () => buildContext(env.stores))
    return { ok: true, value: null }
  },
})

export const joinLoginByRegistrationToken = defineAction(definitions, {
  name: 'join.loginByRegistrationToken',
  async handler({ token }, env): Promise<Result<unknown>> {
    const result = token ? await env.gateway.call<LoginAnswer>('POST', `${MOBILE_GATE}/auth/v2/login-by-registration-token`, { token }) : ({ ok: false, code: 'EMPTY_TOKEN' } as const)
    if (!result.ok || result.value.status !== 'OK') {
      await runChain([{ do: 'popup.open', with: { id: 'join-registration-confirm-failure' } }], env, () => buildContext(env.stores))
      return result.ok ? { ok: false, code: 'COMMON_ERROR' } : result
    }
    clearJoinSession()
    await logIn(env, result.value)
    await runChain([{ do: 'nav.go', with: { to: '/' } }], env, () => buildContext(env.stores))
    const after = (await jurisdictionDocument(env))?.afterRegistrationTokenLogin
    if (after) await runChain(after as Parameters<typeof runChain>[0], env, () => buildContext(env.stores))
    return { ok: true, value: null }
  },
})

export const joinReset = defineAction(definitions, {
  name: 'join.reset',
  async handler() {
    clearJoinSession()
    return { ok: true, value: null }
  },
})

export const joinSwitchMethod = defineAction(definitions, {
  name: 'join.switchMethod',
  async handler({ method }, env) {
    clearJoinSession()
    return runChain([{ do: 'nav.go', with: { to: '/join', query: { method } } }], env, () => buildContext(env.stores))
  },
})

export const joinNotice = defineAction(definitions, {
  name: 'join.notice',
  async handler({ message, status }, env) {
    const notify = actionRegistry.get('notify')
    if (!notify) return { ok: false, code: 'UNKNOWN_ACTION' }
    return notify.handler({ message, status: status ?? 'info' }, env)
  },
})

export const promoCheck = defineAction(definitions, {
  name: 'promo.check',
  async handler({ promoCode, countryId }, env) {
    return env.gateway.call('POST', `${MOBILE_GATE}/bonus/check-promo-code`, countryId === undefined ? { promoCode } : { promoCode, countryId })
  },
})

export const depositRedirect = defineAction(definitions, {
  name: 'deposit.redirect',
  async handler({ afterSignUp }, env) {
    return runChain([{ do: 'nav.go', with: { to: '/account/deposit', ...(afterSignUp ? { query: { isAfterSignUp: true } } : {}) } }], env, () => buildContext(env.stores))
  },
})

export const joinActions = [
  joinStart,
  joinCheckStep,
  joinVerifyCode,
  joinResendCode,
  joinResendEmail,
  joinAfterSignUp,
  joinLoginByRegistrationToken,
  joinReset,
  joinSwitchMethod,
  joinNotice,
  promoCheck,
  identityCheck,
  identityWaitIdentified,
  identitySimplified,
  identityMitIdStart,
  identityMitIdLogin,
  depositRedirect,
]

