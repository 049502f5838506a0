/**
 * The withdrawal calls under the mobile gate (issue 28 item 5), beside the deposit ones:
 *
 *   GET  {mobile}/payments/withdrawals                      the cashier's view: withdrawable, payout sources, identity rule, the punter's withdrawals
 *   POST {mobile}/payments/withdrawal {amount, method, idempotencyKey?}   a pending withdrawal (money off the balance at once)
 *   POST {mobile}/payments/withdrawal/cancel {withdrawalId}              cancels a pending one (money back)
 *   GET  {mobile}/payments/withdrawal/{withdrawalId}        one withdrawal as it stands (asked at the provider first)
 *
 * The rules are the punter's own jurisdiction's (./withdrawal-policy.ts): which sources pay out and
 * their limits, the identity to verify above an amount, the deposits' play-through. Without a payout
 * provider (simulators off and none passed in) a withdrawal answers 503 SERVICE_UNAVAILABLE.
 */
import { Router, type Request, type Response } from 'express'
import { isIdentifiedState } from '../../kernel/core/identity-states'
import type { ServerDeps } from '../deps'
import { translationsFor } from '../documents/router'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { siteContext } from '../http/site'
import { idempotencyKeyProperty, validateBody } from '../http/validate'
import { realBalances } from '../punters/ledger'
import type { Punter } from '../punters/repository'
import { requirePunter } from '../signup/punters'
import { statusRefusal } from '../regulation/status-rules'
import type { PayoutProvider } from './payout-simulator'
import { withdrawalPolicy, type PayoutSource } from './withdrawal-policy'
import { closeWithdrawal, createWithdrawal, findWithdrawal, withdrawalsOf, type Withdrawal } from './withdrawals'

const ID_PATTERN = '^[A-Za-z0-9_-]{1,64}$'

export const WITHDRAWAL_SCHEMA = {
  type: 'object',
  required: ['amount', 'method'],
  additionalProperties: false,
  properties: {
    amount: { type: 'number', exclusiveMinimum: 0, maximum: 1_000_000_000, description: "Major units of the punter's currency, at most 2 decimals." },
    method: { type: 'string', pattern: '^[a-z0-9-]{1,40}$', description: "A payout source of the punter's jurisdiction for the punter's currency." },
    idempotencyKey: idempotencyKeyProperty('The same key answers the first withdrawal again (a double tap withdraws once).'),
  },
} as const

export const WITHDRAWAL_CANCEL_SCHEMA = {
  type: 'object',
  required: ['withdrawalId'],
  additionalProperties: false,
  properties: { withdrawalId: { type: 'string', pattern: ID_PATTERN } },
} as const

const hasAtMostTwoDecimals = (amount: number) => Math.abs(Math.round(amount * 100) - amount * 100) < 1e-6
const major = (minor: number) => minor / 100

const withdrawalView = (w: Withdrawal) => ({
  withdrawalId: w.id,
  status: w.status,
  amount: major(w.amountMinor),
  currency: w.currency,
  method: w.method,
  createdAt: new Date(w.createdAt).toISOString(),
  settledAt: w.settledAt === null ? null : new Date(w.settledAt).toISOString(),
  cancellable: w.status === 'pending',
})

/** Why the site's policy refuses this amount by this method, if it does: the amount's form, the source's range, the identity check. */
function withdrawalRefusal(amount: number, method: string, policy: ReturnType<typeof withdrawalPolicy>, punter: Punter): { status: number; code: string; details: object } | undefined {
  const closed = statusRefusal(punter.state, 'withdraw')
  if (closed) return { status: closed.httpStatus, code: closed.code, details: closed.payload }
  if (!hasAtMostTwoDecimals(amount)) return { status: 400, code: HTTP_ERRORS.validation, details: { field: 'amount', code: 'multipleOf' } }
  const source = policy.sources.find((s) => s.id === method)
  if (!source) return { status: 400, code: HTTP_ERRORS.validation, details: { field: 'method', code: 'enum' } }
  if (amount < source.minimum) return { status: 400, code: HTTP_ERRORS.validation, details: { field: 'amount', code: 'minimum', limit: source.minimum } }
  if (amount > source.maximum) return { status: 400, code: HTTP_ERRORS.validation, details: { field: 'amount', code: 'maximum', limit: source.maximum } }
  if (policy.identityCheckAbove !== null && amount > policy.identityCheckAbove && !isIdentifiedState(punter.identityState))
    return { status: 403, code: 'WITHDRAWAL_IDENTITY_REQUIRED', details: { limit: policy.identityCheckAbove, currency: punter.currency } }
  return undefined
}

export function createWithdrawalRouter(deps: ServerDeps, payouts: PayoutProvider | undefined): Router {
  const gate = Router()
  const { data, log } = deps
  const auth = requirePunter(deps)
  const punterOf = (res: Response) => res.locals.punter as Punter

  /** A pending withdrawal brought up to date with the provider (paid, failed, or cancelled there). */
  const sync = async (w: Withdrawal): Promise<Withdrawal> => {
    if (w.status !== 'pending' || !payouts) return w
    const outcome = await payouts.payoutOutcome(w.id)
    if (outcome === 'pending') return w
    const closed = await closeWithdrawal(data, w, outcome, deps.now())
    if (closed.status !== w.status) log.info('payments.withdrawal.settled', { punterId: w.punterId, withdrawalId: w.id, status: closed.status })
    return closed
  }
  const money = async (punterId: number) => {
    const now = await realBalances(data.db, punterId)
    return { balance: major(now.balance), withdrawable: major(now.withdrawable) }
  }
  const labelled = (req: Request, sources: PayoutSource[]) => {
    const context = siteContext(req, deps)
    const texts = translationsFor(deps, context, context.locale)?.resources ?? {}
    return sources.map((source) => ({ ...source, label: texts[source.name] ?? source.id }))
  }

  gate.get('/payments/withdrawals', auth, async (req, res) => {
    const punter = punterOf(res)
    const policy = withdrawalPolicy(deps, punter)
    const withdrawals = await Promise.all((await withdrawalsOf(data.db, punter.id)).map(sync))
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, {
      currency: punter.currency,
      ...(await money(punter.id)),
      sources: labelled(req, policy.sources),
      identity: { checkAbove: policy.identityCheckAbove, verified: isIdentifiedState(punter.identityState) },
      withdrawals: withdrawals.map(withdrawalView),
      pending: withdrawals.filter((w) => w.status === 'pending').map(withdrawalView),
    })
  })

  gate.post('/payments/withdrawal', auth, validateBody(WITHDRAWAL_SCHEMA), async (req, res) => {
    const punter = punterOf(res)
    const { amount, method, idempotencyKey } = req.body as { amount: number; method: string; idempotencyKey?: string }
    const policy = withdrawalPolicy(deps, punter)
    const refused = withdrawalRefusal(amount, method, policy, punter)
    if (refused) return sendError(res, refused.status, refused.code, refused.details)
    if (!payouts) return sendError(res, 503, 'SERVICE_UNAVAILABLE')
    const answer = await createWithdrawal(data, { punterId: punter.id, idempotencyKey: idempotencyKey ?? null, method, amountMinor: Math.round(amount * 100), currency: punter.currency }, deps.now())
    if (!answer.ok) return sendError(res, 409, answer.code, { withdrawable: major(answer.withdrawableMinor), currency: punter.currency })
    // sent (again, idempotently) while pending: a crash between the commit and this call leaves nothing unsent
    if (answer.withdrawal.status === 'pending') await payouts.payout(answer.withdrawal)
    if (answer.created) log.info('payments.withdrawal.started', { punterId: punter.id, withdrawalId: answer.withdrawal.id, method, amountMinor: answer.withdrawal.amountMinor })
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, { ...withdrawalView(answer.withdrawal), ...(await money(punter.id)) })
  })

  gate.post('/payments/withdrawal/cancel', auth, validateBody(WITHDRAWAL_CANCEL_SCHEMA), async (req, res) => {
    const punter = punterOf(res)
    const found = await findWithdrawal(data.db, (req.body as { withdrawalId: string }).withdrawalId)
    if (!found || found.punterId !== punter.id) return sendError(res, 404, 'WITHDRAWAL_NOT_FOUND')
    if (!payouts) return sendError(res, 503, 'SERVICE_UNAVAILABLE')
    // stopped at the provider first: money never comes back for a payout the provider still makes
    const stopped = found.status === 'pending' && (await payouts.cancelPayout(found.id))
    const now = stopped ? await closeWithdrawal(data, found, 'cancelled', deps.now()) : await sync(found)
    if (now.status !== 'cancelled') return sendError(res, 409, 'WITHDRAWAL_NOT_CANCELLABLE', { status: now.status })
    if (stopped) log.info('payments.withdrawal.cancelled', { punterId: punter.id, withdrawalId: found.id })
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, { ...withdrawalView(now), ...(await money(punter.id)) })
  })

  gate.get('/payments/withdrawal/:withdrawalId', auth, async (req, res) => {
    const id = String(req.params.withdrawalId)
    if (!new RegExp(ID_PATTERN).test(id)) return sendError(res, 400, HTTP_ERRORS.validation, { field: 'withdrawalId', code: 'pattern' })
    const found = await findWithdrawal(data.db, id)
    if (!found || found.punterId !== punterOf(res).id) return sendError(res, 404, 'WITHDRAWAL_NOT_FOUND')
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, { ...withdrawalView(await sync(found)), ...(await money(found.punterId)) })
  })
  return gate
}
