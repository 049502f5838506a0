/**
 * The payments module's handlers (routes in ./index.ts): the cashier's methods, deposits, deposit
 * and loss limits, and promo codes, each a named function of the kit it needs, so
 * createPaymentsRouter stays a list of routes (issue 32: no function over 80 lines).
 */
import type { Request, RequestHandler, Response } from 'express'
import type { ServerDeps } from '../deps'
import { jurisdictionOf } from '../dictionary'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { siteContext } from '../http/site'
import { translationsFor } from '../documents/router'
import { findPunterById, type Punter } from '../punters/repository'
import { assertAllowedFor } from '../regulation/restrictions'
import { findPromoCode, redeemPromoCode, type PromoCodePolicy } from './bonus'
import { createPayment, findPayment, findPaymentByKey, settlePayment, type Payment } from './ledger'
import { exceededPeriod, limitStates, setLimit, type LimitChange, type LimitExceeded, type LimitTableName } from './limits'
import { lossLimitStates } from './loss-limits'
import { depositLimitPolicy, lossLimitPolicy, paymentSources, sourcesFor, type DepositLimitPolicy, type LimitPeriod } from './policy'
import { settlePendingPayments } from './pending'
import { limitToMinor, toMajor, toMinor } from '../../kernel/core/money'
import { RETURN_PATH, type PaymentProvider } from './simulator'
import { withLocale } from '../../kernel/core/locale-path'
import { withdrawalPolicy } from './withdrawal-policy'
import { announceParticipation } from '../promotions'

/** What the payments handlers share: the deps and the payment provider (none: deposits answer 503). */
export interface PaymentKit {
  deps: ServerDeps
  provider: PaymentProvider | undefined
}

const LIMIT_CODES: Record<LimitPeriod, string> = { daily: 'DAILY_DEPOSIT_LIMIT_EXCEED', weekly: 'WEEKLY_DEPOSIT_LIMIT_EXCEED', monthly: 'MONTHLY_DEPOSIT_LIMIT_EXCEED' }

const paymentAnswer = (payment: Payment, punterBalanceMinor: number | undefined, firstDepositDate: string | null | undefined) => ({
  paymentId: payment.id,
  status: payment.status,
  amount: toMajor(payment.amountMinor, payment.currency),
  currency: payment.currency,
  method: payment.method,
  ...(punterBalanceMinor === undefined ? {} : { balance: toMajor(punterBalanceMinor, payment.currency), firstDepositDate: firstDepositDate ?? null }),
})

/** 'D MMM YYYY HH:mm' (spec §5 display) in the punter's language, UTC stated. */
function dateTimeText(locale: string) {
  let format: Intl.DateTimeFormat
  try {
    format = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' })
  } catch {
    format = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' })
  }
  return (iso: string) => `${format.format(new Date(iso))} UTC`
}

const punterOf = (res: Response) => res.locals.punter as Punter

/** The punters store's row (group 5): read through its module, never joined. */
async function freshBalance(deps: ServerDeps, punterId: number) {
  const punter = (await findPunterById(deps.data, punterId))!
  return { balance_minor: punter.balanceMinor, first_deposit_date: punter.firstDepositDate }
}

/** Each source with its name in the asked locale (`label`), so a screen lists them as they are. */
export function paymentMethods(deps: ServerDeps): RequestHandler {
  return (req, res) => {
    const context = siteContext(req, deps)
    const locale = typeof req.query.locale === 'string' && context.site.locales.includes(req.query.locale) ? req.query.locale : context.locale
    const texts = translationsFor(deps, context, locale)?.resources ?? {}
    const fallback = translationsFor(deps, context, 'en')?.resources ?? {}
    res.setHeader('Cache-Control', 'no-cache')
    res.setHeader('Vary', 'Host, Accept-Language, x-parlay-target, punter-session-hash')
    sendOk(res, paymentSources(deps, req).map((source) => ({ ...source, label: texts[source.name] ?? fallback[source.name] ?? source.id })))
  }
}

export function startDeposit({ deps, provider }: PaymentKit): RequestHandler {
  const { data, log } = deps
  return async (req, res) => {
    const punter = punterOf(res)
    const { amount, method, idempotencyKey } = req.body as { amount: number; method: string; idempotencyKey?: string }
    // restricted punters (spec §6) do not deposit: the jurisdiction document says which restriction takes what
    const allowed = await assertAllowedFor(deps, req, punter.id, 'deposit')
    if (!allowed.ok) return sendError(res, allowed.httpStatus, allowed.code, allowed.payload)
    const read = toMinor(amount, punter.currency)
    if (!read.ok) return sendError(res, 400, HTTP_ERRORS.validation, { field: 'amount', code: read.code })
    const amountMinor = read.minor
    const source = sourcesFor(deps, req, punter.currency).find((s) => s.id === method)
    if (!source) return sendError(res, 400, HTTP_ERRORS.validation, { field: 'method', code: 'enum' })
    if (amountMinor < limitToMinor(source.minimum, punter.currency)) return sendError(res, 400, HTTP_ERRORS.validation, { field: 'amount', code: 'minimum', limit: source.minimum })
    if (amountMinor > limitToMinor(source.maximum, punter.currency)) return sendError(res, 400, HTTP_ERRORS.validation, { field: 'amount', code: 'maximum', limit: source.maximum })
    if (!provider) return sendError(res, 503, 'SERVICE_UNAVAILABLE')
    // what the provider decided meanwhile first: only credited money and payments still open count (ADR 0002)
    await settlePendingPayments(deps, provider, punter.id, deps.now())
    const now = deps.now()
    const policy = depositLimitPolicy(deps, req, punter.currency)
    // the limits read and the payment written in one transaction, one at a time per punter on every
    // instance: parallel deposits never both fit under one limit
    const answer = await data.transaction(
      async (tx): Promise<{ payment?: Payment; exceeded?: LimitExceeded | null }> => {
        const earlier = idempotencyKey ? await findPaymentByKey(tx, punter.id, idempotencyKey) : undefined
        if (earlier) return { payment: earlier }
        const exceeded = await exceededPeriod(tx, punter.id, amountMinor, policy, now)
        if (exceeded) return { exceeded }
        return { payment: (await createPayment(tx, { punterId: punter.id, idempotencyKey: idempotencyKey ?? null, method, amountMinor, currency: punter.currency }, now)).payment }
      },
      { serialiseOn: `deposits:${punter.id}` },
    )
    if ('exceeded' in answer && answer.exceeded) {
      log.info('payments.deposit.refused', { punterId: punter.id, period: answer.exceeded.period })
      return sendError(res, 403, LIMIT_CODES[answer.exceeded.period], { ...answer.exceeded, currency: punter.currency })
    }
    const payment = answer.payment!
    // the provider sends the punter back under the page's language prefix (/ru/threedsconfirm on a site whose default is English)
    const { site, locale } = siteContext(req, deps)
    const returnPath = withLocale(RETURN_PATH, locale, site)
    const { redirectUrl } = await provider.checkout({ id: payment.id, amountMinor: payment.amountMinor, currency: payment.currency, threeDSecure: source.threeDSecure, returnPath })
    log.info('payments.deposit.started', { punterId: punter.id, paymentId: payment.id, method, amountMinor })
    sendOk(res, { ...paymentAnswer(payment, undefined, undefined), redirectUrl })
  }
}

/** A payment of the punter as it stands, settled first from the provider's outcome when still pending. */
async function settle({ deps, provider }: PaymentKit, res: Response, paymentId: string) {
  const punter = punterOf(res)
  const payment = await findPayment(deps.data.db, paymentId)
  if (!payment || payment.punterId !== punter.id) return sendError(res, 404, 'PAYMENT_NOT_FOUND')
  const playthrough = withdrawalPolicy(deps, punter).depositPlaythrough
  const settled = payment.status === 'pending' && provider ? (await settlePayment(deps, payment.id, await provider.outcome(payment.id), deps.now(), playthrough))! : payment
  if (settled.status !== payment.status) deps.log.info('payments.deposit.settled', { punterId: punter.id, paymentId: payment.id, status: settled.status })
  const fresh = await freshBalance(deps, punter.id)
  // a failed payment says why (a card declined is not a failed 3-D Secure): the provider's reason
  const failureCode = settled.status === 'failed' ? await provider?.failureCode?.(settled.id) : undefined
  res.setHeader('Cache-Control', 'no-store')
  sendOk(res, { ...paymentAnswer(settled, fresh.balance_minor, fresh.first_deposit_date), ...(failureCode ? { failureCode } : {}) })
}

export const confirmDeposit =
  (kit: PaymentKit): RequestHandler =>
  (req, res) =>
    settle(kit, res, (req.body as { paymentId: string }).paymentId)

export function depositStatus(kit: PaymentKit): RequestHandler {
  return async (req, res) => {
    const id = String(req.params.paymentId)
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) return sendError(res, 400, HTTP_ERRORS.validation, { field: 'paymentId', code: 'pattern' })
    await settle(kit, res, id)
  }
}

function limitsView<T extends { pending: { effectiveAt: string } | null }>(deps: ServerDeps, req: Request, punter: Punter, policy: DepositLimitPolicy, states: T[]) {
  const when = dateTimeText(siteContext(req, deps).locale)
  const limits = states.map((limit) => (limit.pending ? { ...limit, pending: { ...limit.pending, effectiveAtText: when(limit.pending.effectiveAt) } } : limit))
  return { currency: punter.currency, increaseTakesEffectAfterHours: policy.increaseTakesEffectAfterHours, limits }
}

async function limitsAnswer({ deps, provider }: PaymentKit, req: Request, punter: Punter) {
  // the counter shows credited money: payments the provider decided meanwhile are applied first
  await settlePendingPayments(deps, provider, punter.id, deps.now())
  const policy = depositLimitPolicy(deps, req, punter.currency)
  return limitsView(deps, req, punter, policy, await limitStates(deps.data.db, punter.id, policy, deps.now()))
}

async function lossAnswer(deps: ServerDeps, req: Request, punter: Punter) {
  const policy = lossLimitPolicy(deps, req, punter.currency)
  return policy ? limitsView(deps, req, punter, policy, await lossLimitStates(deps.data.db, punter.id, policy, deps.now())) : null
}

/** Sets the periods the body names (null removes one): stricter at once, looser after the cooling-off. */
async function putLimits(deps: ServerDeps, req: Request, res: Response, policy: DepositLimitPolicy, table: LimitTableName, answer: (req: Request, punter: Punter) => Promise<object>) {
  const punter = punterOf(res)
  const wanted: [LimitPeriod, number | null][] = []
  for (const [period, amount] of Object.entries(req.body as Record<string, number | null>)) {
    if (!(policy.periods as string[]).includes(period)) return sendError(res, 400, HTTP_ERRORS.validation, { field: period, code: 'unknownField' })
    const read = amount === null ? undefined : toMinor(amount, punter.currency)
    if (read && !read.ok) return sendError(res, 400, HTTP_ERRORS.validation, { field: period, code: read.code })
    const cap = policy.maximum[period as LimitPeriod]
    if (read?.ok && cap !== undefined && read.minor > cap) return sendError(res, 400, HTTP_ERRORS.validation, { field: period, code: 'maximum', limit: toMajor(cap, punter.currency) })
    wanted.push([period as LimitPeriod, read?.ok ? read.minor : null])
  }
  const changes: Partial<Record<LimitPeriod, LimitChange>> = {}
  await deps.data.transaction(
    async (tx) => {
      for (const [period, minor] of wanted) changes[period] = await setLimit(tx, punter.id, period, minor, policy, deps.now(), table)
    },
    { serialiseOn: `${table}:${punter.id}` },
  )
  deps.log.info('payments.limits.set', { punterId: punter.id, table, changes })
  res.setHeader('Cache-Control', 'no-store')
  sendOk(res, { ...(await answer(req, punter)), changes })
}

export function depositLimits(kit: PaymentKit): RequestHandler {
  return async (req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, await limitsAnswer(kit, req, punterOf(res)))
  }
}

export const putDepositLimits =
  (kit: PaymentKit): RequestHandler =>
  (req, res) =>
    putLimits(kit.deps, req, res, depositLimitPolicy(kit.deps, req, punterOf(res).currency), 'deposit_limits', (r, p) => limitsAnswer(kit, r, p))

export function lossLimits(deps: ServerDeps): RequestHandler {
  return async (req, res) => {
    const answer = await lossAnswer(deps, req, punterOf(res))
    if (!answer) return sendError(res, 404, 'LOSS_LIMITS_NOT_OFFERED')
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, answer)
  }
}

export function putLossLimits(deps: ServerDeps): RequestHandler {
  return (req, res) => {
    const policy = lossLimitPolicy(deps, req, punterOf(res).currency)
    if (!policy) return sendError(res, 404, 'LOSS_LIMITS_NOT_OFFERED')
    return putLimits(deps, req, res, policy, 'loss_limits', async (r, p) => (await lossAnswer(deps, r, p))!)
  }
}

export function promoCodeInput(deps: ServerDeps): RequestHandler {
  return async (req, res) => {
    const punter = punterOf(res)
    const allowed = await assertAllowedFor(deps, req, punter.id, 'bet') // a bonus is for betting
    if (!allowed.ok) return sendError(res, allowed.httpStatus, allowed.code, allowed.payload)
    const codes = ((jurisdictionOf(deps, req) as unknown as { bonus?: { promoCodes?: PromoCodePolicy[] } })?.bonus?.promoCodes ?? []) as PromoCodePolicy[]
    const promo = findPromoCode(codes, (req.body as { promoCode: string }).promoCode, punter.profile.countryCode)
    if (!promo) return sendError(res, 400, 'INVALID_PROMO_CODE')
    const answer = await redeemPromoCode(deps.data, punter, promo, deps.now())
    if (!answer.ok) return sendError(res, 409, answer.code)
    deps.log.info('bonus.promo.redeemed', { punterId: punter.id, product: promo.reward.product })
    announceParticipation(deps, siteContext(req, deps).jurisdiction, punter.id, promo.code) // spec §3 promoParticipation
    sendOk(res, { promoCode: promo.code, reward: answer.reward, bonusInfo: answer.bonus })
  }
}
