/**
 * Punter events inside the server (spec §3 push/socket event kinds): whoever changes a punter's
 * account emits here — `punterEvents.emit('accountUpdate', { punterId, balance })` — and the socket
 * server forwards the event to that punter's open sockets. An event without a punterId (a mirror
 * change) goes to every punter socket.
 *
 * Balance changes (issue 12): every one goes through `changeBalance`, which writes a ledger entry
 * and the new balance in one transaction and, once applied, emits `accountUpdate`. A ledger
 * entry's reference is unique (a payment id, a promo code use), so the same change is applied once.
 */
import { EventEmitter } from 'node:events'
import { registerMigration, type Db } from '../db/database'

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

registerMigration(
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
  /** Unique per change: the same reference is applied once. */
  reference: string
  /** What the entry is: deposit, bonus … */
  kind: string
  now: number
  /** More writes that belong to the same change (first deposit date, payment status); run inside
   * the transaction, only when the change is applied. */
  alsoWrite?: () => void
}

export interface BalanceChangeResult {
  applied: boolean
  balanceMinor: number
}

/**
 * Applies one balance change atomically (ledger entry, balance, `alsoWrite`) and emits
 * accountUpdate after the commit. A reference already in the ledger changes nothing.
 * Call it outside other transactions: inside one it nests as a savepoint, and the event would go
 * out before the outer commit.
 */
export function changeBalance(db: Db, change: BalanceChange): BalanceChangeResult {
  const result = db.transaction((): BalanceChangeResult => {
    const inserted = db
      .prepare(
        `INSERT INTO ledger_entries (punter_id, reference, kind, amount_minor, balance_after_minor, created_at)
         SELECT id, ?, ?, ?, balance_minor + ?, ? FROM punters WHERE id = ?
         ON CONFLICT(reference) DO NOTHING`,
      )
      .run(change.reference, change.kind, change.amountMinor, change.amountMinor, change.now, change.punterId)
    const current = db.prepare('SELECT balance_minor FROM punters WHERE id = ?').get(change.punterId) as { balance_minor: number } | undefined
    if (inserted.changes === 0 || !current) return { applied: false, balanceMinor: current?.balance_minor ?? 0 }
    db.prepare('UPDATE punters SET balance_minor = balance_minor + ?, updated_at = ? WHERE id = ?').run(change.amountMinor, change.now, change.punterId)
    change.alsoWrite?.()
    return { applied: true, balanceMinor: current.balance_minor + change.amountMinor }
  }).immediate()
  if (result.applied) emitPunterEvent('accountUpdate', { punterId: change.punterId, balance: result.balanceMinor / 100 } satisfies AccountUpdate)
  return result
}
