/**
 * Deposit limits a punter sets (daily, weekly, monthly; spec §8 DAILY_/WEEKLY_/MONTHLY_DEPOSIT_LIMIT_EXCEED).
 *
 * Responsible-gambling rule: a stricter limit protects the punter, so lowering (or setting a first
 * limit) applies at once; a looser one (raised or removed) waits the jurisdiction's cooling-off
 * time (`regulatory.depositLimits.increaseTakesEffectAfterHours`) and only then applies, read
 * lazily against the injected clock. Amounts are kept in minor units.
 *
 * What counts against a limit (docs/adr/0006-deposit-limit-counts-credited-money.md): the deposits
 * CREDITED in the rolling window (by the time the money arrived), plus the payments still in
 * progress at the provider, held as a reservation until their outcome is known. A failed, abandoned
 * or expired payment never counts. The punter's counter (`used`) shows only credited money; the
 * reservation is shown apart (`inProgress`).
 *
 * On the query layer (issue 16): every function takes the database or a transaction of it, so the
 * deposit route checks the limits and records the payment in one transaction (./index.ts).
 *
 * The punter's own limit (null: none set) is kept apart from the jurisdiction's maximum, which caps
 * it: the page shows "No limit set (at most …)", never the maximum as if the punter had set it. The
 * rows and their rules serve the loss limits too (./loss-limits.ts, table `loss_limits`).
 */
import type { Kysely } from 'kysely'
import { schemaStep, sqliteHistory } from '../db/schema'
import type { Tables } from '../db/tables'
import { toMajor } from '../../kernel/core/money'
import { PERIOD_MS, type DepositLimitPolicy, type LimitPeriod } from './policy'

export const sqliteMoney602DepositLimits = sqliteHistory(
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

/** One row per punter and period; the deposit and the loss limits (./loss-limits.ts) share the shape. */
export interface LimitTable {
  punter_id: number
  period: string
  amount_minor: number | null
  /** 1 while a looser limit waits for its cooling-off time. */
  pending: number
  pending_amount_minor: number | null
  pending_effective_at: number | null
  updated_at: number
}

declare module '../db/tables' {
  interface Tables {
    deposit_limits: LimitTable
  }
}

/** Creates a limits table of the shape above (the same DDL for both kinds). */
export async function createLimitTable(db: Kysely<Tables>, table: LimitTableName): Promise<void> {
  await db.schema
    .createTable(table)
    .ifNotExists()
    .addColumn('punter_id', 'bigint', (c) => c.notNull())
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint')
    .addColumn('pending', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pending_amount_minor', 'bigint')
    .addColumn('pending_effective_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint(`${table}_pk`, ['punter_id', 'period'])
    .execute()
}

export const q043DepositLimits = schemaStep('q043-deposit-limits', (db) => createLimitTable(db, 'deposit_limits'))

type LimitRow = Pick<LimitTable, 'amount_minor' | 'pending' | 'pending_amount_minor' | 'pending_effective_at'>

/** The tables that hold a punter's limits, one row per period, all of this shape (loss limits: ./loss-limits.ts). */
export type LimitTableName = 'deposit_limits' | 'loss_limits'

export interface LimitState {
  period: LimitPeriod
  /** The limit the punter has in force now (major units): one set, or the jurisdiction's default; null for none. */
  amount: number | null
  /** A looser limit waiting for its cooling-off time. */
  pending: { amount: number | null; effectiveAt: string } | null
  /** The most the jurisdiction allows (major units; null: no maximum). Without a limit of the punter's, this applies. */
  maximum: number | null
  /** Deposits credited in the rolling window now (major units): only money that arrived. */
  used: number
  /** Payments started and not yet decided by the provider (major units): held against every limit meanwhile. */
  inProgress: number
}

const majorOf = (policy: DepositLimitPolicy) => (minor: number | null | undefined) => (minor === null || minor === undefined ? null : toMajor(minor, policy.currency))

function row(db: Kysely<Tables>, table: LimitTableName, punterId: number, period: LimitPeriod): Promise<LimitRow | undefined> {
  // both tables have the same columns (the loss table is declared in ./loss-limits.ts)
  return db.selectFrom(table as 'deposit_limits').select(['amount_minor', 'pending', 'pending_amount_minor', 'pending_effective_at']).where('punter_id', '=', punterId).where('period', '=', period).executeTakeFirst()
}

/** The punter's own limit at `now` (minor units; null = none set): a set one, a due raise or removal, or the jurisdiction's default. */
export async function ownLimit(db: Kysely<Tables>, punterId: number, period: LimitPeriod, policy: DepositLimitPolicy, now: number, table: LimitTableName = 'deposit_limits'): Promise<number | null> {
  const current = await row(db, table, punterId, period)
  if (!current) return policy.defaults[period] ?? null
  if (current.pending === 1 && current.pending_effective_at !== null && current.pending_effective_at <= now) return current.pending_amount_minor
  return current.amount_minor
}

/** The limit in force at `now` (minor units; null = none): the punter's own, or the jurisdiction's maximum when lower or none is set. */
export async function limitInForce(db: Kysely<Tables>, punterId: number, period: LimitPeriod, policy: DepositLimitPolicy, now: number, table: LimitTableName = 'deposit_limits'): Promise<number | null> {
  const amount = await ownLimit(db, punterId, period, policy, now, table)
  const cap = policy.maximum[period] ?? null
  if (cap !== null && (amount === null || amount > cap)) return cap
  return amount
}

/** A period's limit as the punter sees it: their own (null: none set), a waiting looser one, the jurisdiction's maximum. */
export async function ownState(db: Kysely<Tables>, table: LimitTableName, punterId: number, period: LimitPeriod, policy: DepositLimitPolicy, now: number): Promise<Pick<LimitState, 'period' | 'amount' | 'pending' | 'maximum'>> {
  const major = majorOf(policy)
  const current = await row(db, table, punterId, period)
  const waiting = current?.pending === 1 && current.pending_effective_at !== null && current.pending_effective_at > now
  return {
    period,
    amount: major(await ownLimit(db, punterId, period, policy, now, table)),
    pending: waiting ? { amount: major(current!.pending_amount_minor), effectiveAt: new Date(current!.pending_effective_at!).toISOString() } : null,
    maximum: major(policy.maximum[period]),
  }
}

/** Deposits credited in the rolling window ending at `now` (counted when the money arrived), minor units. */
export async function creditedInWindow(db: Kysely<Tables>, punterId: number, period: LimitPeriod, now: number): Promise<number> {
  const row = await db
    .selectFrom('payments')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_minor'), eb.lit(0)).as('total'))
    .where('punter_id', '=', punterId)
    .where('status', '=', 'succeeded')
    .where('settled_at', '>', now - PERIOD_MS[period])
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

/** Payments of the punter still pending (their outcome not known yet), minor units: the reservation. */
export async function inProgressMinor(db: Kysely<Tables>, punterId: number): Promise<number> {
  const row = await db
    .selectFrom('payments')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_minor'), eb.lit(0)).as('total'))
    .where('punter_id', '=', punterId)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

export interface LimitExceeded {
  period: LimitPeriod
  /** The limit in force, credited money and money in progress, in major units (what the page explains). */
  limit: number
  used: number
  inProgress: number
}

/** The first period whose limit this deposit would pass (credited + in progress + this one), or null. */
export async function exceededPeriod(db: Kysely<Tables>, punterId: number, amountMinor: number, policy: DepositLimitPolicy, now: number): Promise<LimitExceeded | null> {
  const reserved = await inProgressMinor(db, punterId)
  for (const period of policy.periods) {
    const limit = await limitInForce(db, punterId, period, policy, now)
    if (limit === null) continue
    const credited = await creditedInWindow(db, punterId, period, now)
    const major = majorOf(policy)
    if (credited + reserved + amountMinor > limit) return { period, limit: major(limit)!, used: major(credited)!, inProgress: major(reserved)! }
  }
  return null
}

export async function limitStates(db: Kysely<Tables>, punterId: number, policy: DepositLimitPolicy, now: number): Promise<LimitState[]> {
  const states: LimitState[] = []
  const major = majorOf(policy)
  const inProgress = major(await inProgressMinor(db, punterId))!
  for (const period of policy.periods) {
    const own = await ownState(db, 'deposit_limits', punterId, period, policy, now)
    states.push({ ...own, used: major(await creditedInWindow(db, punterId, period, now))!, inProgress })
  }
  return states
}

export type LimitChange = 'applied' | 'pending' | 'unchanged'

/**
 * Sets one period's limit (minor units; null = no limit) in `table`. Stricter → in force now (and
 * any waiting raise is dropped); looser (higher, or a removal) → waits `increaseTakesEffectAfterHours`.
 * Compared with the punter's own limit, not the jurisdiction's maximum: removing a limit where a
 * maximum exists still waits. Call it inside a transaction (the read and the write belong together).
 */
export async function setLimit(tx: Kysely<Tables>, punterId: number, period: LimitPeriod, wanted: number | null, policy: DepositLimitPolicy, now: number, table: LimitTableName = 'deposit_limits'): Promise<LimitChange> {
  const current = await ownLimit(tx, punterId, period, policy, now, table)
  const stricter = current === null ? wanted !== null : wanted !== null && wanted < current
  const upsert = (values: LimitRow) =>
    tx
      .insertInto(table as 'deposit_limits')
      .values({ punter_id: punterId, period, ...values, updated_at: now })
      .onConflict((oc) => oc.columns(['punter_id', 'period']).doUpdateSet({ ...values, updated_at: now }))
      .execute()
  if (stricter || wanted === current) {
    await upsert({ amount_minor: wanted, pending: 0, pending_amount_minor: null, pending_effective_at: null })
    return stricter ? 'applied' : 'unchanged'
  }
  await upsert({ amount_minor: current, pending: 1, pending_amount_minor: wanted, pending_effective_at: now + policy.increaseTakesEffectAfterHours * 3_600_000 })
  return 'pending'
}
