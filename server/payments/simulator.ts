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
import express, { Router } from 'express'
import type { DataLayer } from '../db/data-layer'
import { schemaStep, sqliteHistory } from '../db/schema'
import { PAYMENT_ABANDONED_AFTER_MS, type ProviderOutcome } from './ledger'

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

export const DECLINED_TEST_CARD = '4000000000000002'
export const RETURN_PATH = '/threedsconfirm'

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

/** The simulator keeps a card declined before 3-D Secure as its own outcome; the ledger sees 'failed'. */
type SimulatedOutcome = ProviderOutcome | 'declined'

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
/** Where the provider sends the browser back: the return path the cashier gave at checkout (the
 * punter's locale prefix kept, `/ru/threedsconfirm`), never anything else (no open redirect). */
const RETURN_PATHS = /^(\/[a-z]{2,3})?\/threedsconfirm$/
const returnPathOf = (value: unknown) => (typeof value === 'string' && RETURN_PATHS.test(value) ? value : RETURN_PATH)
const returnUrl = (paymentId: string, returnPath?: unknown) => `${returnPathOf(returnPath)}?paymentId=${encodeURIComponent(paymentId)}`
const returnField = (returnPath: unknown) => `<input type="hidden" name="return" value="${escapeHtml(returnPathOf(returnPath))}">`

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

type SimulatedPayment = Omit<SimulatedPaymentTable, 'card_last4'>

export function createSimulatedProvider(data: DataLayer, now: () => number): PaymentProvider & { router(): Router } {
  const { db } = data
  /** A checkout left alone past its time is abandoned: its pages no longer take the payment. */
  const find = async (id: unknown): Promise<SimulatedPayment | undefined> => {
    if (typeof id !== 'string' || id.length > 64) return undefined
    const row = await db.selectFrom('payment_simulator').select(['payment_id', 'amount_minor', 'currency', 'three_d_secure', 'outcome', 'expires_at']).where('payment_id', '=', id).executeTakeFirst()
    return row && row.outcome === 'pending' && row.expires_at <= now() ? { ...row, outcome: 'abandoned' } : row
  }
  const decide = async (id: string, outcome: SimulatedOutcome, last4?: string) => {
    const set = last4 === undefined ? { outcome } : { outcome, card_last4: last4 }
    await db.updateTable('payment_simulator').set(set).where('payment_id', '=', id).where('outcome', '=', 'pending').where('expires_at', '>', now()).execute()
  }

  const page = (title: string, body: string) =>
    `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`
  const amountLine = (p: SimulatedPayment) => `<p data-testid="pay-amount">${(p.amount_minor / 100).toFixed(2)} ${escapeHtml(p.currency)}</p>`

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
      const outcome = (await find(paymentId))?.outcome ?? 'failed'
      return outcome === 'declined' ? 'failed' : outcome
    },
    async failureCode(paymentId) {
      const outcome = (await find(paymentId))?.outcome
      return outcome === 'declined' ? 'CARD_DECLINED' : outcome === 'failed' ? 'THREE_DS_FAILED' : undefined
    },
    router() {
      const router = Router()
      const form = express.urlencoded({ extended: false, limit: '4kb' })
      const bodyOf = (req: express.Request) => (req.body !== null && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>

      router.get('/dev/payments/checkout', async (req, res) => {
        const payment = await find(req.query.paymentId)
        if (!payment || payment.outcome !== 'pending') return res.status(404).type('html').send(page('Payment simulator', '<p>No payment waiting here.</p>'))
        const id = escapeHtml(payment.payment_id)
        res.type('html').send(
          page(
            'Payment simulator',
            `<p>Local stand-in for a card acquirer. Test card ${DECLINED_TEST_CARD} is declined; any other 16 digits go on to 3-D Secure.</p>${amountLine(payment)}
<form method="post" action="/dev/payments/checkout"><input type="hidden" name="paymentId" value="${id}">${returnField(req.query.return)}
<label>Card number <input name="card" inputmode="numeric" maxlength="19" value="4242 4242 4242 4242" data-testid="pay-card"></label><br>
<button type="submit" name="action" value="pay" data-testid="pay-submit">Pay</button>
<button type="submit" name="action" value="cancel" data-testid="pay-cancel">Cancel</button></form>`,
          ),
        )
      })
      router.post('/dev/payments/checkout', form, async (req, res) => {
        const body = bodyOf(req)
        const payment = await find(body.paymentId)
        if (!payment || payment.outcome !== 'pending') return res.redirect(303, returnUrl(String(body.paymentId ?? ''), body.return))
        const card = typeof body.card === 'string' ? body.card.replace(/\s+/g, '') : ''
        if (body.action === 'cancel') await decide(payment.payment_id, 'abandoned')
        else if (!/^\d{16}$/.test(card) || card === DECLINED_TEST_CARD) await decide(payment.payment_id, 'declined', card.slice(-4))
        else if (payment.three_d_secure === 1) {
          await db.updateTable('payment_simulator').set({ card_last4: card.slice(-4) }).where('payment_id', '=', payment.payment_id).execute()
          const back = returnPathOf(body.return) !== RETURN_PATH ? `&return=${encodeURIComponent(returnPathOf(body.return))}` : ''
          return res.redirect(303, `/dev/payments/3ds?paymentId=${encodeURIComponent(payment.payment_id)}${back}`)
        } else await decide(payment.payment_id, 'succeeded', card.slice(-4))
        res.redirect(303, returnUrl(payment.payment_id, body.return))
      })
      router.get('/dev/payments/3ds', async (req, res) => {
        const payment = await find(req.query.paymentId)
        if (!payment || payment.outcome !== 'pending') return res.status(404).type('html').send(page('3-D Secure simulator', '<p>No payment waiting here.</p>'))
        const id = escapeHtml(payment.payment_id)
        res.type('html').send(
          page(
            '3-D Secure simulator',
            `<p>Your bank asks you to confirm this payment.</p>${amountLine(payment)}
<form method="post" action="/dev/payments/3ds"><input type="hidden" name="paymentId" value="${id}">${returnField(req.query.return)}
<button type="submit" name="action" value="approve" data-testid="3ds-approve">Approve</button>
<button type="submit" name="action" value="fail" data-testid="3ds-fail">Fail authentication</button>
<button type="submit" name="action" value="cancel" data-testid="3ds-cancel">Cancel</button></form>`,
          ),
        )
      })
      router.post('/dev/payments/3ds', form, async (req, res) => {
        const body = bodyOf(req)
        const payment = await find(body.paymentId)
        if (payment && payment.outcome === 'pending') {
          const outcome: ProviderOutcome = body.action === 'approve' ? 'succeeded' : body.action === 'cancel' ? 'abandoned' : 'failed'
          await decide(payment.payment_id, outcome)
        }
        res.redirect(303, returnUrl(String(body.paymentId ?? ''), body.return))
      })
      return router
    },
  }
}
