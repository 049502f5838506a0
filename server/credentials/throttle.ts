/**
 * Request budgets for the credential calls that send messages or guess secrets (recovery,
 * e-mail links). Keyed by what the request names (the typed e-mail or phone, existing or not)
 * and by the client, never by whether an account exists, so a refusal tells nothing about one.
 */
import type { Kysely } from 'kysely'
import type { DataLayer } from '../db/data-layer'
import { schemaStep } from '../db/schema'
import type { Tables } from '../db/tables'

// On the query layer (issue 16): a budget spent on one instance is spent on all, on SQLite or
// PostgreSQL. The table's raw-SQL history is in ./store.ts ('601-credentials').
declare module '../db/tables' {
  interface Tables {
    credential_requests: { key: string; at: number }
  }
}

export const q002CredentialRequests = schemaStep('q002-credential-requests', async (db) => {
  await db.schema.createTable('credential_requests').ifNotExists().addColumn('key', 'text', (c) => c.notNull()).addColumn('at', 'bigint', (c) => c.notNull()).execute()
  await db.schema.createIndex('credential_requests_key').ifNotExists().on('credential_requests').columns(['key', 'at']).execute()
})

export interface Budget {
  key: string
  limit: number
  windowMs: number
}

export type BudgetOutcome = { ok: true } | { ok: false; retryAt: number }

/** Spends one request from every budget, or none when one of them is used up (serialised per budget key across instances). */
export function spend(data: DataLayer, budgets: Budget[], now: number): Promise<BudgetOutcome> {
  return data.transaction(
    async (tx): Promise<BudgetOutcome> => {
      const longest = Math.max(...budgets.map((b) => b.windowMs))
      await tx.deleteFrom('credential_requests').where('at', '<=', now - longest).execute()
      const retryAt = await usedUpUntil(tx, budgets, now)
      if (retryAt !== undefined) return { ok: false, retryAt }
      await tx.insertInto('credential_requests').values(budgets.map((budget) => ({ key: budget.key, at: now }))).execute()
      return { ok: true }
    },
    { serialiseOn: budgets.map((b) => 'credential-requests:' + b.key) },
  )
}

/** When the budgets are used up, the time one frees; undefined while each has room (nothing is spent). */
export async function usedUpUntil(db: Kysely<Tables>, budgets: Budget[], now: number): Promise<number | undefined> {
  let retryAt = 0
  for (const budget of budgets) {
    const times = await db.selectFrom('credential_requests').select('at').where('key', '=', budget.key).where('at', '>', now - budget.windowMs).orderBy('at').execute()
    if (times.length >= budget.limit) retryAt = Math.max(retryAt, times[times.length - budget.limit].at + budget.windowMs)
  }
  return retryAt > 0 ? retryAt : undefined
}

/** The client a budget counts: the IPv4 address, or the /64 of an IPv6 one. */
export function clientKey(ip: string | undefined): string {
  const address = (ip ?? 'unknown').replace(/^::ffff:/, '')
  if (!address.includes(':')) return address
  return address.split(':').slice(0, 4).join(':') + '::/64'
}
