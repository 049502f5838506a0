/**
 * Withdrawals (issue 28 item 5): the punter's money paid out through the same provider as deposits.
 *
 * A withdrawal takes its amount off the real balance at once (ledger `withdrawal:<id>`) and waits
 * `pending` at the provider; while it is pending the punter may cancel it, which gives the money
 * back (`withdrawal-cancel:<id>`); the provider then pays it (`paid`, nothing more moves) or fails it
 * (`failed`, the money comes back: `withdrawal-failed:<id>`). Every step is one transaction
 * serialised on the punter (./../punters/events.ts `applyChange`), so the status and the money move
 * together, and parallel withdrawals each see the withdrawable the one before left: together they
 * never take more than it. An idempotency key answers its first withdrawal again.
 */
import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { DataLayer } from '../db/data-layer'
import { oneOf, schemaStep } from '../db/schema'
import type { Tables } from '../db/tables'
import { announceBalance, applyChange } from '../punters/events'
import { realBalances } from '../punters/ledger'
import { punterLock } from '../punters/repository'

export const WITHDRAWAL_STATUSES = ['pending', 'paid', 'cancelled', 'failed'] as const
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number]

interface WithdrawalTable {
  id: string
  punter_id: number
  idempotency_key: string | null
  method: string
  amount_minor: number
  currency: string
  status: WithdrawalStatus
  created_at: number
  settled_at: number | null
}

declare module '../db/tables' {
  interface Tables {
    withdrawals: WithdrawalTable
  }
}

export const q086Withdrawals = schemaStep('q086-withdrawals', async (db) => {
  await db.schema
    .createTable('withdrawals')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('punter_id', 'bigint', (c) => c.notNull())
    .addColumn('idempotency_key', 'text')
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending').check(oneOf('status', WITHDRAWAL_STATUSES)))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('settled_at', 'bigint')
    .addUniqueConstraint('withdrawals_punter_key', ['punter_id', 'idempotency_key'])
    .execute()
  await db.schema.createIndex('withdrawals_punter_created').ifNotExists().on('withdrawals').columns(['punter_id', 'created_at']).execute()
})

export interface Withdrawal {
  id: string
  punterId: number
  method: string
  amountMinor: number
  currency: string
  status: WithdrawalStatus
  createdAt: number
  settledAt: number | null
}

const COLUMNS = ['id', 'punter_id', 'method', 'amount_minor', 'currency', 'status', 'created_at', 'settled_at'] as const
const toWithdrawal = (row: Omit<WithdrawalTable, 'idempotency_key'>): Withdrawal => ({
  id: row.id,
  punterId: Number(row.punter_id),
  method: row.method,
  amountMinor: Number(row.amount_minor),
  currency: row.currency,
  status: row.status,
  createdAt: Number(row.created_at),
  settledAt: row.settled_at === null ? null : Number(row.settled_at),
})

export async function findWithdrawal(db: Kysely<Tables>, id: string): Promise<Withdrawal | undefined> {
  const row = await db.selectFrom('withdrawals').select(COLUMNS).where('id', '=', id).executeTakeFirst()
  return row && toWithdrawal(row)
}

/** The punter's withdrawals, newest first. */
export async function withdrawalsOf(db: Kysely<Tables>, punterId: number, limit = 20): Promise<Withdrawal[]> {
  return (await db.selectFrom('withdrawals').select(COLUMNS).where('punter_id', '=', punterId).orderBy('created_at', 'desc').orderBy('id').limit(limit).execute()).map(toWithdrawal)
}

export interface NewWithdrawal {
  punterId: number
  idempotencyKey: string | null
  method: string
  amountMinor: number
  currency: string
}

export type WithdrawalAnswer = { ok: true; withdrawal: Withdrawal; created: boolean } | { ok: false; code: 'WITHDRAWAL_EXCEEDS_WITHDRAWABLE'; withdrawableMinor: number }

/**
 * Records a pending withdrawal and takes its amount off the balance, in one transaction serialised
 * on the punter: only withdrawable money (real money less deposits still to be staked) goes, and
 * an idempotency key already used answers that withdrawal.
 */
export async function createWithdrawal(data: DataLayer, input: NewWithdrawal, now: number): Promise<WithdrawalAnswer> {
  const answer = await data.transaction(async (tx): Promise<WithdrawalAnswer> => {
    if (input.idempotencyKey) {
      const earlier = await tx.selectFrom('withdrawals').select(COLUMNS).where('punter_id', '=', input.punterId).where('idempotency_key', '=', input.idempotencyKey).executeTakeFirst()
      if (earlier) return { ok: true, withdrawal: toWithdrawal(earlier), created: false }
    }
    const { withdrawable } = await realBalances(tx, input.punterId)
    if (input.amountMinor > withdrawable) return { ok: false, code: 'WITHDRAWAL_EXCEEDS_WITHDRAWABLE', withdrawableMinor: withdrawable }
    const id = randomBytes(16).toString('base64url')
    await tx.insertInto('withdrawals').values({ id, punter_id: input.punterId, idempotency_key: input.idempotencyKey, method: input.method, amount_minor: input.amountMinor, currency: input.currency, status: 'pending', created_at: now, settled_at: null }).execute()
    await applyChange(tx, { punterId: input.punterId, amountMinor: -input.amountMinor, reference: `withdrawal:${id}`, kind: 'withdrawal', now })
    return { ok: true, withdrawal: (await findWithdrawal(tx, id))!, created: true }
  }, { serialiseOn: punterLock(input.punterId) })
  if (answer.ok && answer.created) await announceBalance(data.db, input.punterId)
  return answer
}

/** How a pending withdrawal ends: the money comes back for 'cancelled' and 'failed', not for 'paid'. */
const RETURNS: Record<Exclude<WithdrawalStatus, 'pending'>, string | null> = { paid: null, cancelled: 'withdrawal-cancel', failed: 'withdrawal-failed' }

/**
 * Ends a pending withdrawal, once: the status moves from pending (a conditional UPDATE) and, for a
 * cancellation or a failure, the amount comes back to the balance in the same transaction. Answers
 * the withdrawal as it stands (unchanged when it was no longer pending).
 */
export async function closeWithdrawal(data: DataLayer, withdrawal: Withdrawal, status: Exclude<WithdrawalStatus, 'pending'>, now: number): Promise<Withdrawal> {
  const closed = await data.transaction(async (tx) => {
    const moved = await tx.updateTable('withdrawals').set({ status, settled_at: now }).where('id', '=', withdrawal.id).where('status', '=', 'pending').returning('id').executeTakeFirst()
    const kind = RETURNS[status]
    if (moved && kind) await applyChange(tx, { punterId: withdrawal.punterId, amountMinor: withdrawal.amountMinor, reference: `${kind}:${withdrawal.id}`, kind, now })
    return moved !== undefined
  }, { serialiseOn: punterLock(withdrawal.punterId) })
  if (closed && RETURNS[status]) await announceBalance(data.db, withdrawal.punterId)
  return (await findWithdrawal(data.db, withdrawal.id))!
}
