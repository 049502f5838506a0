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
import { Router } from 'express'
import { GATEWAY, type ServerDeps } from '../deps'
import { validateBody, validateQuery, idempotencyKeyProperty } from '../http/validate'
import type { ServerModule } from '../module'
import { requirePunter } from '../signup/punters'
import { punterSiteIfLoggedIn } from '../auth/session-check'
import { createSimulatedProvider, type PaymentProvider } from './simulator'
import { createSimulatedPayouts, type PayoutProvider } from './payout-simulator'
import { createWithdrawalRouter } from './withdrawal-routes'
import * as handle from './handlers'

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

export interface PaymentServices {
  provider?: PaymentProvider
  /** Pays withdrawals out (default: the simulator's payouts when simulators are on). */
  payouts?: PayoutProvider
}

export function createPaymentsRouter(deps: ServerDeps, services: PaymentServices = {}): Router {
  const router = Router()
  const gate = Router()
  const { data } = deps
  const simulator = deps.config.simulators && !services.provider ? createSimulatedProvider(data, deps.now) : undefined
  const provider = services.provider ?? simulator
  const payoutSimulator = deps.config.simulators && !services.payouts ? createSimulatedPayouts(data, deps.now) : undefined
  const auth = requirePunter(deps)
  const kit: handle.PaymentKit = { deps, provider }
  router.get('/api/payments/methods', punterSiteIfLoggedIn(deps), validateQuery(METHODS_QUERY), handle.paymentMethods(deps))
  gate.post('/payments/deposit', auth, validateBody(DEPOSIT_SCHEMA), handle.startDeposit(kit))
  gate.post('/payments/deposit/confirm', auth, validateBody(CONFIRM_SCHEMA), handle.confirmDeposit(kit))
  gate.get('/payments/deposit/:paymentId', auth, handle.depositStatus(kit))
  gate.get('/payments/deposit-limits', auth, handle.depositLimits(kit))
  gate.put('/payments/deposit-limits', auth, validateBody(LIMITS_SCHEMA), handle.putDepositLimits(kit))
  gate.get('/payments/loss-limits', auth, handle.lossLimits(deps))
  gate.put('/payments/loss-limits', auth, validateBody(LIMITS_SCHEMA), handle.putLossLimits(deps))
  gate.post('/bonus/punter/promo-code/input', auth, validateBody(PROMO_INPUT_SCHEMA), handle.promoCodeInput(deps))
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
