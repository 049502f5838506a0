/**
 * The payment simulator's own pages (the card form and the 3-D Secure step) and the return-URL
 * rules they share with checkout. Kept apart from the provider (simulator.ts) so each handler is a
 * named function and no function passes 80 lines (issue 32).
 */
import express, { Router, type RequestHandler } from 'express'
import type { ProviderOutcome } from './ledger'

export const DECLINED_TEST_CARD = '4000000000000002'
export const RETURN_PATH = '/threedsconfirm'

/** The simulator keeps a card declined before 3-D Secure as its own outcome; the ledger sees 'failed'. */
export type SimulatedOutcome = ProviderOutcome | 'declined'

/** A payment as the simulator's pages read it. */
export interface SimulatedPayment {
  payment_id: string
  amount_minor: number
  currency: string
  three_d_secure: number
  outcome: SimulatedOutcome
  expires_at: number
}

/** The simulator's table as its pages use it. */
export interface SimulatorStore {
  /** The payment, 'abandoned' once left alone past its time; undefined for an unknown or bad id. */
  find(id: unknown): Promise<SimulatedPayment | undefined>
  /** Settles a pending, unexpired payment. */
  decide(id: string, outcome: SimulatedOutcome, last4?: string): Promise<void>
  /** Notes the card's last digits when the payment goes on to 3-D Secure. */
  cardSeen(id: string, last4: string): Promise<void>
}

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
/** Where the provider sends the browser back: the return path the cashier gave at checkout (the
 * punter's locale prefix kept, `/ru/threedsconfirm`), never anything else (no open redirect). */
const RETURN_PATHS = /^(\/[a-z]{2,3})?\/threedsconfirm$/
export const returnPathOf = (value: unknown) => (typeof value === 'string' && RETURN_PATHS.test(value) ? value : RETURN_PATH)
const returnUrl = (paymentId: string, returnPath?: unknown) => `${returnPathOf(returnPath)}?paymentId=${encodeURIComponent(paymentId)}`
const returnField = (returnPath: unknown) => `<input type="hidden" name="return" value="${escapeHtml(returnPathOf(returnPath))}">`

const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`
const amountLine = (p: SimulatedPayment) => `<p data-testid="pay-amount">${(p.amount_minor / 100).toFixed(2)} ${escapeHtml(p.currency)}</p>`
const bodyOf = (req: express.Request) => (req.body !== null && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>

export function simulatorRouter(store: SimulatorStore): Router {
  const router = Router()
  const form = express.urlencoded({ extended: false, limit: '4kb' })
  router.get('/dev/payments/checkout', checkoutPage(store))
  router.post('/dev/payments/checkout', form, checkoutSubmit(store))
  router.get('/dev/payments/3ds', threeDSecurePage(store))
  router.post('/dev/payments/3ds', form, threeDSecureSubmit(store))
  return router
}

function checkoutPage(store: SimulatorStore): RequestHandler {
  return async (req, res) => {
    const payment = await store.find(req.query.paymentId)
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
  }
}

function checkoutSubmit(store: SimulatorStore): RequestHandler {
  return async (req, res) => {
    const body = bodyOf(req)
    const payment = await store.find(body.paymentId)
    if (!payment || payment.outcome !== 'pending') return res.redirect(303, returnUrl(String(body.paymentId ?? ''), body.return))
    const card = typeof body.card === 'string' ? body.card.replace(/\s+/g, '') : ''
    if (body.action === 'cancel') await store.decide(payment.payment_id, 'abandoned')
    else if (!/^\d{16}$/.test(card) || card === DECLINED_TEST_CARD) await store.decide(payment.payment_id, 'declined', card.slice(-4))
    else if (payment.three_d_secure === 1) {
      await store.cardSeen(payment.payment_id, card.slice(-4))
      const back = returnPathOf(body.return) !== RETURN_PATH ? `&return=${encodeURIComponent(returnPathOf(body.return))}` : ''
      return res.redirect(303, `/dev/payments/3ds?paymentId=${encodeURIComponent(payment.payment_id)}${back}`)
    } else await store.decide(payment.payment_id, 'succeeded', card.slice(-4))
    res.redirect(303, returnUrl(payment.payment_id, body.return))
  }
}

function threeDSecurePage(store: SimulatorStore): RequestHandler {
  return async (req, res) => {
    const payment = await store.find(req.query.paymentId)
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
  }
}

function threeDSecureSubmit(store: SimulatorStore): RequestHandler {
  return async (req, res) => {
    const body = bodyOf(req)
    const payment = await store.find(body.paymentId)
    if (payment && payment.outcome === 'pending') {
      const outcome: ProviderOutcome = body.action === 'approve' ? 'succeeded' : body.action === 'cancel' ? 'abandoned' : 'failed'
      await store.decide(payment.payment_id, outcome)
    }
    res.redirect(303, returnUrl(String(body.paymentId ?? ''), body.return))
  }
}
