/**
 * Request budgets for the credential calls that send messages or guess secrets (recovery,
 * e-mail links). Keyed by what the request names (the typed e-mail or phone, existing or not)
 * and by the client, never by whether an account exists, so a refusal tells nothing about one.
 */
import type { Db } from '../db/database'

export interface Budget {
  key: string
  limit: number
  windowMs: number
}

export type BudgetOutcome = { ok: true } | { ok: false; retryAt: number }

/** Spends one request from every budget, or none when one of them is used up. */
export function spend(db: Db, budgets: Budget[], now: number): BudgetOutcome {
  return db.transaction((): BudgetOutcome => {
    const longest = Math.max(...budgets.map((b) => b.windowMs))
    db.prepare('DELETE FROM credential_requests WHERE at <= ?').run(now - longest)
    const retryAt = usedUpUntil(db, budgets, now)
    if (retryAt !== undefined) return { ok: false, retryAt }
    const insert = db.prepare('INSERT INTO credential_requests (key, at) VALUES (?, ?)')
    for (const budget of budgets) insert.run(budget.key, now)
    return { ok: true }
  })()
}

/** When the budgets are used up, the time one frees; undefined while each has room (nothing is spent). */
export function usedUpUntil(db: Db, budgets: Budget[], now: number): number | undefined {
  let retryAt = 0
  for (const budget of budgets) {
    const times = db.prepare('SELECT at FROM credential_requests WHERE key = ? AND at > ? ORDER BY at').all(budget.key, now - budget.windowMs) as { at: number }[]
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
