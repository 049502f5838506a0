/**
 * Which database this is (issue 30): a random id the database is given when it is created (or
 * upgraded to this version), kept in the database itself. The audit anchor and every audit
 * checkpoint name it, so an anchor or checkpoint of another database — a data folder moved from
 * SQLite to PostgreSQL, a checkpoint of the staging database — is called that, not a rollback.
 * A copy of the database (a restored backup, `CREATE DATABASE … TEMPLATE`) keeps the id: it holds
 * the same log.
 */
import { randomUUID } from 'node:crypto'
import type { DataLayer } from './data-layer'
import { schemaStep } from './schema'
import type { DatabaseIdentity } from '../store/audit-anchor'

interface DatabaseIdentityTable {
  id: string
  created_at: number
}

declare module './tables' {
  interface Tables {
    database_identity: DatabaseIdentityTable
  }
}

export const q088DatabaseIdentity = schemaStep('q088-database-identity', async (db) => {
  await db.schema.createTable('database_identity').ifNotExists().addColumn('id', 'text', (c) => c.primaryKey()).addColumn('created_at', 'bigint', (c) => c.notNull()).execute()
  // the migration step runs once per database, under the migrations lock: one row
  await db.insertInto('database_identity').values({ id: randomUUID(), created_at: Date.now() }).execute()
})

const known = new WeakMap<DataLayer, DatabaseIdentity>()

/** The database's identity (read once per data layer). */
export async function databaseIdentity(data: DataLayer): Promise<DatabaseIdentity> {
  const cached = known.get(data)
  if (cached) return cached
  const row = await data.db.selectFrom('database_identity').select('id').orderBy('created_at').limit(1).executeTakeFirstOrThrow()
  const identity: DatabaseIdentity = { id: row.id, engine: data.engine }
  known.set(data, identity)
  return identity
}
