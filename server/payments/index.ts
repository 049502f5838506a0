/**
 * Server module `payments`: the cashier, deposit limits and punter bonuses (issue 12 items 3–5).
 *
 *   GET  /api/payments/methods                         the site's deposit payment sources (all currencies); a
 *                                                      logged-in punter's own site's, whatever the host
 *   POST {mobile}/payments/deposit {amount, method, idempotencyKey?}   a payment and the provider's page
 *   POST {mobile}/payments/deposit/confirm {paymentId}  what happened (the return from /threedsconfirm); credits once
 *   GET  {mobile}/payments/deposit/{paymentId}          a payment of the punter, as it stands
 *   GET  {mobile}/payments/deposit-limits               the punter's daily/weekly/monthly limits
 *   PUT  {mobile}/payments/deposit-limits {daily?, weekly?, monthly?}   lower now, raise (or remove: null) after cooling-off
 *   GET|PUT {mobile}/payments/loss-limits               the same for loss limits (./loss-limits.ts), where the jurisdiction offers them
 *   POST {mobile}/bonus/punter/promo-code/input {promoCode}            a promo code's bonus
 *   {mobile}/payments/withdrawal…                       withdrawals (issue 28 item 5): ./withdrawal-routes.ts
 *   GET|POST /dev/payments/checkout, /dev/payments/3ds  the provider simulator's pages (simulators on)
 *   GET|POST /dev/payments/payouts                      the simulator's payouts (./payout-simulator.ts)
 *
 * Without simulators and without a real provider passed in, starting a deposit answers 503
 * SERVICE_UNAVAILABLE (as MitID does): nothing pretends to take money.
 */
import { Router, type Request, type Response } from 'express'
import { GATEWAY, type ServerDeps } from '../deps'
import { jurisdictionOf } from '../dictionary'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { validateBody, validateQuery, idempotencyKeyProperty } from '../http/validate'
import { siteContext } from '../http/site'
import { translationsFor } from '../documents/router'
import type { ServerModule } from '../module'
import { findPunterById, type Punter } from '../punters/repository'
import { requirePunter } from '../signup/punters'
import { punterSiteIfLoggedIn } from '../auth/session-check'
import { assertAllowedFor } from '../regulation/restrictions'
import { findPromoCode, redeemPromoCode, type PromoCodePolicy } from './bonus'
import { createPayment, findPayment, findPaymentByKey, settlePayment, type Payment } from './ledger'
import { exceededPeriod, limitStates, setLimit, type LimitChange, type LimitExceeded, type LimitTableName } from './limits'
import { lossLimitStates } from './loss-limits'
import { depositLimitPolicy, lossLimitPolicy, paymentSources, sourcesFor, type DepositLimitPolicy, type LimitPeriod } from './policy'
import { settlePendingPayments } from './pending'
import { limitToMinor, toMajor, toMinor } from '../../kernel/core/money'
import { createSimulatedProvider, RETURN_PATH, type PaymentProvider } from './simulator'
import { withLocale } from '../../kernel/core/locale-path'
import { createSimulatedPayouts, type PayoutProvider } from './payout-simulator'
import { withdrawalPolicy } from './withdrawal-policy'
import { createWithdrawalRouter } from './withdrawal-routes'
import { announceParticipation } from '../promotions'

export const DEPOSIT_SCHEMA = {
  type: 'object',
  required: ['amount', 'method'],
  additionalProperties: false,
  properties: {
    amount: { type: 'number', exclusiveMinimum: 0, maximum: 1_000_000_000, description: 'Major units of the punter\'s currency, with at most its decimals (read exactly, never rounded).' },
    method: { type: 'string', pattern: '^[a-z0-9-]{1,40}$', description: 'A payment source id of the site for the punter\'s currency.' },
    idempotencyKey: idempotencyKeyProperty('The same key answers the first payment again (a double tap pays once).'),
  },
} as const

const METHODS_QUERY = { type: 'object', additionalProperties: false, properties: { locale: { type: 'string', pattern: '^[a-z]{2,3}$' } } } as const

export const CONFIRM_SCHEMA = {
  type: 'object',
  required: ['paymentId'],
  additionalProperties: false,
  properties: { paymentId: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' } },
} as const

const limitValue = { anyOf: [{ type: 'number', minimum: 0, maximum: 1_000_000_000 }, { type: 'null' }], description: 'Major units; null removes the limit (a looser limit waits the cooling-off time).' } as const
export const LIMITS_SCHEMA = {
  type: 'object',
  minProperties: 1,
  additionalProperties: false,
  properties: { daily: limitValue, weekly: limitValue, monthly: limitValue },
} as const

export const PROMO_INPUT_SCHEMA = {
  type: 'object',
  required: ['promoCode'],
  additionalProperties: false,
  properties: { promoCode: { type: 'string', minLength: 1, maxLength: 40, pattern: '\\S' } },
} as const

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

export interface PaymentServices {
  provider?: PaymentProvider
  /** Pays withdrawals out (default: the simulator's payouts when simulators are on). */
  payouts?: PayoutProvider
}

export function createPaymentsRouter(deps: ServerDeps, services: PaymentServices = {}): Router {
  const router = Router()
  const gate = Router()
  const { data, log } = deps
  const simulator = deps.config.simulators && !services.provider ? createSimulatedProvider(data, deps.now) : undefined
  const provider = services.provider ?? simulator
  const payoutSimulator = deps.config.simulators && !services.payouts ? createSimulatedPayouts(data, deps.now) : undefined
  const auth = requirePunter(deps)
  const punterOf = (res: Response) => res.locals.punter as Punter
  // the punters store's row (group 5): read through its module, never joined
  const freshBalance = async (punterId: number) => {
    const punter = (await findPunterById(data, punterId))!
    return { balance_minor: punter.balanceMinor, first_deposit_date: punter.firstDepositDate }
  }

  // Each source with its name in the asked locale (`label`), so a screen lists them as they are.
  router.get('/api/payments/methods', punterSiteIfLoggedIn(deps), validateQuery(METHODS_QUERY), (req, res) => {
    const context = siteContext(req, deps)
    const locale = typeof req.query.locale === 'string' && context.site.locales.includes(req.query.locale) ? req.query.locale : context.locale
    const texts = translationsFor(deps, context, locale)?.resources ?? {}
    const fallback = translationsFor(deps, context, 'en')?.resources ?? {}
    res.setHeader('Cache-Control', 'no-cache')
    res.setHeader('Vary', 'Host, Accept-Language, x-parlay-target, punter-session-hash')
    sendOk(res, paymentSources(deps, req).map((source) => ({ ...source, label: texts[source.name] ?? fallback[source.name] ?? source.id })))
  })

  gate.post('/payments/deposit', auth, validateBody(DEPOSIT_SCHEMA), async (req, res) => {
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
  })

  const settle = async (req: Request, res: Response, paymentId: string) => {
    const punter = punterOf(res)
    const payment = await findPayment(data.db, paymentId)
    if (!payment || payment.punterId !== punter.id) return sendError(res, 404, 'PAYMENT_NOT_FOUND')
    const playthrough = withdrawalPolicy(deps, punter).depositPlaythrough
    const settled = payment.status === 'pending' && provider ? (await settlePayment(deps, payment.id, await provider.outcome(payment.id), deps.now(), playthrough))! : payment
    if (settled.status !== payment.status) log.info('payments.deposit.settled', { punterId: punter.id, paymentId: payment.id, status: settled.status })
    const fresh = await freshBalance(punter.id)
    // a failed payment says why (a card declined is not a failed 3-D Secure): the provider's reason
    const failureCode = settled.status === 'failed' ? await provider?.failureCode?.(settled.id) : undefined
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, { ...paymentAnswer(settled, fresh.balance_minor, fresh.first_deposit_date), ...(failureCode ? { failureCode } : {}) })
  }
  gate.post('/payments/deposit/confirm', auth, validateBody(CONFIRM_SCHEMA), (req, res) => settle(req, res, (req.body as { paymentId: string }).paymentId))
  gate.get('/payments/deposit/:paymentId', auth, async (req, res) => {
    const id = String(req.params.paymentId)
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) return sendError(res, 400, HTTP_ERRORS.validation, { field: 'paymentId', code: 'pattern' })
    await settle(req, res, id)
  })

  const limitsAnswer = async (req: Request, punter: Punter) => {
    // the counter shows credited money: payments the provider decided meanwhile are applied first
    await settlePendingPayments(deps, provider, punter.id, deps.now())
    const policy = depositLimitPolicy(deps, req, punter.currency)
    return limitsView(req, punter, policy, await limitStates(data.db, punter.id, policy, deps.now()))
  }
  const lossAnswer = async (req: Request, punter: Punter) => {
    const policy = lossLimitPolicy(deps, req, punter.currency)
    return policy ? limitsView(req, punter, policy, await lossLimitStates(data.db, punter.id, policy, deps.now())) : null
  }
  const limitsView = <T extends { pending: { effectiveAt: string } | null }>(req: Request, punter: Punter, policy: DepositLimitPolicy, states: T[]) => {
    const when = dateTimeText(siteContext(req, deps).locale)
    const limits = states.map((limit) => (limit.pending ? { ...limit, pending: { ...limit.pending, effectiveAtText: when(limit.pending.effectiveAt) } } : limit))
    return { currency: punter.currency, increaseTakesEffectAfterHours: policy.increaseTakesEffectAfterHours, limits }
  }
  gate.get('/payments/deposit-limits', auth, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, await limitsAnswer(req, punterOf(res)))
  })
  gate.put('/payments/deposit-limits', auth, validateBody(LIMITS_SCHEMA), (req, res) => putLimits(req, res, depositLimitPolicy(deps, req, punterOf(res).currency), 'deposit_limits', limitsAnswer))
  gate.get('/payments/loss-limits', auth, async (req, res) => {
    const answer = await lossAnswer(req, punterOf(res))
    if (!answer) return sendError(res, 404, 'LOSS_LIMITS_NOT_OFFERED')
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, answer)
  })
  gate.put('/payments/loss-limits', auth, validateBody(LIMITS_SCHEMA), (req, res) => {
    const policy = lossLimitPolicy(deps, req, punterOf(res).currency)
    if (!policy) return sendError(res, 404, 'LOSS_LIMITS_NOT_OFFERED')
    return putLimits(req, res, policy, 'loss_limits', async (r, p) => (await lossAnswer(r, p))!)
  })
  /** Sets the periods the body names (null removes one): stricter at once, looser after the cooling-off. */
  const putLimits = async (req: Request, res: Response, policy: DepositLimitPolicy, table: LimitTableName, answer: (req: Request, punter: Punter) => Promise<object>) => {
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
    await data.transaction(
      async (tx) => {
        for (const [period, minor] of wanted) changes[period] = await setLimit(tx, punter.id, period, minor, policy, deps.now(), table)
      },
      { serialiseOn: `${table}:${punter.id}` },
    )
    log.info('payments.limits.set', { punterId: punter.id, table, changes })
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, { ...(await answer(req, punter)), changes })
  }

  gate.post('/bonus/punter/promo-code/input', auth, validateBody(PROMO_INPUT_SCHEMA), async (req, res) => {
    const punter = punterOf(res)
    const allowed = await assertAllowedFor(deps, req, punter.id, 'bet') // a bonus is for betting
    if (!allowed.ok) return sendError(res, allowed.httpStatus, allowed.code, allowed.payload)
    const codes = ((jurisdictionOf(deps, req) as unknown as { bonus?: { promoCodes?: PromoCodePolicy[] } })?.bonus?.promoCodes ?? []) as PromoCodePolicy[]
    const promo = findPromoCode(codes, (req.body as { promoCode: string }).promoCode, punter.profile.countryCode)
    if (!promo) return sendError(res, 400, 'INVALID_PROMO_CODE')
    const answer = await redeemPromoCode(data, punter, promo, deps.now())
    if (!answer.ok) return sendError(res, 409, answer.code)
    log.info('bonus.promo.redeemed', { punterId: punter.id, product: promo.reward.product })
    announceParticipation(deps, siteContext(req, deps).jurisdiction, punter.id, promo.code) // spec §3 promoParticipation
    sendOk(res, { promoCode: promo.code, reward: answer.reward, bonusInfo: answer.bonus })
  })

  gate.use(createWithdrawalRouter(deps, services.payouts ?? payoutSimulator))
  router.use(GATEWAY.mobile, gate)
  if (simulator) router.use(simulator.router())
  if (payoutSimulator) router.use(payoutSimulator.router())
  return router
}

export function createPaymentsModule(services: PaymentServices = {}): ServerModule {
  return {
    name: 'payments',
    mount(app, deps) {
      app.use(createPaymentsRouter(deps, services))
    },
  }
}

export const paymentsModule = createPaymentsModule()
