/**
 * Payouts at the local payment-provider simulator (simulators on only; issue 28 item 5), beside its
 * deposit pages (./simulator.ts), behind the interface a real acquirer's payout API would implement.
 * The cashier sends a withdrawal (`payout`); the provider pays it out to the punter's source after
 * PAYOUT_AFTER_MS (a day, as an acquirer's next payout run) unless it is stopped first
 * (`cancelPayout`, the punter cancelling) or the tester decides on the provider's back-office page
 * `/dev/payments/payouts` (pay now, or fail it: a closed card, a rejected transfer). The server asks
 * the provider what happened (`payoutOutcome`), as it does for deposits.
 */
import express, { Router } from 'express'
import type { DataLayer } from '../db/data-layer'
import { schemaStep } from '../db/schema'

export const PAYOUT_OUTCOMES = ['pending', 'paid', 'failed', 'cancelled'] as const
export type PayoutOutcome = (typeof PAYOUT_OUTCOMES)[number]

/** The simulated acquirer pays a payout out this long after it is sent. */
export const PAYOUT_AFTER_MS = 24 * 3_600_000

export interface PayoutProvider {
  /** Sends a withdrawal to be paid to the punter's source (idempotent per id). */
  payout(withdrawal: { id: string; amountMinor: number; currency: string; method: string }): Promise<void> | void
  /** What happened to it at the provider. */
  payoutOutcome(id: string): Promise<PayoutOutcome> | PayoutOutcome
  /** Stops a payout not yet paid; answers whether it was stopped. */
  cancelPayout(id: string): Promise<boolean> | boolean
}

interface SimulatedPayoutTable {
  withdrawal_id: string
  amount_minor: number
  currency: string
  method: string
  outcome: PayoutOutcome
  pay_at: number
}

declare module '../db/tables' {
  interface Tables {
    payout_simulator: SimulatedPayoutTable
  }
}

export const q087PayoutSimulator = schemaStep('q087-payout-simulator', async (db) => {
  await db.schema
    .createTable('payout_simulator')
    .ifNotExists()
    .addColumn('withdrawal_id', 'text', (c) => c.primaryKey())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('pay_at', 'bigint', (c) => c.notNull())
    .execute()
})

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

export function createSimulatedPayouts(data: DataLayer, now: () => number): PayoutProvider & { router(): Router } {
  const { db } = data
  const decide = (id: string, outcome: PayoutOutcome) => db.updateTable('payout_simulator').set({ outcome }).where('withdrawal_id', '=', id).where('outcome', '=', 'pending').where('pay_at', '>', now()).returning('withdrawal_id').executeTakeFirst()
  const outcomeOf = async (id: string): Promise<PayoutOutcome> => {
    const row = await db.selectFrom('payout_simulator').select(['outcome', 'pay_at']).where('withdrawal_id', '=', id).executeTakeFirst()
    if (!row) return 'failed' // never sent: nothing will be paid
    return row.outcome === 'pending' && row.pay_at <= now() ? 'paid' : row.outcome
  }
  return {
    async payout(withdrawal) {
      await db
        .insertInto('payout_simulator')
        .values({ withdrawal_id: withdrawal.id, amount_minor: withdrawal.amountMinor, currency: withdrawal.currency, method: withdrawal.method, outcome: 'pending', pay_at: now() + PAYOUT_AFTER_MS })
        .onConflict((oc) => oc.column('withdrawal_id').doNothing())
        .execute()
    },
    payoutOutcome: outcomeOf,
    async cancelPayout(id) {
      return (await decide(id, 'cancelled')) !== undefined
    },
    router() {
      const router = Router()
      const form = express.urlencoded({ extended: false, limit: '4kb' })
      router.get('/dev/payments/payouts', async (_req, res) => {
        const rows = await db.selectFrom('payout_simulator').selectAll().where('outcome', '=', 'pending').where('pay_at', '>', now()).orderBy('pay_at').limit(50).execute()
        const items = rows
          .map((p) => {
            const id = escapeHtml(p.withdrawal_id)
            return `<li data-testid="payout"><span data-testid="payout-amount">${(Number(p.amount_minor) / 100).toFixed(2)} ${escapeHtml(p.currency)}</span> to ${escapeHtml(p.method)}
<form method="post" action="/dev/payments/payouts"><input type="hidden" name="withdrawalId" value="${id}">
<button type="submit" name="action" value="pay" data-testid="payout-pay">Pay now</button>
<button type="submit" name="action" value="fail" data-testid="payout-fail">Fail</button></form></li>`
          })
          .join('')
        res.type('html').send(
          `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Payout simulator</title></head><body><h1>Payout simulator</h1><p>Local stand-in for an acquirer's payouts: each is paid a day after it is sent unless the punter cancels it first, or you decide here.</p><ul>${items || '<li>No payout waiting.</li>'}</ul></body></html>`,
        )
      })
      router.post('/dev/payments/payouts', form, async (req, res) => {
        const body = (req.body !== null && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>
        if (typeof body.withdrawalId === 'string' && body.withdrawalId.length <= 64 && (body.action === 'pay' || body.action === 'fail')) await decide(body.withdrawalId, body.action === 'pay' ? 'paid' : 'failed')
        res.redirect(303, '/dev/payments/payouts')
      })
      return router
    },
  }
}
