/**
 * Punter events inside the server (spec §3 push/socket event kinds): whoever changes a punter's
 * account emits here — `punterEvents.emit('accountUpdate', { punterId, balance })` — and the socket
 * server forwards the event to that punter's open sockets. An event without a punterId (a mirror
 * change) goes to every punter socket.
 *
 * Balance changes (issue 12, issue 28): every one goes through `changeBalance` (or `applyChange`
 * inside a transaction that holds the punter's lock), which writes its ledger entries and the
 * balances they move in one transaction and, once applied, emits `accountUpdate`. A change's
 * reference is unique (a payment id, a promo code use), so the same change is applied once. Real
 * money, deposit play-through and each bonus account are separate accounts of the ledger
 * (./accounts.ts); a stake's and a payout's shares are planned in ./stakes.ts.
 * On the query layer (issue 16): the ledger and the balances are the punters store's (./tables.ts).
 */
import { EventEmitter } from 'node:events'
import type { Kysely, Transaction } from 'kysely'
import type { DataLayer } from '../db/data-layer'
import type { Tables } from '../db/tables'
import { PLAYTHROUGH, REAL } from './accounts'
import { convertIfWagered } from './bonuses'
import { alreadyApplied, AppliedMeanwhile, Insufficient, realBalances, writeLegs, type Leg } from './ledger'
import { punterLock } from './repository'
import { payoutLegs, stakeLegs, type Stake } from './stakes'
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

/** The accountUpdate payload: the main balance and withdrawable after the change, major units (as balanceInfo). */
export interface AccountUpdate extends PunterEvent {
  punterId: number
  balance: number
  withdrawable: number
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
  /** Signed, minor units (cents): the change of the punter's money (a round: win − stake). */
  amountMinor: number
  /** Unique per change: the same reference is applied once, on every instance. */
  reference: string
  /** What the entry is: deposit, bet, game, withdrawal … */
  kind: string
  now: number
  /**
   * The real money the punter must hold BEFORE the change for it to apply. Checked inside the
   * punter's serialised transaction and again by the balance UPDATE itself, so concurrent debits on
   * several instances never overdraw. Default: a debit must not take the balance below zero; a
   * credit needs nothing. Not used with `stake` (the stake must be covered, real and bonus money).
   */
  requiredMinor?: number
  /** A stake on a product (./stakes.ts): real money first, then the product's bonus account; the
   * stake counts towards its wagering. `amountMinor` is then win − stake (a bet's stake: −stake). */
  stake?: Stake
  /** A payout of an earlier stake (a bet's win, cash-out or refund): back to its sources in proportion. */
  paysBack?: { reference: string; refund?: boolean }
  /** Deposited money that must be staked before it may be withdrawn (the deposit's play-through). */
  playthroughMinor?: number
  /** More writes that belong to the same change (first deposit date, a bet closed); run inside
   * the transaction, only when the change is applied. Await only the database here (see
   * server/db/README.md); throwing rolls the whole change back. */
  alsoWrite?: (tx: Transaction<Tables>) => Promise<void> | void
  /** A rule checked in the punter's serialised transaction before anything is written (a loss
   * limit: server/payments/loss-limits.ts); a refusal it answers leaves the change unapplied. */
  guard?: (tx: Transaction<Tables>, punterId: number) => Promise<ChangeRefusal | null>
}

/** Why a guard refused a change: the answer's status, code and payload. */
export interface ChangeRefusal {
  ok: false
  httpStatus: number
  code: string
  payload: Record<string, unknown>
}

export interface BalanceChangeResult {
  applied: boolean
  /** The punter's real money after (mainBalance), minor units. */
  balanceMinor: number
  /** Not applied because the balance did not cover the change (nothing was written). */
  insufficient?: boolean
  /** Not applied because the change's guard refused it (nothing was written). */
  refused?: ChangeRefusal
}

/** Thrown inside the transaction to roll it back with an answer (a refused or unknown punter). */
class NotApplied {
  constructor(readonly result: BalanceChangeResult) {}
}

/**
 * Applies one balance change atomically (its ledger entries, the balances they move, `alsoWrite`)
 * and emits accountUpdate after the commit. A reference already in the ledger changes nothing.
 *
 * Order, for several instances on one database: the punter first (`serialiseOn` the punter's key:
 * an advisory lock on PostgreSQL, SQLite's IMMEDIATE transaction already), so the changes of one
 * punter run one after another and the ledger's ids follow the order the balances moved in (each
 * entry's balance after follows from the one before on its account). Then the reference's check,
 * then the legs (./ledger.ts): each balance moved by a conditional UPDATE (never below zero) and
 * its entry written with the balance after; the first leg's reference is unique, the last guard if
 * a second instance applied the same reference. Call it outside other transactions: the event would
 * go out before the outer commit, and an outer transaction holding the punter's key would wait on
 * this one forever (inside one, use `applyChange`).
 */
export async function changeBalance(data: DataLayer, change: BalanceChange): Promise<BalanceChangeResult> {
  let result: BalanceChangeResult
  try {
    result = await data.transaction((tx) => applyChange(tx, change), { serialiseOn: punterLock(change.punterId) })
  } catch (error) {
    if (error instanceof AppliedMeanwhile) result = { applied: false, balanceMinor: await balanceIn(data.db, change.punterId) }
    else if (error instanceof NotApplied) result = error.result
    else throw error
  }
  if (result.applied) await announceBalance(data.db, change.punterId)
  return result
}

/**
 * `changeBalance` inside the caller's transaction, which must hold the punter's lock (serialiseOn
 * punterLock): a refusal throws (rolling the caller's transaction back), and the caller announces
 * the new balance after its commit (`announceBalance`).
 */
export async function applyChange(tx: Transaction<Tables>, change: BalanceChange): Promise<BalanceChangeResult> {
  if (await alreadyApplied(tx, change.reference)) return { applied: false, balanceMinor: await balanceIn(tx, change.punterId) }
  const refused = async () => new NotApplied({ applied: false, balanceMinor: await balanceIn(tx, change.punterId), insufficient: true })
  const refusal = change.guard ? await change.guard(tx, change.punterId) : null
  if (refusal) throw new NotApplied({ applied: false, balanceMinor: await balanceIn(tx, change.punterId), refused: refusal })
  const planned = await legsOf(tx, change)
  if (planned === 'INSUFFICIENT') throw await refused()
  try {
    await writeLegs(tx, change, planned.legs)
  } catch (error) {
    if (error instanceof Insufficient) throw await refused()
    throw error
  }
  if (planned.bonusId !== undefined) await convertIfWagered(tx, planned.bonusId, change.now)
  await change.alsoWrite?.(tx)
  return { applied: true, balanceMinor: await balanceIn(tx, change.punterId) }
}

async function legsOf(tx: Transaction<Tables>, change: BalanceChange): Promise<{ legs: Leg[]; bonusId?: number } | 'INSUFFICIENT'> {
  if (change.stake) return stakeLegs(tx, change.punterId, change.stake, change.amountMinor + change.stake.stakeMinor, change.now)
  if (change.paysBack) return { legs: await payoutLegs(tx, change.amountMinor, change.paysBack.reference, change.paysBack.refund === true) }
  const required = change.requiredMinor ?? (change.amountMinor < 0 ? -change.amountMinor : undefined)
  if (required !== undefined && (await balanceIn(tx, change.punterId)) < required) return 'INSUFFICIENT'
  const legs: Leg[] = [{ account: REAL, amountMinor: change.amountMinor }]
  if (change.playthroughMinor) legs.push({ account: PLAYTHROUGH, amountMinor: change.playthroughMinor, part: 'playthrough', kind: 'playthrough' })
  return { legs }
}

/** Tells the punter's sockets their money now (after a commit). */
export async function announceBalance(db: Kysely<Tables>, punterId: number): Promise<void> {
  const now = await realBalances(db, punterId)
  emitPunterEvent('accountUpdate', { punterId, balance: now.balance / 100, withdrawable: now.withdrawable / 100 } satisfies AccountUpdate)
}

async function balanceIn(db: Kysely<Tables>, punterId: number): Promise<number> {
  const row = await db.selectFrom('punters').select('balance_minor').where('id', '=', punterId).executeTakeFirst()
  return row?.balance_minor ?? 0
}

/** The punter's balance now (minor units; 0 for no such punter). */
export function balanceOf(data: DataLayer, punterId: number): Promise<number> {
  return balanceIn(data.db, punterId)
}
