/**
 * Brings a database up to date with ./migrations/index.ts: once, under a database lock, in the
 * list's order, skipping the names the database has already applied (its `migrations` table).
 *
 * Many instances may start at once on one database (replicas of a deployment): the whole run is
 * ONE transaction that first takes the lock (PostgreSQL: a transaction-scoped advisory lock, waited
 * for as long as a starting instance waits for locks, ./data-layer.ts's STARTUP_LOCK_WAIT_MS;
 * SQLite: BEGIN IMMEDIATE, the file's write lock, which in WAL mode is what EXCLUSIVE takes too).
 * The first instance applies the missing steps and commits; the others wait for the lock, then
 * find every name applied and apply nothing. A failing step rolls the whole run
 * back (both engines have transactional DDL), so a database is never left half-migrated.
 */
import { sql } from 'kysely'
import type { DataLayer } from './data-layer'
import { MIGRATIONS } from './migrations'
import type { Migration } from './schema'

const LOCK = 'parlay:migrations'

/** The migrations table itself; on SQLite the statement every existing file was created with. */
const SQLITE_MIGRATIONS_TABLE = 'CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)'

/** Applies every step of `migrations` (default: the list) the database lacks; answers their names, in order. */
export async function migrateDatabase(data: DataLayer, options: { migrations?: readonly Migration[]; now?: () => number } = {}): Promise<string[]> {
  const { migrations = MIGRATIONS, now = Date.now } = options
  return data.transaction(async (tx) => {
    if (data.engine === 'postgres') {
      await sql`select pg_advisory_xact_lock(hashtextextended(${LOCK}, 0))`.execute(tx)
      await tx.schema.createTable('migrations').ifNotExists().addColumn('name', 'text', (c) => c.primaryKey()).addColumn('applied_at', 'bigint', (c) => c.notNull()).execute()
    } else await sql.raw(SQLITE_MIGRATIONS_TABLE).execute(tx)
    const applied = new Set((await tx.selectFrom('migrations').select('name').execute()).map((row) => row.name))
    const ran: string[] = []
    for (const step of migrations) {
      if (applied.has(step.name)) continue
      if (step.kind === 'sqlite-history') {
        if (data.engine !== 'sqlite') continue // PostgreSQL starts from the query layer's steps
        data.sqlite!.exec(step.sql) // several statements: the handle under this transaction runs them in it
      } else await step.up(tx, data.engine)
      await tx.insertInto('migrations').values({ name: step.name, applied_at: now() }).execute()
      applied.add(step.name)
      ran.push(step.name)
    }
    return ran
  })
}
