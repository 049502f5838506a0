/**
 * Deposit limits a punter sets (daily, weekly, monthly; spec §8 DAILY_/WEEKLY_/MONTHLY_DEPOSIT_LIMIT_EXCEED).
 *
 * Responsible-gambling rule: a stricter limit protects the punter, so lowering (or setting a first
 * limit) applies at once; a looser one (raised or removed) waits the jurisdiction's cooling-off
 * time (`regulatory.depositLimits.increaseTakesEffectAfterHours`) and only then applies, read
 * lazily against the injected clock. Amounts are kept in minor units.
 */
import { registerMigration, type Db } from '../db/database'
import { PERIOD_MS, type DepositLimitPolicy, type LimitPeriod } from './policy'

registerMigration(
  'money-602-deposit-limits',
  `CREATE TABLE deposit_limits (
     punter_id INTEGER NOT NULL REFERENCES punters(id),
     period TEXT NOT NULL,
     amount_minor INTEGER,
     pending INTEGER NOT NULL DEFAULT 0,
     pending_amount_minor INTEGER,
     pending_effective_at INTEGER,
     updated_at INTEGER NOT NULL,
     PRIMARY KEY (punter_id, period)
   );`,
)

interface LimitRow {
  amount_minor: number | null
  pending: number
  pending_amount_minor: number | null
  pending_effective_at: number | null
}

export interface LimitState {
  period: LimitPeriod
  /** The limit in force now (major units), null for none. */
  amount: number | null
  /** A looser limit waiting for its cooling-off time. */
  pending: { amount: number | null; effectiveAt: string } | null
  maximum: number | null
  /** Deposits counted in the rolling window now (major units). */
  used: number
}

const toMinor = (amount: number | null | undefined) => (amount === null || amount === undefined ? null : Math.round(amount * 100))
const toMajor = (minor: number | null) => (minor === null ? null : minor / 100)

function row(db: Db, punterId: number, period: LimitPeriod): LimitRow | undefined {
  return db.prepare('SELECT amount_minor, pending, pending_amount_minor, pending_effective_at FROM deposit_limits WHERE punter_id = ? AND period = ?').get(punterId, period) as LimitRow | undefined
}

/** The limit in force at `now` (minor units; null = none), the cap included. */
export function limitInForce(db: Db, punterId: number, period: LimitPeriod, policy: DepositLimitPolicy, now: number): number | null {
  const current = row(db, punterId, period)
  let amount = current ? current.amount_minor : toMinor(policy.defaults[period])
  if (current?.pending === 1 && current.pending_effective_at !== null && current.pending_effective_at <= now) amount = current.pending_amount_minor
  const cap = toMinor(policy.maximum[period])
  if (cap !== null && (amount === null || amount > cap)) return cap
  return amount
}

/** Deposits (succeeded or still in progress) in the rolling window ending at `now`, minor units. */
export function depositedInWindow(db: Db, punterId: number, period: LimitPeriod, now: number): number {
  const row = db
    .prepare("SELECT COALESCE(SUM(amount_minor), 0) AS total FROM payments WHERE punter_id = ? AND status IN ('pending', 'succeeded') AND created_at > ?")
    .get(punterId, now - PERIOD_MS[period]) as { total: number }
  return row.total
}

/** The first period whose limit this deposit would pass, or null. */
export function exceededPeriod(db: Db, punterId: number, amountMinor: number, policy: DepositLimitPolicy, now: number): LimitPeriod | null {
  for (const period of policy.periods) {
    const limit = limitInForce(db, punterId, period, policy, now)
    if (limit !== null && depositedInWindow(db, punterId, period, now) + amountMinor > limit) return period
  }
  return null
}

export function limitStates(db: Db, punterId: number, policy: DepositLimitPolicy, now: number): LimitState[] {
  return policy.periods.map((period) => {
    const current = row(db, punterId, period)
    const waiting = current?.pending === 1 && current.pending_effective_at !== null && current.pending_effective_at > now
    return {
      period,
      amount: toMajor(limitInForce(db, punterId, period, policy, now)),
      pending: waiting ? { amount: toMajor(current!.pending_amount_minor), effectiveAt: new Date(current!.pending_effective_at!).toISOString() } : null,
      maximum: policy.maximum[period] ?? null,
      used: depositedInWindow(db, punterId, period, now) / 100,
    }
  })
}

export type LimitChange = 'applied' | 'pending' | 'unchanged'

/**
 * Sets one period's limit (major units; null = no limit). Stricter → in force now (and any
 * waiting raise is dropped); looser → waits `increaseTakesEffectAfterHours`.
 */
export function setLimit(db: Db, punterId: number, period: LimitPeriod, amount: number | null, policy: DepositLimitPolicy, now: number): LimitChange {
  const wanted = toMinor(amount)
  return db.transaction((): LimitChange => {
    const current = limitInForce(db, punterId, period, policy, now)
    const stricter = current === null ? wanted !== null : wanted !== null && wanted < current
    const upsert = db.prepare(
      `INSERT INTO deposit_limits (punter_id, period, amount_minor, pending, pending_amount_minor, pending_effective_at, updated_at)
       VALUES (@punterId, @period, @amount, @pending, @pendingAmount, @effectiveAt, @now)
       ON CONFLICT(punter_id, period) DO UPDATE SET amount_minor = @amount, pending = @pending,
         pending_amount_minor = @pendingAmount, pending_effective_at = @effectiveAt, updated_at = @now`,
    )
    if (stricter || wanted === current) {
      upsert.run({ punterId, period, amount: wanted, pending: 0, pendingAmount: null, effectiveAt: null, now })
      return stricter ? 'applied' : 'unchanged'
    }
    const effectiveAt = now + policy.increaseTakesEffectAfterHours * 3_600_000
    upsert.run({ punterId, period, amount: current, pending: 1, pendingAmount: wanted, effectiveAt, now })
    return 'pending'
  })()
}
