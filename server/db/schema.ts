/**
 * Migrations of the query layer (./data-layer.ts): written once with Kysely's schema builder, run
 * by one migrator on both engines, recorded in the same `migrations` table as ./database.ts's raw
 * SQLite ones (names here start with "q", so the two registries never collide).
 *
 * A store that moves to the query layer re-declares its EXISTING tables here with `ifNotExists`:
 * on an existing SQLite file (tables made by its old raw-SQL migrations, which stay registered as
 * that file's history) the step is a no-op and no row is touched; on a fresh PostgreSQL database
 * it creates them. See server/db/README.md for the steps of moving a store.
 *
 * Each step runs in its own transaction, serialised across instances (BEGIN IMMEDIATE on SQLite,
 * an advisory lock on PostgreSQL) and re-checked under that lock, so two instances starting at
 * once apply a step once.
 */
import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely'
import type { DataLayer, Engine } from './data-layer'

declare module './tables' {
  interface Tables {
    migrations: { name: string; applied_at: number }
  }
}

export interface SchemaStep {
  name: string
  up(db: Kysely<any>, engine: Engine): Promise<void> // eslint-disable-line @typescript-eslint/no-explicit-any
}

const steps: SchemaStep[] = []

/** Registers a step (at module load, by the store that owns the tables); applied in this order. */
export function registerSchema(name: string, up: SchemaStep['up']): void {
  if (!/^q\d{3}-/.test(name)) throw new Error(`query-layer migration names start with q and three digits: ${name}`)
  if (!steps.some((s) => s.name === name)) steps.push({ name, up })
}

const LOCK = 'parlay:migrations'

/** Applies every registered step not applied yet; answers the names it applied. */
export async function migrateSchema(data: DataLayer, now: () => number = Date.now): Promise<string[]> {
  await data.transaction(async (tx) => {
    await tx.schema.createTable('migrations').ifNotExists().addColumn('name', 'text', (c) => c.primaryKey()).addColumn('applied_at', 'bigint', (c) => c.notNull()).execute()
  }, { serialiseOn: LOCK })
  const applied: string[] = []
  for (const step of steps) {
    const ran = await data.transaction(async (tx) => {
      if (await tx.selectFrom('migrations').select('name').where('name', '=', step.name).executeTakeFirst()) return false
      await step.up(tx, data.engine)
      await tx.insertInto('migrations').values({ name: step.name, applied_at: now() }).execute()
      return true
    }, { serialiseOn: LOCK })
    if (ran) applied.push(step.name)
  }
  return applied
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
