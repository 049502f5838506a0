/**
 * Placing a bet (issue 14 item 5). The server, not the page, decides: each selection must exist and
 * be open; each price the punter saw is checked against the current one under the punter's
 * odds-change policy (spec §3 betPlacingMode); the stake follows the money rules; the bet is
 * written once per idempotency key and its stake debited once under a unique ledger reference, so
 * a double tap places one bet (the second answers the first).
 *
 * Money (issue 28 item 2, docs/money-rules.md): the stake is read exactly in minor units or refused;
 * the potential win is computed exactly (kernel/core/payout.ts) at the current prices and must fit
 * the jurisdiction's maximum payout per bet and, with the punter's other bets of the last 24 hours,
 * its maximum daily payout, all before the bet is accepted.
 */
import { toMajor } from '../../kernel/core/money'
import { priceAccepted, type BetPlacingMode } from '../../kernel/core/odds'
import { potentialWinMinor } from '../../kernel/core/payout'
import type { ServerDeps } from '../deps'
import type { Feed, SelectionView } from '../feed'
import { changeBalance, type BalanceChange, type ChangeRefusal } from '../punters/events'
import { checkStake, PAYOUT_DAY_MS, type BetBounds, type Refusal } from './bounds'
import { findBet, findBetByKey, insertPendingBet, openPendingBet, withdrawPendingBet, type Bet, type BetKind } from './store'

// the odds-change policy is one rule for the slip and the server (kernel/core/odds.ts)
export { BET_PLACING_MODES, priceAccepted, type BetPlacingMode } from '../../kernel/core/odds'

export const MAX_LEGS = 20
/** The product whose bonus account a bet's stake uses (docs/adr/0003-real-and-bonus-money.md). */
export const BET_PRODUCT = 'sport'

export interface Pick {
  selectionId: string
  /** The price the punter saw (decimal). */
  price: number
}

export interface Placement {
  punterId: number
  currency: string
  kind: BetKind
  picks: Pick[]
  /** Major units, as the punter sent it. */
  stake: number
  idempotencyKey: string
  mode: BetPlacingMode
  /** The punter's jurisdiction's bounds in the punter's currency (./bounds.ts). */
  bounds: BetBounds
  /** Checked with the stake's debit, in the punter's lock: the loss limits (server/payments/loss-limits.ts lossGuard). */
  guard?: StakeGuard
}

/** A rule a stake must pass in its ledger transaction, given the stake (minor units). */
export type StakeGuard = (stakeMinor: number) => BalanceChange['guard']

export interface PriceChange {
  selectionId: string
  price: number
  previous: number
}

export type PlacementResult =
  | { ok: true; bet: Bet; created: boolean }
  | { ok: false; httpStatus: number; code: string; payload?: Record<string, unknown> }

const describe = (s: SelectionView) => `${s.event.home} – ${s.event.away}: ${s.line === undefined ? s.code : `${s.code} ${s.line}`}`

/** The bet's shape and its stake in minor units, or why it cannot be taken. */
function checkShape(p: Placement): { ok: true; stakeMinor: number } | Refusal {
  if (p.kind === 'single' && p.picks.length !== 1) return { ok: false, httpStatus: 400, code: 'ValidationError', payload: { field: 'selections', code: 'single' } }
  if (p.kind === 'accumulator' && (p.picks.length < 2 || p.picks.length > MAX_LEGS)) return { ok: false, httpStatus: 400, code: 'ValidationError', payload: { field: 'selections', code: 'accumulator' } }
  if (new Set(p.picks.map((x) => x.selectionId)).size !== p.picks.length) return { ok: false, httpStatus: 400, code: 'ValidationError', payload: { field: 'selections', code: 'uniqueItems' } }
  return checkStake(p.stake, p.currency, p.bounds.stake)
}

/** The potential win at the current prices, exactly, when it fits the maximum payout per bet. */
export function checkPayout(stakeMinor: number, prices: readonly number[], bounds: BetBounds, currency: string): { ok: true; potentialWinMinor: number } | Refusal {
  const potential = potentialWinMinor(stakeMinor, prices)
  if (potential > BigInt(bounds.maximumPayoutMinor)) return { ok: false, httpStatus: 400, code: 'PAYOUT_TOO_HIGH', payload: { limit: toMajor(bounds.maximumPayoutMinor, currency), currency } }
  return { ok: true, potentialWinMinor: Number(potential) }
}

/** The selections as they stand now, or why the bet cannot be taken. */
function currentSelections(feed: Feed, p: Placement): { ok: true; views: SelectionView[] } | Extract<PlacementResult, { ok: false }> {
  const views = p.picks.map((pick) => feed.selection(pick.selectionId))
  const missing = p.picks.filter((_, i) => !views[i] || views[i]!.status === 'SETTLED').map((x) => x.selectionId)
  if (missing.length) return { ok: false, httpStatus: 409, code: 'SELECTION_NOT_AVAILABLE', payload: { selectionIds: missing } }
  const suspended = views.filter((v) => v!.status === 'SUSPENDED').map((v) => v!.id)
  if (suspended.length) return { ok: false, httpStatus: 409, code: 'SELECTION_SUSPENDED', payload: { selectionIds: suspended } }
  if (p.kind === 'accumulator' && new Set(views.map((v) => v!.event.id)).size !== views.length)
    return { ok: false, httpStatus: 409, code: 'RELATED_SELECTIONS', payload: { selectionIds: p.picks.map((x) => x.selectionId) } }
  const changes: PriceChange[] = []
  p.picks.forEach((pick, i) => {
    const current = views[i]!.price
    if (!priceAccepted(p.mode, pick.price, current)) changes.push({ selectionId: pick.selectionId, price: current, previous: pick.price })
  })
  if (changes.length) return { ok: false, httpStatus: 409, code: 'ODDS_CHANGED', payload: { mode: p.mode, changes } }
  return { ok: true, views: views as SelectionView[] }
}

/**
 * Debits a pending bet's stake (once: the ledger reference `bet:<id>` is unique) and opens it; a
 * debit refused for funds withdraws the bet. A bet found again (a double tap, a retry after a crash
 * between the steps, the sweep of ./settlement.ts) runs the same steps: its stake is taken once.
 * A guard's refusal (a loss limit) withdraws the bet too. Answers whether this call debited it,
 * 'INSUFFICIENT_FUNDS', or the guard's refusal.
 */
export async function stakePendingBet(deps: { db: ServerDeps['db']; data: ServerDeps['data'] }, bet: Bet, now: number, guard?: StakeGuard): Promise<boolean | 'INSUFFICIENT_FUNDS' | ChangeRefusal> {
  const { data } = deps
  // the stake must be covered: the balance update itself checks it (a debit never overdraws)
  // real money first, then the sport bonus account; the stake counts towards its wagering (server/punters/stakes.ts)
  const change = await changeBalance(data, { punterId: bet.punterId, amountMinor: -bet.stakeMinor, reference: `bet:${bet.id}`, kind: 'bet', now, stake: { product: BET_PRODUCT, stakeMinor: bet.stakeMinor }, guard: guard?.(bet.stakeMinor) })
  if (change.refused) {
    await withdrawPendingBet(data, bet.id)
    return change.refused
  }
  if (change.insufficient) {
    await withdrawPendingBet(data, bet.id)
    return 'INSUFFICIENT_FUNDS'
  }
  if (await openPendingBet(data, bet.id)) return change.applied
  // withdrawn meanwhile (a parallel request of the key was refused for funds just before a
  // deposit let this debit through): the stake goes back, once, and the bet is not placed
  if (change.applied) await changeBalance(data, { punterId: bet.punterId, amountMinor: bet.stakeMinor, reference: `bet-withdrawn:${bet.id}`, kind: 'bet-refund', now, paysBack: { reference: `bet:${bet.id}`, refund: true } })
  return 'INSUFFICIENT_FUNDS'
}

/**
 * Places a bet. The bet (this store, the query layer) and its stake (the punters store's
 * `changeBalance`) are two steps, ordered so a failure between them loses nothing
 * (server/db/README.md, step 6): first the bet, written pending and fixed for its key (parallel
 * requests with the key, on any instance, keep the first); then the debit and the opening
 * (stakePendingBet). Only a bet with its stake debited is answered as placed.
 */
export async function placeBet(deps: { db: ServerDeps['db']; data: ServerDeps['data'] }, feed: Feed, p: Placement, now: number): Promise<PlacementResult> {
  const { data } = deps
  let bet = await findBetByKey(data.db, p.punterId, p.idempotencyKey)
  if (!bet) {
    const shape = checkShape(p)
    if (!shape.ok) return shape
    const current = currentSelections(feed, p)
    if (!current.ok) return current
    const payout = checkPayout(shape.stakeMinor, current.views.map((v) => v.price), p.bounds, p.currency)
    if (!payout.ok) return payout
    const price = Math.round(current.views.reduce((product, v) => product * v.price, 1) * 100) / 100
    const legs = current.views.map((v) => ({ selectionId: v.id, eventId: v.event.id, price: v.price, description: describe(v) }))
    const daily = { maximumMinor: p.bounds.maximumDailyPayoutMinor, windowMs: PAYOUT_DAY_MS }
    const written = await insertPendingBet(data, { punterId: p.punterId, idempotencyKey: p.idempotencyKey, kind: p.kind, stakeMinor: shape.stakeMinor, currency: p.currency, price, potentialWinMinor: payout.potentialWinMinor, legs }, now, daily)
    if ('exceeded' in written)
      return { ok: false, httpStatus: 403, code: 'DAILY_PAYOUT_LIMIT_EXCEED', payload: { limit: toMajor(daily.maximumMinor, p.currency), available: toMajor(written.availableMinor, p.currency), currency: p.currency } }
    bet = written
  }
  if (bet.status !== 'pending') return { ok: true, bet, created: false }
  const staked = await stakePendingBet(deps, bet, now, p.guard)
  if (staked === 'INSUFFICIENT_FUNDS') return { ok: false, httpStatus: 409, code: 'INSUFFICIENT_FUNDS' }
  if (typeof staked === 'object') return staked
  return { ok: true, bet: (await findBet(data.db, bet.id))!, created: staked }
}
