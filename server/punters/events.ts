/**
 * Punter events inside the server (spec §3 push/socket event kinds): whoever changes a punter's
 * account emits here — `punterEvents.emit('accountUpdate', { punterId, balance })` — and the socket
 * server forwards the event to that punter's open sockets. An event without a punterId (a mirror
 * change) goes to every punter socket.
 *
 * Balance changes (issue 12): every one goes through `changeBalance`, which writes a ledger entry
 * and the new balance in one transaction and, once applied, emits `accountUpdate`. A ledger
 * entry's reference is unique (a payment id, a promo code use), so the same change is applied once.
 * On the query layer (issue 16): the ledger and the balance are the punters store's (./tables.ts).
 */
import { EventEmitter } from 'node:events'
import type { Kysely, Transaction } from 'kysely'
import type { DataLayer } from '../db/data-layer'
import type { Tables } from '../db/tables'
import { punterLock } from './repository'
import './tables'
import { sqliteHistory } from '../db/schema'

export const PUNTER_EVENT_TYPES = [
  'accountUpdate',
  'settingsUpdate',
  'accountLogout',
  'coOffer',
  'coRemoval',
  'coRequest',
  'betCountUpdate',
  'mirror',
  'promoParticipation',
  'regulationAlert',
  'punterMessage',
] as const

export type PunterEventType = (typeof PUNTER_EVENT_TYPES)[number]

/** Every event names its punter; the rest is the payload the client gets. */
export interface PunterEvent {
  punterId?: number
  [field: string]: unknown
}

export const punterEvents = new EventEmitter()
punterEvents.setMaxListeners(0)

export function emitPunterEvent(type: PunterEventType, event: PunterEvent): void {
  punterEvents.emit(type, event)
}

/** The accountUpdate payload: the main balance after the change, major units (as balanceInfo). */
export interface AccountUpdate extends PunterEvent {
  punterId: number
  balance: number
}

export const sqliteMoney601Ledger = sqliteHistory(
  'money-601-ledger',
  `CREATE TABLE ledger_entries (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     punter_id INTEGER NOT NULL REFERENCES punters(id),
     reference TEXT NOT NULL UNIQUE,
     kind TEXT NOT NULL,
     amount_minor INTEGER NOT NULL,
     balance_after_minor INTEGER NOT NULL,
     created_at INTEGER NOT NULL
   );
   CREATE INDEX ledger_entries_punter ON ledger_entries (punter_id, created_at);`,
)

export interface BalanceChange {
  punterId: number
  /** Signed, minor units (cents). */
  amountMinor: number
  /** Unique per change: the same reference is applied once, on every instance. */
  reference: string
  /** What the entry is: deposit, bonus … */
  kind: string
  now: number
  /**
   * The balance the punter must hold BEFORE the change for it to apply (a game's stake, whose win
   * is credited in the same change). Checked by the balance UPDATE itself, so concurrent debits on
   * several instances never overdraw. Default: a debit must not take the balance below zero; a
   * credit needs nothing.
   */
  requiredMinor?: number
  /** More writes that belong to the same change (first deposit date, a bet closed); run inside
   * the transaction, only when the change is applied. Await only the database here (see
   * server/db/README.md); throwing rolls the whole change back. */
  alsoWrite?: (tx: Transaction<Tables>) => Promise<void> | void
}

export interface BalanceChangeResult {
  applied: boolean
  balanceMinor: number
  /** Not applied because the balance did not cover `requiredMinor` (nothing was written). */
  insufficient?: boolean
}

/** Thrown inside the transaction to roll it back with an answer (a refused or unknown punter). */
class NotApplied {
  constructor(readonly result: BalanceChangeResult) {}
}

/**
 * Applies one balance change atomically (ledger entry, balance, `alsoWrite`) and emits
 * accountUpdate after the commit. A reference already in the ledger changes nothing.
 *
 * Order, for several instances on one database: the punter first (`serialiseOn` the punter's key:
 * an advisory lock on PostgreSQL, SQLite's IMMEDIATE transaction already), so the changes of one
 * punter run one after another and the ledger's ids follow the order the balance moved in (with
 * the entry inserted before any lock, two changes could take ids in one order and the balance in
 * the other, and each entry's balance after no longer followed from the one before). Then the
 * ledger entry (its reference is unique: a second instance applying the same reference finds the
 * first one's committed entry and inserts nothing), then the balance with a conditional UPDATE
 * (`balance_minor >= required`, so a debit never overdraws), then the entry's balance after.
 * Call it outside other transactions: the event would go out before the outer commit, and an
 * outer transaction holding the punter's key would wait on this one forever.
 */
export async function changeBalance(data: DataLayer, change: BalanceChange): Promise<BalanceChangeResult> {
  const required = change.requiredMinor ?? (change.amountMinor < 0 ? -change.amountMinor : undefined)
  let result: BalanceChangeResult
  try {
    result = await data.transaction(async (tx): Promise<BalanceChangeResult> => {
      const entry = await tx
        .insertInto('ledger_entries')
        .values({ punter_id: change.punterId, reference: change.reference, kind: change.kind, amount_minor: change.amountMinor, balance_after_minor: 0, created_at: change.now })
        .onConflict((c) => c.column('reference').doNothing())
        .returning('id')
        .executeTakeFirst()
      if (!entry) return { applied: false, balanceMinor: await balanceIn(tx, change.punterId) }
      let update = tx
        .updateTable('punters')
        .set((eb) => ({ balance_minor: eb('balance_minor', '+', change.amountMinor), updated_at: change.now }))
        .where('id', '=', change.punterId)
      if (required !== undefined) update = update.where('balance_minor', '>=', required)
      const updated = await update.returning('balance_minor').executeTakeFirst()
      if (!updated) throw new NotApplied({ applied: false, balanceMinor: await balanceIn(tx, change.punterId), insufficient: true })
      await tx.updateTable('ledger_entries').set({ balance_after_minor: updated.balance_minor }).where('id', '=', entry.id).execute()
      await change.alsoWrite?.(tx)
      return { applied: true, balanceMinor: updated.balance_minor }
    }, { serialiseOn: punterLock(change.punterId) })
  } catch (error) {
    if (!(error instanceof NotApplied)) throw error
    result = error.result
  }
  if (result.applied) emitPunterEvent('accountUpdate', { punterId: change.punterId, balance: result.balanceMinor / 100 } satisfies AccountUpdate)
  return result
}

async function balanceIn(db: Kysely<Tables>, punterId: number): Promise<number> {
  const row = await db.selectFrom('punters').select('balance_minor').where('id', '=', punterId).executeTakeFirst()
  return row?.balance_minor ?? 0
}

/** The punter's balance now (minor units; 0 for no such punter). */
export function balanceOf(data: DataLayer, punterId: number): Promise<number> {
  return balanceIn(data.db, punterId)
}
