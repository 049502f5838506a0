/**
 * The local payment-provider simulator (simulators on only), behind the interface a real
 * acquirer would implement: the cashier sends the punter to the provider's page, the punter pays
 * there (a card form, then the 3-D Secure step), and the provider sends the browser back to
 * `/threedsconfirm?paymentId=…`. The server then asks the provider what happened (`outcome`),
 * never trusting the return URL itself.
 *
 * Test cards: 4000 0000 0000 0002 is declined before 3-D Secure; any other 16 digits reach the
 * 3-D Secure step, where the tester approves, fails or cancels. "Cancel" on either page is the
 * punter abandoning the payment.
 *
 * On the query layer (issue 16): the simulated acquirer's own table, on both engines.
 */
import type { Router } from 'express'
import type { DataLayer } from '../db/data-layer'
import { schemaStep, sqliteHistory } from '../db/schema'
import { PAYMENT_ABANDONED_AFTER_MS, type ProviderOutcome } from './ledger'
import { RETURN_PATH, returnPathOf, simulatorRouter, type SimulatedOutcome, type SimulatorStore } from './simulator-pages'

export { DECLINED_TEST_CARD, RETURN_PATH } from './simulator-pages'

export const sqliteMoney604PaymentSimulator = sqliteHistory(
  'money-604-payment-simulator',
  `CREATE TABLE payment_simulator (
     payment_id TEXT PRIMARY KEY,
     amount_minor INTEGER NOT NULL,
     currency TEXT NOT NULL,
     three_d_secure INTEGER NOT NULL,
     card_last4 TEXT,
     outcome TEXT NOT NULL DEFAULT 'pending',
     expires_at INTEGER NOT NULL
   );`,
)

export interface PaymentProvider {
  /** Opens a checkout for a payment: where the browser goes next. `returnPath` is where the
   * provider sends the punter back (the return page under the punter's locale prefix). */
  checkout(payment: { id: string; amountMinor: number; currency: string; threeDSecure: boolean; returnPath?: string }): Promise<{ redirectUrl: string }> | { redirectUrl: string }
  /** What happened to the payment at the provider. */
  outcome(paymentId: string): Promise<ProviderOutcome> | ProviderOutcome
  /** Why a failed payment failed, when the provider says: the card refused before 3-D Secure, or
   * 3-D Secure not passed. The punter is told which (server.error.<code>). */
  failureCode?(paymentId: string): Promise<PaymentFailureCode | undefined> | PaymentFailureCode | undefined
}

export type PaymentFailureCode = 'CARD_DECLINED' | 'THREE_DS_FAILED'

interface SimulatedPaymentTable {
  payment_id: string
  amount_minor: number
  currency: string
  three_d_secure: number
  card_last4: string | null
  outcome: SimulatedOutcome
  expires_at: number
}

declare module '../db/tables' {
  interface Tables {
    payment_simulator: SimulatedPaymentTable
  }
}

export const q044PaymentSimulator = schemaStep('q044-payment-simulator', async (db) => {
  await db.schema
    .createTable('payment_simulator')
    .ifNotExists()
    .addColumn('payment_id', 'text', (c) => c.primaryKey())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('three_d_secure', 'integer', (c) => c.notNull())
    .addColumn('card_last4', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute()
})

/** The simulator's table: a payment read back ('abandoned' past its time), settled once, its card noted. */
function simulatorStore(data: DataLayer, now: () => number): SimulatorStore {
  const { db } = data
  return {
    /** A checkout left alone past its time is abandoned: its pages no longer take the payment. */
    async find(id) {
      if (typeof id !== 'string' || id.length > 64) return undefined
      const row = await db.selectFrom('payment_simulator').select(['payment_id', 'amount_minor', 'currency', 'three_d_secure', 'outcome', 'expires_at']).where('payment_id', '=', id).executeTakeFirst()
      return row && row.outcome === 'pending' && row.expires_at <= now() ? { ...row, outcome: 'abandoned' } : row
    },
    async decide(id, outcome, last4) {
      const set = last4 === undefined ? { outcome } : { outcome, card_last4: last4 }
      await db.updateTable('payment_simulator').set(set).where('payment_id', '=', id).where('outcome', '=', 'pending').where('expires_at', '>', now()).execute()
    },
    async cardSeen(id, last4) {
      await db.updateTable('payment_simulator').set({ card_last4: last4 }).where('payment_id', '=', id).execute()
    },
  }
}

export function createSimulatedProvider(data: DataLayer, now: () => number): PaymentProvider & { router(): Router } {
  const { db } = data
  const store = simulatorStore(data, now)
  return {
    async checkout(payment) {
      await db
        .insertInto('payment_simulator')
        .values({ payment_id: payment.id, amount_minor: payment.amountMinor, currency: payment.currency, three_d_secure: payment.threeDSecure ? 1 : 0, outcome: 'pending', expires_at: now() + PAYMENT_ABANDONED_AFTER_MS })
        .onConflict((oc) => oc.column('payment_id').doNothing())
        .execute()
      const back = payment.returnPath && returnPathOf(payment.returnPath) !== RETURN_PATH ? `&return=${encodeURIComponent(payment.returnPath)}` : ''
      return { redirectUrl: `/dev/payments/checkout?paymentId=${encodeURIComponent(payment.id)}${back}` }
    },
    async outcome(paymentId) {
      const outcome = (await store.find(paymentId))?.outcome ?? 'failed'
      return outcome === 'declined' ? 'failed' : outcome
    },
    async failureCode(paymentId) {
      const outcome = (await store.find(paymentId))?.outcome
      return outcome === 'declined' ? 'CARD_DECLINED' : outcome === 'failed' ? 'THREE_DS_FAILED' : undefined
    },
    router: () => simulatorRouter(store),
  }
}
