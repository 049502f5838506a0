/**
 * Game rounds and favourites as rows. A round is the stake and the win in ONE ledger entry (the
 * net change) under `game:<punter>:<key>`, so a double tap plays one round; favourites are kept
 * per punter and product (casino, live-casino, live-games, virtual-sports …) on the server.
 *
 * On the query layer (issue 16): the same queries on SQLite and PostgreSQL. The balance and the
 * ledger are the punters store's (server/punters/events.ts), so these tables carry no foreign key
 * to punters (the two stores may sit in different databases while the conversion runs) and a
 * round is written before its ledger entry (see playRound in ./index.ts).
 */
import type { Kysely } from 'kysely'
import { schemaStep, sqliteHistory } from '../db/schema'
import type { Tables } from '../db/tables'

export const sqliteGames801Rounds = sqliteHistory(
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

interface GameRoundTable {
  id: string
  punter_id: number
  idempotency_key: string
  product: string
  game_id: string
  engine: 'slot' | 'crash'
  stake_minor: number
  win_minor: number
  /** JSON of the engine's outcome (it recomputes from the round id). */
  outcome: string
  created_at: number
}

interface GameFavoriteTable {
  punter_id: number
  product: string
  game_id: string
  created_at: number
}

declare module '../db/tables' {
  interface Tables {
    game_rounds: GameRoundTable
    game_favorites: GameFavoriteTable
  }
}

export const q041Games = schemaStep('q041-games', async (db) => {
  await db.schema
    .createTable('game_rounds')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('punter_id', 'bigint', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('product', 'text', (c) => c.notNull())
    .addColumn('game_id', 'text', (c) => c.notNull())
    .addColumn('engine', 'text', (c) => c.notNull())
    .addColumn('stake_minor', 'bigint', (c) => c.notNull())
    .addColumn('win_minor', 'bigint', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('game_rounds_punter_key', ['punter_id', 'idempotency_key'])
    .execute()
  await db.schema
    .createTable('game_favorites')
    .ifNotExists()
    .addColumn('punter_id', 'bigint', (c) => c.notNull())
    .addColumn('product', 'text', (c) => c.notNull())
    .addColumn('game_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('game_favorites_pk', ['punter_id', 'product', 'game_id'])
    .execute()
})

export interface Round {
  roundId: string
  product: string
  gameId: string
  engine: 'slot' | 'crash'
  stake: number
  win: number
  outcome: Record<string, unknown>
}

type RoundRow = Pick<GameRoundTable, 'id' | 'product' | 'game_id' | 'engine' | 'stake_minor' | 'win_minor' | 'outcome'>

const toRound = (row: RoundRow): Round => ({
  roundId: row.id,
  product: row.product,
  gameId: row.game_id,
  engine: row.engine,
  stake: row.stake_minor / 100,
  win: row.win_minor / 100,
  outcome: JSON.parse(row.outcome) as Record<string, unknown>,
})

/** The round of a key with its amounts in minor units (the debit of a round found again needs them). */
export async function findRoundByKey(db: Kysely<Tables>, punterId: number, key: string): Promise<(Round & { stakeMinor: number; winMinor: number }) | undefined> {
  const row = await db
    .selectFrom('game_rounds')
    .select(['id', 'product', 'game_id', 'engine', 'stake_minor', 'win_minor', 'outcome'])
    .where('punter_id', '=', punterId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst()
  return row && { ...toRound(row), stakeMinor: row.stake_minor, winMinor: row.win_minor }
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

/** Writes the round unless its key already has one (a parallel request with the same key keeps the first). */
export async function insertRound(db: Kysely<Tables>, r: NewRound, now: number): Promise<void> {
  await db
    .insertInto('game_rounds')
    .values({ id: r.id, punter_id: r.punterId, idempotency_key: r.idempotencyKey, product: r.product, game_id: r.gameId, engine: r.engine, stake_minor: r.stakeMinor, win_minor: r.winMinor, outcome: JSON.stringify(r.outcome), created_at: now })
    .onConflict((oc) => oc.columns(['punter_id', 'idempotency_key']).doNothing())
    .execute()
}

/** Withdraws a round its ledger entry refused (not enough funds): nothing was played. */
export async function deleteRound(db: Kysely<Tables>, roundId: string): Promise<void> {
  await db.deleteFrom('game_rounds').where('id', '=', roundId).execute()
}

export async function favorites(db: Kysely<Tables>, punterId: number, product: string): Promise<string[]> {
  const rows = await db.selectFrom('game_favorites').select('game_id').where('punter_id', '=', punterId).where('product', '=', product).orderBy('created_at').orderBy('game_id').execute()
  return rows.map((r) => r.game_id)
}

export async function setFavorite(db: Kysely<Tables>, punterId: number, product: string, gameId: string, favorite: boolean, now: number): Promise<void> {
  if (favorite) await db.insertInto('game_favorites').values({ punter_id: punterId, product, game_id: gameId, created_at: now }).onConflict((oc) => oc.doNothing()).execute()
  else await db.deleteFrom('game_favorites').where('punter_id', '=', punterId).where('product', '=', product).where('game_id', '=', gameId).execute()
}
