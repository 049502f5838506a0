/**
 * What a migration is, and the helpers the steps are written with. The steps themselves live
 * beside the store that owns their tables (exported constants, nothing registers itself on import),
 * and ONE ordered list, ./migrations/index.ts, says which run and in what order; ./migrate.ts runs
 * that list once under a database lock.
 *
 * Two kinds, recorded in the same `migrations` table by name:
 * - `sqliteHistory(name, sql)`: the raw SQL that built SQLite files before the query layer
 *   existed (names like `001-punters`, `bets-701-bets`). Frozen: existing SQLite files have them
 *   applied, and a fresh SQLite file still replays them so it ends with exactly the same tables.
 *   They never run on PostgreSQL. Never add one.
 * - `schemaStep(name, up)`: Kysely's schema builder, both engines (names `q` + three digits). A
 *   store that moved to the query layer re-declared its tables in one with `ifNotExists` (a no-op
 *   on SQLite files that have them, the tables on PostgreSQL). Every new table or change is one.
 */
import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely'
import type { Engine } from './engine'

declare module './tables' {
  interface Tables {
    migrations: { name: string; applied_at: number }
  }
}

export type Migration =
  | { name: string; kind: 'sqlite-history'; sql: string }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  | { name: string; kind: 'schema'; up(db: Kysely<any>, engine: Engine): Promise<void> }

/** A step of the SQLite files' raw-SQL history (SQLite only, frozen: see above). */
export function sqliteHistory(name: string, sqlText: string): Migration {
  return { name, kind: 'sqlite-history', sql: sqlText }
}

/** A query-layer step, both engines; its name is `q` and three digits, then what it does. */
export function schemaStep(name: string, up: Extract<Migration, { kind: 'schema' }>['up']): Migration {
  if (!/^q\d{3}-/.test(name)) throw new Error(`query-layer migration names start with q and three digits: ${name}`)
  return { name, kind: 'schema', up }
}

/** A surrogate key column on both engines: SQLite's rowid alias, PostgreSQL's identity. */
export function surrogateKey(engine: Engine) {
  return engine === 'postgres'
    ? (c: ColumnDefinitionBuilder) => c.primaryKey().generatedByDefaultAsIdentity()
    : (c: ColumnDefinitionBuilder) => c.primaryKey().autoIncrement()
}

/** The column type of a surrogate key: INTEGER on SQLite (the rowid alias), BIGINT on PostgreSQL. */
export const surrogateKeyType = (engine: Engine) => (engine === 'postgres' ? 'bigint' : 'integer')

/** A CHECK that a text column is one of some values (the same SQL on both engines). */
export const oneOf = (column: string, values: readonly string[]) => sql.raw(`${column} IN (${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')})`)
