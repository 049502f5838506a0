/**
 * Bets as rows: one per bet (single or accumulator) with its selections and the price each was
 * taken at. A bet's idempotency key is unique per punter, and the stake's ledger reference
 * (`bet:<punter>:<key>`) is unique too, so a double tap (or 20 concurrent taps) places ONE bet and
 * debits once. Settling moves a bet from `open` only once (a conditional UPDATE) and credits a win
 * under the unique reference `bet-win:<id>`. Rows live in SQLite: bets survive a restart.
 */
import { randomBytes } from 'node:crypto'
import { registerMigration, type Db } from '../db/database'

registerMigration(
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

export const BET_STATUSES = ['open', 'won', 'lost', 'void', 'cashed_out'] as const
export type BetStatus = (typeof BET_STATUSES)[number]
export type BetKind = 'single' | 'accumulator'

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
  /** The combined decimal price taken (product of the legs' prices). */
  price: number
  status: BetStatus
  payoutMinor: number | null
  createdAt: number
  settledAt: number | null
  legs: BetLeg[]
}

interface BetRow {
  id: string
  punter_id: number
  kind: BetKind
  stake_minor: number
  currency: string
  price: number
  status: BetStatus
  payout_minor: number | null
  created_at: number
  settled_at: number | null
}

interface LegRow {
  selection_id: string
  event_id: string
  price: number
  description: string
  result: BetLeg['result']
}

function withLegs(db: Db, row: BetRow): Bet {
  const legs = (db.prepare('SELECT * FROM bet_selections WHERE bet_id = ? ORDER BY rowid').all(row.id) as LegRow[]).map((l) => ({
    selectionId: l.selection_id,
    eventId: l.event_id,
    price: l.price,
    description: l.description,
    result: l.result,
  }))
  return {
    id: row.id,
    punterId: row.punter_id,
    kind: row.kind,
    stakeMinor: row.stake_minor,
    currency: row.currency,
    price: row.price,
    status: row.status,
    payoutMinor: row.payout_minor,
    createdAt: row.created_at,
    settledAt: row.settled_at,
    legs,
  }
}

export function findBet(db: Db, id: string): Bet | undefined {
  const row = db.prepare('SELECT * FROM bets WHERE id = ?').get(id) as BetRow | undefined
  return row && withLegs(db, row)
}

export function findBetByKey(db: Db, punterId: number, key: string): Bet | undefined {
  const row = db.prepare('SELECT * FROM bets WHERE punter_id = ? AND idempotency_key = ?').get(punterId, key) as BetRow | undefined
  return row && withLegs(db, row)
}

/** The punter's bets: open ones, or settled ones (newest first, at most `limit`). */
export function listBets(db: Db, punterId: number, which: 'open' | 'settled', limit = 50): Bet[] {
  const sql = which === 'open' ? "status = 'open'" : "status <> 'open'"
  const rows = db.prepare(`SELECT * FROM bets WHERE punter_id = ? AND ${sql} ORDER BY created_at DESC, rowid DESC LIMIT ?`).all(punterId, limit) as BetRow[]
  return rows.map((row) => withLegs(db, row))
}

export function countOpenBets(db: Db, punterId: number): number {
  return (db.prepare("SELECT COUNT(*) AS n FROM bets WHERE punter_id = ? AND status = 'open'").get(punterId) as { n: number }).n
}

/** Open bets holding this selection. */
export function openBetIdsWith(db: Db, selectionIds: readonly string[]): string[] {
  if (selectionIds.length === 0) return []
  const marks = selectionIds.map(() => '?').join(',')
  const rows = db
    .prepare(`SELECT DISTINCT b.id FROM bets b JOIN bet_selections s ON s.bet_id = b.id WHERE b.status = 'open' AND s.selection_id IN (${marks})`)
    .all(...selectionIds) as { id: string }[]
  return rows.map((r) => r.id)
}

export function allOpenBetIds(db: Db): string[] {
  return (db.prepare("SELECT id FROM bets WHERE status = 'open'").all() as { id: string }[]).map((r) => r.id)
}

export interface NewBet {
  punterId: number
  idempotencyKey: string
  kind: BetKind
  stakeMinor: number
  currency: string
  price: number
  legs: Omit<BetLeg, 'result'>[]
}

/** Inserts the bet and its legs (call inside the debit's transaction). */
export function insertBet(db: Db, input: NewBet, now: number): string {
  const id = randomBytes(12).toString('base64url')
  db.prepare('INSERT INTO bets (id, punter_id, idempotency_key, kind, stake_minor, currency, price, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
    id,
    input.punterId,
    input.idempotencyKey,
    input.kind,
    input.stakeMinor,
    input.currency,
    input.price,
    now,
  )
  const leg = db.prepare('INSERT INTO bet_selections (bet_id, selection_id, event_id, price, description) VALUES (?, ?, ?, ?, ?)')
  for (const l of input.legs) leg.run(id, l.selectionId, l.eventId, l.price, l.description)
  return id
}

export function recordLegResult(db: Db, betId: string, selectionId: string, result: NonNullable<BetLeg['result']>): void {
  db.prepare('UPDATE bet_selections SET result = ? WHERE bet_id = ? AND selection_id = ? AND result IS NULL').run(result, betId, selectionId)
}

/** Closes an open bet once; answers whether this call closed it. */
export function closeBet(db: Db, betId: string, status: Exclude<BetStatus, 'open'>, payoutMinor: number, now: number): boolean {
  return db.prepare("UPDATE bets SET status = ?, payout_minor = ?, settled_at = ? WHERE id = ? AND status = 'open'").run(status, payoutMinor, now, betId).changes === 1
}
