/**
 * Credential actions (issue 13 item 6; spec §3 password flow modes RECOVERING, CREATING,
 * CHANGING). The recovery keeps its tokens here (module memory and sessionStorage, so a reload
 * of the page keeps the flow) and never in the form values; what documents may show or branch on
 * goes to the screen data: `data.recovery` {channel, secretQuestion, secretQuestionText, linkValid}
 * and `data.credentials` {passwordMode, secretQuestion, email}. Calls that need nothing kept
 * (change, create, secret question, e-mail) are plain `form.post` steps in the flow documents.
 */
import type { Result } from '../../kernel/core/contracts'
import { authController } from './auth'
import { defineAction, type ActionEnvironment } from './registry'
import { definitions } from '../../kernel/actions/credentials'
import { pageSessionStorage } from '../core/web-storage'

const MOBILE_GATE = '/mobile-gate/api/v1'
const STORAGE_KEY = 'parlay.recovery'

interface RecoveryTokens {
  recoveryToken?: string
  passwordToken?: string
}

let memory: RecoveryTokens = {}

const storage = pageSessionStorage

function tokens(): RecoveryTokens {
  if (memory.recoveryToken || memory.passwordToken) return memory
  try {
    memory = JSON.parse(storage()?.getItem(STORAGE_KEY) ?? '{}') as RecoveryTokens
  } catch {
    memory = {}
  }
  return memory
}

function keep(next: RecoveryTokens): void {
  memory = next
  try {
    if (next.recoveryToken || next.passwordToken) storage()?.setItem(STORAGE_KEY, JSON.stringify(next))
    else storage()?.removeItem(STORAGE_KEY)
  } catch {
    // storage denied: memory only
  }
}

interface RecoveryData {
  channel: string
  secretQuestion: string
  secretQuestionText: string
  linkValid: boolean
}

function setRecovery(env: ActionEnvironment, patch: Partial<RecoveryData>): void {
  const screenData = env.stores.screenData.getState()
  const current = (screenData.data.recovery ?? { channel: '', secretQuestion: '', secretQuestionText: '', linkValid: false }) as RecoveryData
  screenData.setData('recovery', { ...current, ...patch })
}

const questionText = (env: ActionEnvironment, type: string | null | undefined) => (type ? env.i18n.t(`credentials.secretQuestion.${type}`) : '')

/** Field errors go on the form's own field names (the server names its body fields). */
function onField<T>(result: Result<T>, field: string): Result<T> {
  if (result.ok) return result
  const details = Array.isArray(result.details) ? result.details.map((e: { field?: string; code?: string }) => ({ ...e, field })) : [{ field, code: result.code }]
  return { ...result, details }
}

export const passwordRecover = defineAction(definitions, {
  name: 'password.recover',
  async handler({ login, channelType }, env) {
    const result = await env.gateway.call<{ channel: string; recoveryToken?: string }>('POST', `${MOBILE_GATE}/account/password/recover`, channelType ? { login, channelType } : { login })
    if (!result.ok) return result
    keep({ recoveryToken: result.value.recoveryToken })
    setRecovery(env, { channel: result.value.channel, secretQuestion: '', secretQuestionText: '' })
    return result
  },
})

export const passwordVerifyCode = defineAction(definitions, {
  name: 'password.verifyCode',
  async handler({ code }, env) {
    const result = await env.gateway.call<{ passwordToken: string; secretQuestion: string | null }>('POST', `${MOBILE_GATE}/account/password/recover/code`, {
      recoveryToken: tokens().recoveryToken ?? '',
      code: code.trim(),
    })
    if (!result.ok) return onField(result, 'code')
    keep({ passwordToken: result.value.passwordToken })
    setRecovery(env, { secretQuestion: result.value.secretQuestion ?? '', secretQuestionText: questionText(env, result.value.secretQuestion) })
    return result
  },
})

export const passwordInspectLink = defineAction(definitions, {
  name: 'password.inspectLink',
  async handler({ token }, env) {
    if (!token) {
      setRecovery(env, { channel: 'link', linkValid: false })
      return { ok: false, code: 'TOKEN_NOT_FOUND' }
    }
    const result = await env.gateway.call<{ secretQuestion: string | null; secretQuestionPassed: boolean }>('POST', `${MOBILE_GATE}/account/password/recover/token`, { token })
    if (!result.ok) {
      setRecovery(env, { channel: 'link', linkValid: false })
      return result
    }
    keep({ passwordToken: token })
    const pending = result.value.secretQuestionPassed ? null : result.value.secretQuestion
    setRecovery(env, { channel: 'link', linkValid: true, secretQuestion: pending ?? '', secretQuestionText: questionText(env, pending) })
    return result
  },
})

export const passwordAnswerSecretQuestion = defineAction(definitions, {
  name: 'password.answerSecretQuestion',
  async handler({ answer }, env) {
    const result = await env.gateway.call('POST', `${MOBILE_GATE}/account/secret-question/answer-validation`, { token: tokens().passwordToken ?? '', answer })
    return onField(result, 'secretAnswer')
  },
})

export const passwordReset = defineAction(definitions, {
  name: 'password.reset',
  async handler({ password }, env) {
    // this browser's own session (if any) ended with the others: forget it quietly (a logout
    // without a session does nothing; the socket's accountLogout for the same reset waits for this)
    const auth = authController(env)
    const result = await auth.whileEnding(async () => {
      const answer = await env.gateway.call('POST', `${MOBILE_GATE}/account/password/reset`, { token: tokens().passwordToken ?? '', password })
      if (answer.ok) await auth.logout('SEFT_LOGOUT')
      return answer
    })
    if (result.ok) {
      keep({})
      return result
    }
    return result.code === 'TOKEN_NOT_FOUND' || result.code === 'SECRET_QUESTION_CHECK_NOT_PASSED' ? result : onField(result, 'password')
  },
})

export const credentialsLoad = defineAction(definitions, {
  name: 'credentials.load',
  async handler(_params, env) {
    const result = await env.gateway.call<{ passwordMode: string; secretQuestion: string | null; email: string | null }>('GET', `${MOBILE_GATE}/account/credentials`)
    if (!result.ok) return result
    env.stores.screenData.getState().setData('credentials', {
      passwordMode: result.value.passwordMode,
      secretQuestion: result.value.secretQuestion ?? '',
      secretQuestionText: questionText(env, result.value.secretQuestion),
      email: result.value.email ?? '',
    })
    return result
  },
})

export const accountConfirmEmail = defineAction(definitions, {
  name: 'account.confirmEmail',
  async handler({ token }, env) {
    if (!token) return { ok: false, code: 'TOKEN_NOT_FOUND' }
    const result = await env.gateway.call('POST', `${MOBILE_GATE}/account/email/confirm`, { token })
    if (result.ok && env.stores.session.getState().accessToken) await authController(env).loadUser()
    return result
  },
})

export const authLoginByToken = defineAction(definitions, {
  name: 'auth.loginByToken',
  async handler({ token }, env) {
    const result = await env.gateway.call<Parameters<ReturnType<typeof authController>['applyTokens']>[0]>('POST', `${MOBILE_GATE}/auth/v2/login-by-authentication-token`, { token })
    if (!result.ok) return result
    const auth = authController(env)
    auth.applyTokens(result.value, env.now())
    env.stores.session.getState().setSession({ isLoginByAuthToken: true })
    await auth.loadUser()
    return result
  },
})

export const authOpenProfile = defineAction(definitions, {
  name: 'auth.openProfile',
  async handler({ openToken }, env) {
    type Tokens = Parameters<ReturnType<typeof authController>['applyTokens']>[0]
    const result = await env.gateway.call<{ loginResult: Tokens }>('POST', `${MOBILE_GATE}/punter/open-profile`, { openToken })
    if (!result.ok) return result
    const auth = authController(env)
    auth.applyTokens(result.value.loginResult, env.now())
    await auth.loadUser()
    return result
  },
})

export const credentialActions = [
  authOpenProfile,
  passwordRecover,
  passwordVerifyCode,
  passwordInspectLink,
  passwordAnswerSecretQuestion,
  passwordReset,
  credentialsLoad,
  accountConfirmEmail,
  authLoginByToken,
]

