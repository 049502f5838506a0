/**
 * Loss limits a punter sets (daily, weekly, monthly), beside the deposit limits (./limits.ts, whose
 * rules they share: lowering or a first limit applies at once; raising or removing waits the
 * jurisdiction's cooling-off, `regulatory.lossLimits.increaseTakesEffectAfterHours`).
 *
 * Net loss over a rolling period (docs/money-rules.md "Loss limits"): the punter's REAL money that
 * went into bets and casino rounds less the real money they returned, read from the ledger: entries
 * on the `real` account of kinds `bet` (a stake, when placed), `bet-win`, `bet-cashout`,
 * `bet-refund` (money back) and `game` (a round: win − stake), created in the window. Deposits,
 * withdrawals, bonus money and its conversion are not play and do not count. A net win makes the
 * figure negative: it leaves more room.
 *
 * A stake is refused (LOSS_LIMIT_EXCEEDED) when the loss so far plus the whole stake (as if it
 * were lost) would pass a limit. The check runs inside the stake's ledger transaction, which holds
 * the punter's lock (server/punters/events.ts `guard`), so parallel stakes never pass it together.
 */
import type { Request } from 'express'
import type { Kysely } from 'kysely'
import type { ServerDeps } from '../deps'
import type { BalanceChange } from '../punters/events'
import { schemaStep } from '../db/schema'
import type { Tables } from '../db/tables'
import { toMajor } from '../../kernel/core/money'
import { REAL } from '../punters/accounts'
import { createLimitTable, limitInForce, ownState, type LimitState, type LimitTable } from './limits'
import { lossLimitPolicy, PERIOD_MS, type DepositLimitPolicy, type LimitPeriod } from './policy'

/** Ledger kinds that are play: stakes and what they returned. */
export const LOSS_KINDS = ['bet', 'bet-win', 'bet-cashout', 'bet-refund', 'game'] as const

declare module '../db/tables' {
  interface Tables {
    loss_limits: LimitTable
  }
}

export const q092LossLimits = schemaStep('q092-loss-limits', (db) => createLimitTable(db, 'loss_limits'))

/** The punter's net loss (minor units; negative for a net win) in the rolling window ending at `now`. */
export async function netLossInWindow(db: Kysely<Tables>, punterId: number, period: LimitPeriod, now: number): Promise<number> {
  const row = await db
    .selectFrom('ledger_entries')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_minor'), eb.lit(0)).as('total'))
    .where('punter_id', '=', punterId)
    .where('account', '=', REAL)
    .where('kind', 'in', [...LOSS_KINDS])
    .where('created_at', '>', now - PERIOD_MS[period])
    .executeTakeFirstOrThrow()
  return -Number(row.total)
}

export interface LossState extends Omit<LimitState, 'inProgress'> {
  /** `used` is the net loss in the window (major units; never shown below 0). */
  used: number
}

export async function lossLimitStates(db: Kysely<Tables>, punterId: number, policy: DepositLimitPolicy, now: number): Promise<LossState[]> {
  const states: LossState[] = []
  for (const period of policy.periods) {
    const own = await ownState(db, 'loss_limits', punterId, period, policy, now)
    states.push({ ...own, used: toMajor(Math.max(0, await netLossInWindow(db, punterId, period, now)), policy.currency) })
  }
  return states
}

export interface LossExceeded {
  period: LimitPeriod
  /** Major units: the limit, the net loss so far (0 when ahead), and what may still be staked. */
  limit: number
  used: number
  available: number
  currency: string
}

/** The first period whose loss limit this stake (counted as lost) would pass, or null. */
export async function lossExceeded(db: Kysely<Tables>, punterId: number, stakeMinor: number, policy: DepositLimitPolicy, now: number): Promise<LossExceeded | null> {
  for (const period of policy.periods) {
    const limit = await limitInForce(db, punterId, period, policy, now, 'loss_limits')
    if (limit === null) continue
    const loss = await netLossInWindow(db, punterId, period, now)
    if (loss + stakeMinor > limit) {
      const major = (minor: number) => toMajor(minor, policy.currency)
      return { period, limit: major(limit), used: major(Math.max(0, loss)), available: major(Math.max(0, limit - loss)), currency: policy.currency }
    }
  }
  return null
}

/** The guard a stake runs inside its ledger transaction (server/punters/events.ts): refuses it past a loss limit. */
export function lossGuard(policy: DepositLimitPolicy | null, stakeMinor: number, now: number): BalanceChange['guard'] {
  if (!policy) return undefined
  return async (tx, punterId) => {
    const exceeded = await lossExceeded(tx, punterId, stakeMinor, policy, now)
    if (!exceeded) return null
    const { period, limit, used, available, currency } = exceeded
    return { ok: false, httpStatus: 403, code: 'LOSS_LIMIT_EXCEEDED', payload: { period, limit, used, available, currency } }
  }
}

/** For a stake route: the guard of a stake, under the loss limits of the punter's own jurisdiction (the request is bound to it). */
export function stakeGuardFor(deps: Pick<ServerDeps, 'documents' | 'now'>, req: Request, currency: string): (stakeMinor: number) => BalanceChange['guard'] {
  const policy = lossLimitPolicy(deps, req, currency)
  const now = deps.now()
  return (stakeMinor) => lossGuard(policy, stakeMinor, now)
}
