/**
 * Deposits as payments: one row per payment with its idempotency key, and the one place a
 * payment's outcome is applied. Crediting is exactly once however often (or however
 * concurrently) the provider's return URL is hit: the status moves from `pending` only once
 * (a conditional UPDATE), and the ledger entry's reference (`deposit:<payment id>`) is unique, so
 * the balance, `firstDepositDate` and the payment status change in one transaction or not at all.
 */
import { randomBytes } from 'node:crypto'
import { registerMigration, type Db } from '../db/database'
import { changeBalance } from '../punters/events'

registerMigration(
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

interface PaymentRow {
  id: string
  punter_id: number
  method: string
  amount_minor: number
  currency: string
  status: PaymentStatus
  created_at: number
  settled_at: number | null
}

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

export function findPayment(db: Db, id: string): Payment | undefined {
  const row = db.prepare('SELECT * FROM payments WHERE id = ?').get(id) as PaymentRow | undefined
  return row && toPayment(row)
}

export function findPaymentByKey(db: Db, punterId: number, idempotencyKey: string): Payment | undefined {
  const row = db.prepare('SELECT * FROM payments WHERE punter_id = ? AND idempotency_key = ?').get(punterId, idempotencyKey) as PaymentRow | undefined
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
export function createPayment(db: Db, input: NewPayment, now: number): { payment: Payment; created: boolean } {
  const id = randomBytes(16).toString('base64url')
  const inserted = db
    .prepare(
      `INSERT INTO payments (id, punter_id, idempotency_key, method, amount_minor, currency, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (punter_id, idempotency_key) DO NOTHING`,
    )
    .run(id, input.punterId, input.idempotencyKey, input.method, input.amountMinor, input.currency, now)
  if (inserted.changes === 1) return { payment: findPayment(db, id)!, created: true }
  return { payment: findPaymentByKey(db, input.punterId, input.idempotencyKey!)!, created: false }
}

/** What the provider says happened; `pending` while the punter is still at its pages. */
export type ProviderOutcome = PaymentStatus

/**
 * Applies the provider's outcome to a pending payment, once. Success credits the balance and sets
 * the first deposit date (if none) in the same transaction; failure and abandonment only close the
 * payment. A payment no longer pending is answered as it is.
 */
export function settlePayment(db: Db, paymentId: string, outcome: ProviderOutcome, now: number): Payment | undefined {
  const payment = findPayment(db, paymentId)
  if (!payment || payment.status !== 'pending') return payment
  let final = outcome
  if (final === 'pending' && now - payment.createdAt >= PAYMENT_ABANDONED_AFTER_MS) final = 'abandoned'
  if (final === 'pending') return payment
  const close = db.prepare("UPDATE payments SET status = ?, settled_at = ? WHERE id = ? AND status = 'pending'")
  if (final === 'succeeded') {
    changeBalance(db, {
      punterId: payment.punterId,
      amountMinor: payment.amountMinor,
      reference: `deposit:${payment.id}`,
      kind: 'deposit',
      now,
      alsoWrite: () => {
        close.run('succeeded', now, payment.id)
        db.prepare('UPDATE punters SET first_deposit_date = COALESCE(first_deposit_date, ?) WHERE id = ?').run(new Date(now).toISOString().slice(0, 10), payment.punterId)
      },
    })
  } else {
    close.run(final, now, payment.id)
  }
  return findPayment(db, paymentId)
}
