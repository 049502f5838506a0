/**
 * Deposits as payments: one row per payment with its idempotency key, and the one place a
 * payment's outcome is applied. Crediting is exactly once however often (or however
 * concurrently) the provider's return URL is hit: the status moves from `pending` only once
 * (a conditional UPDATE), and the ledger entry's reference (`deposit:<payment id>`) is unique, so
 * the balance, `firstDepositDate` and the payment status change in one transaction or not at all.
 *
 * On the query layer (issue 16): the payments table is this store's; the balance, its ledger and
 * the first deposit date are the punters store's (server/punters/events.ts), which may sit in
 * another database while the conversion runs. Settling is ordered so a failure between the two
 * steps loses nothing (server/db/README.md, step 6): the credit first (idempotent: its ledger
 * reference is unique), then the payment closed (a conditional UPDATE); a retry after a crash
 * between them finds the credit done and closes the payment.
 */
import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { DataLayer } from '../db/data-layer'
import { oneOf, schemaStep, sqliteHistory } from '../db/schema'
import type { Tables } from '../db/tables'
import { changeBalance } from '../punters/events'

export const sqliteMoney603Payments = sqliteHistory(
  'money-603-payments',
  `CREATE TABLE payments (
     id TEXT PRIMARY KEY,
     punter_id INTEGER NOT NULL REFERENCES punters(id),
     idempotency_key TEXT,
     method TEXT NOT NULL,
     amount_minor INTEGER NOT NULL,
     currency TEXT NOT NULL,
     status TEXT NOT NULL DEFAULT 'pending',
     created_at INTEGER NOT NULL,
     settled_at INTEGER,
     UNIQUE (punter_id, idempotency_key)
   );
   CREATE INDEX payments_punter_created ON payments (punter_id, created_at);`,
)

export const PAYMENT_STATUSES = ['pending', 'succeeded', 'failed', 'abandoned'] as const
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]

/** A payment left at the provider this long without an outcome counts as abandoned. */
export const PAYMENT_ABANDONED_AFTER_MS = 30 * 60_000

export interface Payment {
  id: string
  punterId: number
  method: string
  amountMinor: number
  currency: string
  status: PaymentStatus
  createdAt: number
  settledAt: number | null
}

interface PaymentTable {
  id: string
  punter_id: number
  idempotency_key: string | null
  method: string
  amount_minor: number
  currency: string
  status: PaymentStatus
  created_at: number
  settled_at: number | null
}

declare module '../db/tables' {
  interface Tables {
    payments: PaymentTable
  }
}

export const q042Payments = schemaStep('q042-payments', async (db) => {
  await db.schema
    .createTable('payments')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('punter_id', 'bigint', (c) => c.notNull())
    .addColumn('idempotency_key', 'text')
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending').check(oneOf('status', PAYMENT_STATUSES)))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('settled_at', 'bigint')
    .addUniqueConstraint('payments_punter_key', ['punter_id', 'idempotency_key'])
    .execute()
  await db.schema.createIndex('payments_punter_created').ifNotExists().on('payments').columns(['punter_id', 'created_at']).execute()
})

type PaymentRow = Omit<PaymentTable, 'idempotency_key'>

const toPayment = (row: PaymentRow): Payment => ({
  id: row.id,
  punterId: row.punter_id,
  method: row.method,
  amountMinor: row.amount_minor,
  currency: row.currency,
  status: row.status,
  createdAt: row.created_at,
  settledAt: row.settled_at,
})

const PAYMENT_COLUMNS = ['id', 'punter_id', 'method', 'amount_minor', 'currency', 'status', 'created_at', 'settled_at'] as const

export async function findPayment(db: Kysely<Tables>, id: string): Promise<Payment | undefined> {
  const row = await db.selectFrom('payments').select(PAYMENT_COLUMNS).where('id', '=', id).executeTakeFirst()
  return row && toPayment(row)
}

export async function findPaymentByKey(db: Kysely<Tables>, punterId: number, idempotencyKey: string): Promise<Payment | undefined> {
  const row = await db.selectFrom('payments').select(PAYMENT_COLUMNS).where('punter_id', '=', punterId).where('idempotency_key', '=', idempotencyKey).executeTakeFirst()
  return row && toPayment(row)
}

export interface NewPayment {
  punterId: number
  idempotencyKey: string | null
  method: string
  amountMinor: number
  currency: string
}

/** Records a new pending payment; with an idempotency key already used, answers that payment. */
export async function createPayment(db: Kysely<Tables>, input: NewPayment, now: number): Promise<{ payment: Payment; created: boolean }> {
  const id = randomBytes(16).toString('base64url')
  const inserted = await db
    .insertInto('payments')
    .values({ id, punter_id: input.punterId, idempotency_key: input.idempotencyKey, method: input.method, amount_minor: input.amountMinor, currency: input.currency, status: 'pending', created_at: now })
    .onConflict((oc) => oc.columns(['punter_id', 'idempotency_key']).doNothing())
    .returning('id')
    .executeTakeFirst()
  if (inserted) return { payment: (await findPayment(db, id))!, created: true }
  return { payment: (await findPaymentByKey(db, input.punterId, input.idempotencyKey!))!, created: false }
}

/** What the provider says happened; `pending` while the punter is still at its pages. */
export type ProviderOutcome = PaymentStatus

/**
 * Applies the provider's outcome to a pending payment, once. Success credits the balance (with the
 * deposit's play-through, `depositPlaythrough` times its amount: server/payments/withdrawal-policy.ts)
 * and sets the first deposit date (if none) in the punters store's transaction, then closes the payment;
 * failure and abandonment only close the payment. A payment no longer pending is answered as it is.
 */
export async function settlePayment(deps: { data: DataLayer }, paymentId: string, outcome: ProviderOutcome, now: number, depositPlaythrough = 0): Promise<Payment | undefined> {
  const { data } = deps
  const payment = await findPayment(data.db, paymentId)
  if (!payment || payment.status !== 'pending') return payment
  let final = outcome
  if (final === 'pending' && now - payment.createdAt >= PAYMENT_ABANDONED_AFTER_MS) final = 'abandoned'
  if (final === 'pending') return payment
  if (final === 'succeeded') {
    await changeBalance(data, {
      punterId: payment.punterId,
      amountMinor: payment.amountMinor,
      reference: `deposit:${payment.id}`,
      kind: 'deposit',
      now,
      // the part of the deposit that must be staked before it may be withdrawn (the jurisdiction's play-through)
      playthroughMinor: Math.round(payment.amountMinor * depositPlaythrough),
      // the punters row's first deposit date, in the balance's transaction (applied with the first credit only)
      alsoWrite: async (tx) => {
        await tx.updateTable('punters').set({ first_deposit_date: new Date(now).toISOString().slice(0, 10) }).where('id', '=', payment.punterId).where('first_deposit_date', 'is', null).execute()
      },
    })
  }
  await data.db.updateTable('payments').set({ status: final, settled_at: now }).where('id', '=', payment.id).where('status', '=', 'pending').execute()
  return findPayment(data.db, paymentId)
}
