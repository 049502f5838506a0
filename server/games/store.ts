/**
 * Game rounds and favourites as rows. A round is the stake and the win in ONE ledger entry (the
 * net change) under `game:<punter>:<key>`, so a double tap plays one round; favourites are kept
 * per punter and product (casino, live-casino, live-games, virtual-sports …) on the server.
 */
import { registerMigration, type Db } from '../db/database'

registerMigration(
  'games-801-rounds',
  `CREATE TABLE game_rounds (
     id TEXT PRIMARY KEY,
     punter_id INTEGER NOT NULL REFERENCES punters(id),
     idempotency_key TEXT NOT NULL,
     product TEXT NOT NULL,
     game_id TEXT NOT NULL,
     engine TEXT NOT NULL,
     stake_minor INTEGER NOT NULL,
     win_minor INTEGER NOT NULL,
     outcome TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     UNIQUE (punter_id, idempotency_key)
   );
   CREATE TABLE game_favorites (
     punter_id INTEGER NOT NULL REFERENCES punters(id),
     product TEXT NOT NULL,
     game_id TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     PRIMARY KEY (punter_id, product, game_id)
   );`,
)

export interface Round {
  roundId: string
  product: string
  gameId: string
  engine: 'slot' | 'crash'
  stake: number
  win: number
  outcome: Record<string, unknown>
}

interface RoundRow {
  id: string
  product: string
  game_id: string
  engine: Round['engine']
  stake_minor: number
  win_minor: number
  outcome: string
}

const toRound = (row: RoundRow): Round => ({
  roundId: row.id,
  product: row.product,
  gameId: row.game_id,
  engine: row.engine,
  stake: row.stake_minor / 100,
  win: row.win_minor / 100,
  outcome: JSON.parse(row.outcome) as Record<string, unknown>,
})

export function findRoundByKey(db: Db, punterId: number, key: string): Round | undefined {
  const row = db.prepare('SELECT * FROM game_rounds WHERE punter_id = ? AND idempotency_key = ?').get(punterId, key) as RoundRow | undefined
  return row && toRound(row)
}

export interface NewRound {
  id: string
  punterId: number
  idempotencyKey: string
  product: string
  gameId: string
  engine: Round['engine']
  stakeMinor: number
  winMinor: number
  outcome: Record<string, unknown>
}

export function insertRound(db: Db, r: NewRound, now: number): void {
  db.prepare(
    'INSERT INTO game_rounds (id, punter_id, idempotency_key, product, game_id, engine, stake_minor, win_minor, outcome, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(r.id, r.punterId, r.idempotencyKey, r.product, r.gameId, r.engine, r.stakeMinor, r.winMinor, JSON.stringify(r.outcome), now)
}

export function favorites(db: Db, punterId: number, product: string): string[] {
  return (db.prepare('SELECT game_id FROM game_favorites WHERE punter_id = ? AND product = ? ORDER BY created_at, game_id').all(punterId, product) as { game_id: string }[]).map((r) => r.game_id)
}

export function setFavorite(db: Db, punterId: number, product: string, gameId: string, favorite: boolean, now: number): void {
  if (favorite) db.prepare('INSERT INTO game_favorites (punter_id, product, game_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING').run(punterId, product, gameId, now)
  else db.prepare('DELETE FROM game_favorites WHERE punter_id = ? AND product = ? AND game_id = ?').run(punterId, product, gameId)
}
