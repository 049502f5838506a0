/**
 * Bets as rows: one per bet (single or accumulator) with its selections and the price each was
 * taken at. A bet's idempotency key is unique per punter, so a double tap (or 20 concurrent taps,
 * on one instance or several) writes ONE bet; its stake is debited under the unique ledger
 * reference `bet:<id>`. Settling or cashing out moves a bet from `open` only once (a conditional
 * UPDATE) and then credits it under `bet-win:<id>` or `bet-cashout:<id>`.
 *
 * On the query layer (issue 16): the same queries on SQLite and PostgreSQL. The balance and the
 * ledger are the punters store's (server/punters/events.ts), so the bet and its money are two
 * steps, each ordered so a crash between them loses nothing (server/db/README.md, step 6):
 *  - placing: the bet is written `pending` (fixed per key), then the stake is debited, then the bet
 *    opens. A pending bet is never settled nor listed; a retry with the key (or the sweep in
 *    ./settlement.ts) runs the same idempotent debit and opens it, a refused debit withdraws it.
 *  - closing: the bet is claimed (`open` → won/lost/void/cashed_out, once), then credited, then
 *    marked paid (`paid_at`). A claimed bet left unpaid by a crash is credited again by its
 *    reference (a no-op when the ledger has it) by the sweep.
 * These tables carry no foreign key to punters (the two stores may sit in different databases
 * while the conversion runs).
 */
import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import { oneOf, schemaStep, sqliteHistory } from '../db/schema'
import type { DataLayer } from '../db/data-layer'
import type { Tables } from '../db/tables'

export const sqliteBets701Bets = sqliteHistory(
  'bets-701-bets',
  `CREATE TABLE bets (
     id TEXT PRIMARY KEY,
     punter_id INTEGER NOT NULL REFERENCES punters(id),
     idempotency_key TEXT NOT NULL,
     kind TEXT NOT NULL,
     stake_minor INTEGER NOT NULL,
     currency TEXT NOT NULL,
     price REAL NOT NULL,
     status TEXT NOT NULL DEFAULT 'open',
     payout_minor INTEGER,
     created_at INTEGER NOT NULL,
     settled_at INTEGER,
     UNIQUE (punter_id, idempotency_key)
   );
   CREATE INDEX bets_punter_status ON bets (punter_id, status, created_at);
   CREATE TABLE bet_selections (
     bet_id TEXT NOT NULL REFERENCES bets(id),
     selection_id TEXT NOT NULL,
     event_id TEXT NOT NULL,
     price REAL NOT NULL,
     description TEXT NOT NULL,
     result TEXT,
     PRIMARY KEY (bet_id, selection_id)
   );
   CREATE INDEX bet_selections_selection ON bet_selections (selection_id);`,
)

// Issue 16: a leg's order was SQLite's rowid, which PostgreSQL has not (old legs keep theirs as
// their position); a closed bet's credit is a step of its own (old closed bets were credited in
// the transaction that closed them, so they count as paid when they closed).
export const sqliteBets703LegPositionPaidAt = sqliteHistory(
  'bets-703-leg-position-paid-at',
  `ALTER TABLE bet_selections ADD COLUMN position INTEGER NOT NULL DEFAULT 0;
   UPDATE bet_selections SET position = rowid;
   ALTER TABLE bets ADD COLUMN paid_at INTEGER;
   UPDATE bets SET paid_at = settled_at WHERE status <> 'open';`,
)

export const BET_STATUSES = ['open', 'won', 'lost', 'void', 'cashed_out'] as const
export type BetStatus = (typeof BET_STATUSES)[number]
/** A bet written but its stake not yet debited: neither listed nor settled (see the file's comment). */
export type StoredBetStatus = BetStatus | 'pending'
const CLOSED: Exclude<BetStatus, 'open'>[] = ['won', 'lost', 'void', 'cashed_out']
export type BetKind = 'single' | 'accumulator'

interface BetTable {
  id: string
  punter_id: number
  idempotency_key: string
  kind: BetKind
  stake_minor: number
  currency: string
  price: number
  status: StoredBetStatus
  payout_minor: number | null
  created_at: number
  settled_at: number | null
  /** When the payout was credited (at the close for a lost bet); null while a claimed bet is unpaid. */
  paid_at: number | null
  /** stake × the legs' prices, rounded down (kernel/core/payout.ts); null for bets placed before q085. */
  potential_win_minor: number | null
}

interface BetSelectionTable {
  bet_id: string
  selection_id: string
  event_id: string
  price: number
  description: string
  result: BetLeg['result']
  /** The leg's place in the bet (the order the punter picked them). */
  position: number
}

declare module '../db/tables' {
  interface Tables {
    bets: BetTable
    bet_selections: BetSelectionTable
  }
}

export const q080Bets = schemaStep('q080-bets', async (db) => {
  await db.schema
    .createTable('bets')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('punter_id', 'bigint', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(oneOf('kind', ['single', 'accumulator'])))
    .addColumn('stake_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('price', 'double precision', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open').check(oneOf('status', ['pending', ...BET_STATUSES])))
    .addColumn('payout_minor', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('settled_at', 'bigint')
    .addColumn('paid_at', 'bigint')
    .addUniqueConstraint('bets_punter_key', ['punter_id', 'idempotency_key'])
    .execute()
  await db.schema.createIndex('bets_punter_status').ifNotExists().on('bets').columns(['punter_id', 'status', 'created_at']).execute()
  await db.schema
    .createTable('bet_selections')
    .ifNotExists()
    .addColumn('bet_id', 'text', (c) => c.notNull().references('bets.id'))
    .addColumn('selection_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('price', 'double precision', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('result', 'text')
    .addColumn('position', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('bet_selections_pk', ['bet_id', 'selection_id'])
    .execute()
  await db.schema.createIndex('bet_selections_selection').ifNotExists().on('bet_selections').column('selection_id').execute()
})

// Issue 28: the potential win is computed once, exactly, when the bet is placed, and kept: what the
// bet shows, what the payout caps were checked against (the daily one sums it) and what a win pays.
export const q085BetPotentialWin = schemaStep('q085-bet-potential-win', async (db) => {
  await db.schema.alterTable('bets').addColumn('potential_win_minor', 'bigint').execute()
  await db.schema.createIndex('bets_punter_created').ifNotExists().on('bets').columns(['punter_id', 'created_at']).execute()
})

export interface BetLeg {
  selectionId: string
  eventId: string
  price: number
  /** "Home – Away: 1" as the punter saw it (kept: the feed forgets old events). */
  description: string
  result: 'WIN' | 'LOSE' | 'VOID' | null
}

export interface Bet {
  id: string
  punterId: number
  kind: BetKind
  stakeMinor: number
  currency: string
  /** The combined decimal price taken (product of the legs' prices, to two decimals: for display). */
  price: number
  /** stake × the legs' prices exactly, rounded down: shown, capped and paid (null: a bet from before it was kept). */
  potentialWinMinor: number | null
  status: StoredBetStatus
  payoutMinor: number | null
  createdAt: number
  settledAt: number | null
  paidAt: number | null
  legs: BetLeg[]
}

type Db = Kysely<Tables>

/** The bets of these rows with their legs (one query for all the legs). */
async function withLegs(db: Db, rows: BetTable[]): Promise<Bet[]> {
  if (rows.length === 0) return []
  const legs = await db
    .selectFrom('bet_selections')
    .selectAll()
    .where(
      'bet_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('bet_id')
    .orderBy('position')
    .execute()
  return rows.map((row) => ({
    id: row.id,
    punterId: row.punter_id,
    kind: row.kind,
    stakeMinor: row.stake_minor,
    currency: row.currency,
    price: row.price,
    potentialWinMinor: row.potential_win_minor,
    status: row.status,
    payoutMinor: row.payout_minor,
    createdAt: row.created_at,
    settledAt: row.settled_at,
    paidAt: row.paid_at,
    legs: legs
      .filter((l) => l.bet_id === row.id)
      .map((l) => ({ selectionId: l.selection_id, eventId: l.event_id, price: l.price, description: l.description, result: l.result })),
  }))
}

export async function findBet(db: Db, id: string): Promise<Bet | undefined> {
  const row = await db.selectFrom('bets').selectAll().where('id', '=', id).executeTakeFirst()
  return row && (await withLegs(db, [row]))[0]
}

export async function findBetByKey(db: Db, punterId: number, key: string): Promise<Bet | undefined> {
  const row = await db.selectFrom('bets').selectAll().where('punter_id', '=', punterId).where('idempotency_key', '=', key).executeTakeFirst()
  return row && (await withLegs(db, [row]))[0]
}

/** The punter's bets: open ones, or settled ones (newest first, at most `limit`). */
export async function listBets(db: Db, punterId: number, which: 'open' | 'settled', limit = 50): Promise<Bet[]> {
  const rows = await db
    .selectFrom('bets')
    .selectAll()
    .where('punter_id', '=', punterId)
    .where('status', 'in', which === 'open' ? ['open'] : CLOSED)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
  return withLegs(db, rows)
}

export async function countOpenBets(db: Db, punterId: number): Promise<number> {
  const row = await db.selectFrom('bets').select((eb) => eb.fn.countAll<number>().as('n')).where('punter_id', '=', punterId).where('status', '=', 'open').executeTakeFirstOrThrow()
  return Number(row.n)
}

/** The legs of open bets on these selections (in chunks: a feed catching up moves thousands at once). */
export async function openLegsWith(db: Db, selectionIds: readonly string[]): Promise<{ betId: string; selectionId: string }[]> {
  const legs: { betId: string; selectionId: string }[] = []
  const ids = [...new Set(selectionIds)]
  for (let from = 0; from < ids.length; from += 500)
    legs.push(
      ...(await db
        .selectFrom('bets')
        .innerJoin('bet_selections', 'bet_selections.bet_id', 'bets.id')
        .select(['bets.id as betId', 'bet_selections.selection_id as selectionId'])
        .where('bets.status', '=', 'open')
        .where('bet_selections.selection_id', 'in', ids.slice(from, from + 500))
        .execute()),
    )
  return legs
}

/** Open bets holding one of these selections. */
export async function openBetIdsWith(db: Db, selectionIds: readonly string[]): Promise<string[]> {
  return [...new Set((await openLegsWith(db, selectionIds)).map((leg) => leg.betId))]
}

export async function allOpenBetIds(db: Db): Promise<string[]> {
  return (await db.selectFrom('bets').select('id').where('status', '=', 'open').execute()).map((r) => r.id)
}

export interface NewBet {
  punterId: number
  idempotencyKey: string
  kind: BetKind
  stakeMinor: number
  currency: string
  price: number
  potentialWinMinor: number
  legs: Omit<BetLeg, 'result'>[]
}

export interface DailyPayoutExceeded {
  exceeded: true
  /** What the limit still allows in the rolling window. */
  availableMinor: number
}

/** What a daily payout limit allows: the potential wins of the punter's bets of the last 24 hours plus this one. */
export interface DailyPayoutLimit {
  maximumMinor: number
  windowMs: number
}

/** The potential wins of the punter's bets (any status; withdrawn ones are gone) placed after `since`. */
export async function potentialWinsSince(db: Db, punterId: number, since: number): Promise<number> {
  const row = await db
    .selectFrom('bets')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('potential_win_minor'), eb.lit(0)).as('total'))
    .where('punter_id', '=', punterId)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

/**
 * Writes the bet `pending` with its legs, unless its key already has one (a parallel request with
 * the same key, on any instance, keeps the first); answers the key's bet either way. With a daily
 * payout limit, the sum of the punter's potential wins of the last 24 hours is read and the bet
 * written in one transaction, one at a time per punter on every instance (parallel bets never both
 * fit under one limit); a bet that would pass it is not written: answered with what is left.
 */
export async function insertPendingBet(data: DataLayer, input: NewBet, now: number): Promise<Bet>
export async function insertPendingBet(data: DataLayer, input: NewBet, now: number, daily: DailyPayoutLimit): Promise<Bet | DailyPayoutExceeded>
export async function insertPendingBet(data: DataLayer, input: NewBet, now: number, daily?: DailyPayoutLimit): Promise<Bet | DailyPayoutExceeded> {
  const id = randomBytes(12).toString('base64url')
  const refused = await data.transaction(
    async (tx) => {
      if (daily && !(await tx.selectFrom('bets').select('id').where('punter_id', '=', input.punterId).where('idempotency_key', '=', input.idempotencyKey).executeTakeFirst())) {
        const used = await potentialWinsSince(tx, input.punterId, now - daily.windowMs)
        if (used + input.potentialWinMinor > daily.maximumMinor) return { exceeded: true as const, availableMinor: Math.max(0, daily.maximumMinor - used) }
      }
      const inserted = await tx
        .insertInto('bets')
        .values({ id, punter_id: input.punterId, idempotency_key: input.idempotencyKey, kind: input.kind, stake_minor: input.stakeMinor, currency: input.currency, price: input.price, potential_win_minor: input.potentialWinMinor, status: 'pending', created_at: now })
        .onConflict((oc) => oc.columns(['punter_id', 'idempotency_key']).doNothing())
        .returning('id')
        .executeTakeFirst()
      if (!inserted) return undefined
      await tx
        .insertInto('bet_selections')
        .values(input.legs.map((l, position) => ({ bet_id: id, selection_id: l.selectionId, event_id: l.eventId, price: l.price, description: l.description, position })))
        .execute()
      return undefined
    },
    { serialiseOn: `bets:${input.punterId}` },
  )
  if (refused) return refused
  return (await findBetByKey(data.db, input.punterId, input.idempotencyKey))!
}

/**
 * A pending bet whose stake is debited becomes open (once; a no-op for a bet already open or
 * closed). Answers false when the bet is gone: withdrawn by a parallel request of its key whose
 * debit was refused before this one's went through.
 */
export async function openPendingBet(data: DataLayer, betId: string): Promise<boolean> {
  return data.transaction(
    async (tx) => {
      await tx.updateTable('bets').set({ status: 'open' }).where('id', '=', betId).where('status', '=', 'pending').execute()
      return (await tx.selectFrom('bets').select('id').where('id', '=', betId).executeTakeFirst()) !== undefined
    },
    { serialiseOn: `bet:${betId}` },
  )
}

/**
 * Withdraws a pending bet its debit refused (not enough funds): nothing was staked. Serialised
 * with opening it (a retry of the key on another instance may have been debited meanwhile): the
 * legs go only with a bet still pending.
 */
export async function withdrawPendingBet(data: DataLayer, betId: string): Promise<void> {
  await data.transaction(
    async (tx) => {
      const pending = await tx.selectFrom('bets').select('id').where('id', '=', betId).where('status', '=', 'pending').executeTakeFirst()
      if (!pending) return
      await tx.deleteFrom('bet_selections').where('bet_id', '=', betId).execute()
      await tx.deleteFrom('bets').where('id', '=', betId).execute()
    },
    { serialiseOn: `bet:${betId}` },
  )
}

/** Pending bets written before `before` (their request ended without finishing them). */
export async function stalePendingBets(db: Db, before: number): Promise<Bet[]> {
  return withLegs(db, await db.selectFrom('bets').selectAll().where('status', '=', 'pending').where('created_at', '<', before).limit(100).execute())
}

export async function recordLegResult(db: Db, betId: string, selectionId: string, result: NonNullable<BetLeg['result']>): Promise<void> {
  await db.updateTable('bet_selections').set({ result }).where('bet_id', '=', betId).where('selection_id', '=', selectionId).where('result', 'is', null).execute()
}

/**
 * Claims an open bet for closing, once across instances (a conditional UPDATE); answers whether
 * this call closed it. A bet with nothing to pay is paid as it closes.
 */
export async function closeBet(db: Db, betId: string, status: Exclude<BetStatus, 'open'>, payoutMinor: number, now: number): Promise<boolean> {
  const closed = await db
    .updateTable('bets')
    .set({ status, payout_minor: payoutMinor, settled_at: now, paid_at: payoutMinor === 0 ? now : null })
    .where('id', '=', betId)
    .where('status', '=', 'open')
    .executeTakeFirst()
  return Number(closed.numUpdatedRows) === 1
}

/** Records that a closed bet's payout is in the ledger. */
export async function markPaid(db: Db, betId: string, now: number): Promise<void> {
  await db.updateTable('bets').set({ paid_at: now }).where('id', '=', betId).where('paid_at', 'is', null).execute()
}

/** Closed bets whose payout is not recorded as credited (a crash between claim and credit). */
export async function unpaidClosedBets(db: Db): Promise<Bet[]> {
  return withLegs(db, await db.selectFrom('bets').selectAll().where('status', 'in', CLOSED).where('paid_at', 'is', null).limit(100).execute())
}
