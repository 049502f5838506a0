/**
 * A punter's payments still pending, brought up to date (docs/adr/0006-deposit-limit-counts-credited-money.md):
 * before a deposit limit is checked or shown, the provider is asked about every payment of the
 * punter that has no outcome yet, and what it says is applied (./ledger.ts settlePayment: a
 * success credited once, a failure or an abandoned or expired checkout closed). What is still
 * pending after that is money the provider may yet take: it is held against the limits, and
 * nothing else that is not credited is.
 *
 * Asked outside any transaction (a real provider is a network call); a provider that does not
 * answer leaves its payment pending, so it stays held: the safe side of a limit.
 */
import type { DataLayer } from '../db/data-layer'
import type { Logger } from '../log'
import { settlePayment } from './ledger'
import type { PaymentProvider } from './simulator'

/** Ids of the punter's pending payments (at most 50, oldest first: a punter has a few at most). */
async function pendingPaymentIds(data: DataLayer, punterId: number): Promise<string[]> {
  const rows = await data.db.selectFrom('payments').select('id').where('punter_id', '=', punterId).where('status', '=', 'pending').orderBy('created_at').limit(50).execute()
  return rows.map((r) => r.id)
}

/** Applies the provider's outcome to each pending payment of the punter; answers how many were decided. */
export async function settlePendingPayments(deps: { data: DataLayer; log: Logger }, provider: PaymentProvider | undefined, punterId: number, now: number): Promise<number> {
  if (!provider) return 0
  let decided = 0
  for (const id of await pendingPaymentIds(deps.data, punterId)) {
    try {
      const settled = await settlePayment(deps, id, await provider.outcome(id), now)
      if (settled && settled.status !== 'pending') {
        decided++
        deps.log.info('payments.deposit.settled', { punterId, paymentId: id, status: settled.status, by: 'limit-check' })
      }
    } catch (error) {
      deps.log.warn('payments.deposit.outcome-unknown', { punterId, paymentId: id, error: error instanceof Error ? error.message : String(error) })
    }
  }
  return decided
}
