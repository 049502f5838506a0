/**
 * Writing the ledger (issue 28 item 4): one balance change is one or more legs, each a ledger
 * entry on one account (./accounts.ts) with the balance that account holds after it. The first leg
 * carries the change's own reference, which is unique: that is what applies a change once across
 * requests and instances. Further legs carry `<reference>/<part>` (a stake's bonus share
 * `bet:<id>/bonus`, its wagering `bet:<id>/wagering` …).
 *
 * Each leg moves its stored balance with a conditional UPDATE (never below zero), so a leg the
 * balance cannot take throws `Insufficient` and the whole change rolls back. Call these inside a
 * transaction serialised on the punter (./events.ts changeBalance does; so do the grants and the
 * withdrawals), so one punter's entries are numbered in the order the balances moved.
 */
import type { Kysely, Transaction } from 'kysely'
import type { Tables } from '../db/tables'
import { parseAccount } from './accounts'

export interface Leg {
  account: string
  amountMinor: number
  /** The reference suffix of a leg after the first ('bonus', 'wagering' …); the first leg has none. */
  part?: string
  /** The entry's kind, when not the change's (the wagering leg of a stake is 'wagering'). */
  kind?: string
}

/** A leg the balance could not take: the change is refused and nothing of it is written. */
export class Insufficient extends Error {
  constructor(readonly account: string) {
    super(`insufficient ${account}`)
  }
}

/** The change's reference is in the ledger already (applied before, maybe on another instance). */
export async function alreadyApplied(db: Kysely<Tables>, reference: string): Promise<boolean> {
  return (await db.selectFrom('ledger_entries').select('id').where('reference', '=', reference).executeTakeFirst()) !== undefined
}

/** Moves one stored balance; answers the balance after, or undefined when it would go below zero. */
async function move(tx: Kysely<Tables>, punterId: number, account: string, amount: number, now: number): Promise<number | undefined> {
  const ref = parseAccount(account)
  if (!ref) throw new Error(`unknown ledger account ${account}`)
  if (ref.kind === 'real' || ref.kind === 'playthrough') {
    const column = ref.kind === 'real' ? 'balance_minor' : 'playthrough_minor'
    const row = await tx
      .updateTable('punters')
      .set((eb) => ({ [column]: eb(column, '+', amount), updated_at: now }))
      .where('id', '=', punterId)
      .where((eb) => eb(eb(column, '+', amount), '>=', 0))
      .returning(column)
      .executeTakeFirst()
    return row ? Number((row as Record<string, number>)[column]) : undefined
  }
  const column = ref.kind === 'bonus' ? 'balance_minor' : 'turnover_minor'
  const row = await tx
    .updateTable('bonus_accounts')
    .set((eb) => ({ [column]: eb(column, '+', amount) }))
    .where('id', '=', ref.id)
    .where('punter_id', '=', punterId)
    .where((eb) => eb(eb(column, '+', amount), '>=', 0))
    .returning(column)
    .executeTakeFirst()
  return row ? Number((row as Record<string, number>)[column]) : undefined
}

/**
 * Writes a change's legs (the first under `reference`); answers false, writing nothing, when the
 * reference is in the ledger already. Throws `Insufficient` when a leg would take a balance below
 * zero (roll the transaction back). Keeps the punter's withdrawable in step.
 */
export async function writeLegs(tx: Transaction<Tables>, change: { punterId: number; reference: string; kind: string; now: number }, legs: Leg[]): Promise<boolean> {
  for (const [i, leg] of legs.entries()) {
    const balanceAfter = await move(tx, change.punterId, leg.account, leg.amountMinor, change.now)
    if (balanceAfter === undefined) throw new Insufficient(leg.account)
    const reference = i === 0 ? change.reference : `${change.reference}/${leg.part ?? leg.account}`
    const entry = await tx
      .insertInto('ledger_entries')
      .values({ punter_id: change.punterId, account: leg.account, reference, kind: leg.kind ?? change.kind, amount_minor: leg.amountMinor, balance_after_minor: balanceAfter, created_at: change.now })
      .onConflict((c) => c.column('reference').doNothing())
      .returning('id')
      .executeTakeFirst()
    if (!entry) {
      if (i === 0) throw new AppliedMeanwhile()
      throw new Error(`ledger reference ${reference} written twice`)
    }
  }
  await keepWithdrawable(tx, change.punterId)
  return true
}

/** The first leg's reference was written meanwhile (a writer outside the punter's lock): roll back, not applied. */
export class AppliedMeanwhile extends Error {
  constructor() {
    super('applied meanwhile')
  }
}

/** withdrawable = max(0, real − playthrough), in the change's transaction. */
async function keepWithdrawable(tx: Kysely<Tables>, punterId: number): Promise<void> {
  await tx
    .updateTable('punters')
    .set((eb) => ({ withdrawable_minor: eb.case().when('balance_minor', '>', eb.ref('playthrough_minor')).then(eb('balance_minor', '-', eb.ref('playthrough_minor'))).else(0).end() }))
    .where('id', '=', punterId)
    .execute()
}

/** The punter's real balance, play-through and withdrawable (minor units). */
export async function realBalances(db: Kysely<Tables>, punterId: number): Promise<{ balance: number; playthrough: number; withdrawable: number }> {
  const row = await db.selectFrom('punters').select(['balance_minor', 'playthrough_minor', 'withdrawable_minor']).where('id', '=', punterId).executeTakeFirst()
  return { balance: Number(row?.balance_minor ?? 0), playthrough: Number(row?.playthrough_minor ?? 0), withdrawable: Number(row?.withdrawable_minor ?? 0) }
}
