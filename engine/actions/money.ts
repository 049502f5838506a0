/**
 * Money actions (issue 12 items 3–5): the cashier, deposit limits and promo codes. Documents
 * compose them; the rules live on the server (server/payments) and in jurisdiction documents.
 *
 *   deposit.start {method, amount}   a payment, then the provider's page (a full page load)
 *   deposit.confirm {paymentId}      back from /threedsconfirm: the outcome, balance reloaded once
 *   account.load {name, path}        a punter-only GET into the screen's data.<name>
 *   limits.save {values|remove, kind} deposit or loss limits from a form, or one removed (lower now, raise/remove later)
 *   promo.redeem {promoCode}         a promo code's bonus
 *   withdrawal.start {method, amount}   a pending withdrawal (money off the balance at once)
 *   withdrawal.cancel {withdrawalId}    cancels a pending withdrawal (money back)
 *
 * Failures show the server's message by code for 8 s (spec §8), unless `notice: false`.
 */
import type { Result } from '../../kernel/core/contracts'
import { errorMessageKey, refusalMessageKey } from '../core/gateway'
import { NOTIFICATION_DURATION_MS } from '../core/stores'
import { authController } from './auth'
import { type ActionEnvironment, implementAction } from './registry'
import { definitions } from '../../kernel/actions/money'

const MOBILE_GATE = '/mobile-gate/api/v1'
/** Only the punter's own gateway reads may fill screen data. */
const PUNTER_PATH = /^\/mobile-gate\/api\/v1\/[A-Za-z0-9/_.-]{1,200}$/

const action = implementAction

function notice(env: ActionEnvironment, id: string, status: 'success' | 'error' | 'info', values: Record<string, unknown> = {}) {
  env.stores.ui.getState().notify({ id, status, duration: NOTIFICATION_DURATION_MS, values })
}

function failed<T>(env: ActionEnvironment, result: Result<T>, show: boolean | undefined): Result<T> {
  if (!result.ok && show !== false) notice(env, refusalMessageKey(result.code, result.details, (k) => env.i18n.has(k)), 'error', (result.details && typeof result.details === 'object' && !Array.isArray(result.details) ? result.details : {}) as Record<string, unknown>)
  return result
}

/** A fresh key per tap: the server answers a repeated key with the first payment (no double charge). */
function idempotencyKey(): string {
  const bytes = new Uint8Array(16)
  globalThis.crypto.getRandomValues(bytes)
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

const showParam = { type: 'boolean', description: 'Show the failure notice (default true).' } as const

export const depositStart = action<{ method: string; amount: number; notice?: boolean }>(definitions, {
  name: 'deposit.start',
  async handler({ method, amount, notice: show }, env) {
    const result = await env.gateway.call<{ redirectUrl: string }>('POST', `${MOBILE_GATE}/payments/deposit`, { method, amount, idempotencyKey: idempotencyKey() })
    if (!result.ok) return failed(env, result, show)
    const url = result.value.redirectUrl
    if (typeof url !== 'string' || !url.startsWith('/') || url.startsWith('//')) return failed(env, { ok: false, code: 'COMMON_ERROR' }, show)
    env.reload(url)
    return result
  },
})

interface PaymentAnswer {
  status: 'pending' | 'succeeded' | 'failed' | 'abandoned'
  amount: number
  currency: string
  /** Why a failed payment failed, when the provider said: CARD_DECLINED (before 3-D Secure) or THREE_DS_FAILED. */
  failureCode?: string
}

/** What each outcome shows, and the code a failed one gives the chain (spec §8: server.error.<code>);
 * a failed payment whose provider said why shows that reason instead. */
const OUTCOME_CODES: Record<Exclude<PaymentAnswer['status'], 'succeeded'>, string> = {
  failed: 'THREE_DS_FAILED',
  abandoned: 'PAYMENT_ABANDONED',
  pending: 'PAYMENT_PENDING',
}

export const depositConfirm = action<{ paymentId: string; notice?: boolean }>(definitions, {
  name: 'deposit.confirm',
  async handler({ paymentId, notice: show }, env) {
    const result = await env.gateway.call<PaymentAnswer>('POST', `${MOBILE_GATE}/payments/deposit/confirm`, { paymentId })
    if (!result.ok) return failed(env, result, show)
    if (result.value.status === 'succeeded') {
      await authController(env).loadUser()
      if (show !== false) notice(env, 'deposit.success', 'success', { amount: result.value.amount, currency: result.value.currency })
      return result
    }
    const reason = result.value.status === 'failed' && /^[A-Z0-9_]{1,40}$/.test(result.value.failureCode ?? '') ? result.value.failureCode! : undefined
    const code = reason ?? OUTCOME_CODES[result.value.status] ?? 'COMMON_ERROR'
    if (show !== false) notice(env, errorMessageKey(code, (k) => env.i18n.has(k)), result.value.status === 'pending' ? 'info' : 'error')
    return { ok: false, code }
  },
})

export const accountLoad = action<{ name: string; path: string }>(definitions, {
  name: 'account.load',
  async handler({ name, path }, env) {
    if (!PUNTER_PATH.test(path) || !/^[a-zA-Z][a-zA-Z0-9]{0,40}$/.test(name)) return { ok: false, code: 'INVALID_PARAMS', message: `account.load: ${path}` }
    const result = await env.gateway.call('GET', path)
    if (result.ok) env.stores.screenData.getState().setData(name, result.value)
    return result
  },
})

const PERIODS = ['daily', 'weekly', 'monthly'] as const

const LIMIT_KINDS = { deposit: { path: 'payments/deposit-limits', data: 'limits', saved: 'limits.saved' }, loss: { path: 'payments/loss-limits', data: 'lossLimits', saved: 'limits.loss.saved' } } as const

export const limitsSave = action<{ values?: Record<string, unknown>; kind?: 'deposit' | 'loss'; remove?: (typeof PERIODS)[number]; notice?: boolean }>(definitions, {
  name: 'limits.save',
  async handler({ values = {}, kind = 'deposit', remove, notice: show }, env) {
    const target = LIMIT_KINDS[kind] ?? LIMIT_KINDS.deposit
    // an empty field keeps its limit; a removal is asked for by name (null), never by clearing a field
    const body = remove ? { [remove]: null } : Object.fromEntries(PERIODS.flatMap((period) => (typeof values[period] === 'number' ? [[period, values[period]]] : [])))
    // nothing typed: the form says so (server.error.LIMITS_NOTHING_TO_SAVE), no request is made
    if (Object.keys(body).length === 0) return { ok: false, code: 'LIMITS_NOTHING_TO_SAVE' }
    const result = await env.gateway.call<{ changes: Record<string, string>; limits: unknown[] }>('PUT', `${MOBILE_GATE}/${target.path}`, body)
    if (!result.ok) return failed(env, result, show)
    env.stores.screenData.getState().setData(target.data, result.value)
    const waits = Object.values(result.value.changes ?? {}).includes('pending')
    if (show !== false) notice(env, waits ? 'limits.saved.pending' : target.saved, 'success')
    return result
  },
})

export const promoRedeem = action<{ promoCode: string; notice?: boolean }>(definitions, {
  name: 'promo.redeem',
  async handler({ promoCode, notice: show }, env) {
    const result = await env.gateway.call('POST', `${MOBILE_GATE}/bonus/punter/promo-code/input`, { promoCode })
    if (!result.ok) return failed(env, result, show)
    await authController(env).loadUser()
    if (show !== false) notice(env, 'promo.accepted', 'success')
    return result
  },
})

interface WithdrawalAnswer {
  amount: number
  currency: string
  status: string
}

/** A withdrawal or its cancellation: the server's answer, the balance reloaded, the notice (issue 28 item 5). */
async function withdrawalCall(env: ActionEnvironment, path: string, body: Record<string, unknown>, success: string, show: boolean | undefined): Promise<Result<WithdrawalAnswer>> {
  const result = await env.gateway.call<WithdrawalAnswer>('POST', `${MOBILE_GATE}/${path}`, body)
  if (!result.ok) return failed(env, result, show)
  await authController(env).loadUser()
  if (show !== false) notice(env, success, 'success', { amount: result.value.amount, currency: result.value.currency })
  return result
}

export const withdrawalStart = action<{ method: string; amount: number; notice?: boolean }>(definitions, {
  name: 'withdrawal.start',
  handler: ({ method, amount, notice: show }, env) => withdrawalCall(env, 'payments/withdrawal', { method, amount, idempotencyKey: idempotencyKey() }, 'withdrawal.requested', show),
})

export const withdrawalCancel = action<{ withdrawalId: string; notice?: boolean }>(definitions, {
  name: 'withdrawal.cancel',
  handler: ({ withdrawalId, notice: show }, env) => withdrawalCall(env, 'payments/withdrawal/cancel', { withdrawalId }, 'withdrawal.cancelled', show),
})

export const moneyActions = [depositStart, depositConfirm, accountLoad, limitsSave, promoRedeem, withdrawalStart, withdrawalCancel]

