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
 */
import express, { Router } from 'express'
import { registerMigration, type Db } from '../db/database'
import { PAYMENT_ABANDONED_AFTER_MS, type ProviderOutcome } from './ledger'

registerMigration(
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
  /** Opens a checkout for a payment: where the browser goes next. */
  checkout(payment: { id: string; amountMinor: number; currency: string; threeDSecure: boolean }): { redirectUrl: string }
  /** What happened to the payment at the provider. */
  outcome(paymentId: string): ProviderOutcome
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
const returnUrl = (paymentId: string) => `${RETURN_PATH}?paymentId=${encodeURIComponent(paymentId)}`

interface SimulatedPayment {
  payment_id: string
  amount_minor: number
  currency: string
  three_d_secure: number
  outcome: ProviderOutcome
  expires_at: number
}

export function createSimulatedProvider(db: Db, now: () => number): PaymentProvider & { router(): Router } {
  /** A checkout left alone past its time is abandoned: its pages no longer take the payment. */
  const find = (id: unknown): SimulatedPayment | undefined => {
    const row = typeof id === 'string' && id.length <= 64 ? (db.prepare('SELECT * FROM payment_simulator WHERE payment_id = ?').get(id) as SimulatedPayment | undefined) : undefined
    return row && row.outcome === 'pending' && row.expires_at <= now() ? { ...row, outcome: 'abandoned' } : row
  }
  const decide = (id: string, outcome: ProviderOutcome, last4?: string) =>
    db.prepare("UPDATE payment_simulator SET outcome = ?, card_last4 = COALESCE(?, card_last4) WHERE payment_id = ? AND outcome = 'pending' AND expires_at > ?").run(outcome, last4 ?? null, id, now())

  const page = (title: string, body: string) =>
    `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`
  const amountLine = (p: SimulatedPayment) => `<p data-testid="pay-amount">${(p.amount_minor / 100).toFixed(2)} ${escapeHtml(p.currency)}</p>`

  return {
    checkout(payment) {
      db.prepare('INSERT OR IGNORE INTO payment_simulator (payment_id, amount_minor, currency, three_d_secure, expires_at) VALUES (?, ?, ?, ?, ?)').run(
        payment.id,
        payment.amountMinor,
        payment.currency,
        payment.threeDSecure ? 1 : 0,
        now() + PAYMENT_ABANDONED_AFTER_MS,
      )
      return { redirectUrl: `/dev/payments/checkout?paymentId=${encodeURIComponent(payment.id)}` }
    },
    outcome(paymentId) {
      return find(paymentId)?.outcome ?? 'failed'
    },
    router() {
      const router = Router()
      const form = express.urlencoded({ extended: false, limit: '4kb' })
      const bodyOf = (req: express.Request) => (req.body !== null && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>

      router.get('/dev/payments/checkout', (req, res) => {
        const payment = find(req.query.paymentId)
        if (!payment || payment.outcome !== 'pending') return res.status(404).type('html').send(page('Payment simulator', '<p>No payment waiting here.</p>'))
        const id = escapeHtml(payment.payment_id)
        res.type('html').send(
          page(
            'Payment simulator',
            `<p>Local stand-in for a card acquirer. Test card ${DECLINED_TEST_CARD} is declined; any other 16 digits go on to 3-D Secure.</p>${amountLine(payment)}
<form method="post" action="/dev/payments/checkout"><input type="hidden" name="paymentId" value="${id}">
<label>Card number <input name="card" inputmode="numeric" maxlength="19" value="4242 4242 4242 4242" data-testid="pay-card"></label><br>
<button type="submit" name="action" value="pay" data-testid="pay-submit">Pay</button>
<button type="submit" name="action" value="cancel" data-testid="pay-cancel">Cancel</button></form>`,
          ),
        )
      })
      router.post('/dev/payments/checkout', form, (req, res) => {
        const body = bodyOf(req)
        const payment = find(body.paymentId)
        if (!payment || payment.outcome !== 'pending') return res.redirect(303, returnUrl(String(body.paymentId ?? '')))
        const card = typeof body.card === 'string' ? body.card.replace(/\s+/g, '') : ''
        if (body.action === 'cancel') decide(payment.payment_id, 'abandoned')
        else if (!/^\d{16}$/.test(card) || card === DECLINED_TEST_CARD) decide(payment.payment_id, 'failed', card.slice(-4))
        else if (payment.three_d_secure === 1) {
          db.prepare('UPDATE payment_simulator SET card_last4 = ? WHERE payment_id = ?').run(card.slice(-4), payment.payment_id)
          return res.redirect(303, `/dev/payments/3ds?paymentId=${encodeURIComponent(payment.payment_id)}`)
        } else decide(payment.payment_id, 'succeeded', card.slice(-4))
        res.redirect(303, returnUrl(payment.payment_id))
      })
      router.get('/dev/payments/3ds', (req, res) => {
        const payment = find(req.query.paymentId)
        if (!payment || payment.outcome !== 'pending') return res.status(404).type('html').send(page('3-D Secure simulator', '<p>No payment waiting here.</p>'))
        const id = escapeHtml(payment.payment_id)
        res.type('html').send(
          page(
            '3-D Secure simulator',
            `<p>Your bank asks you to confirm this payment.</p>${amountLine(payment)}
<form method="post" action="/dev/payments/3ds"><input type="hidden" name="paymentId" value="${id}">
<button type="submit" name="action" value="approve" data-testid="3ds-approve">Approve</button>
<button type="submit" name="action" value="fail" data-testid="3ds-fail">Fail authentication</button>
<button type="submit" name="action" value="cancel" data-testid="3ds-cancel">Cancel</button></form>`,
          ),
        )
      })
      router.post('/dev/payments/3ds', form, (req, res) => {
        const body = bodyOf(req)
        const payment = find(body.paymentId)
        if (payment && payment.outcome === 'pending') {
          const outcome: ProviderOutcome = body.action === 'approve' ? 'succeeded' : body.action === 'cancel' ? 'abandoned' : 'failed'
          decide(payment.payment_id, outcome)
        }
        res.redirect(303, returnUrl(String(body.paymentId ?? '')))
      })
      return router
    },
  }
}
