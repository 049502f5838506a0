/**
 * The database an operator's tool works on, opened as `npm start` opens it: SQLite under the data
 * folder (`PARLAY_DATA_DIR`, default `data/`), or PostgreSQL with `DATABASE_URL=postgres://…`;
 * every migration applied first (the tools may run before the first start).
 */
import { join, resolve } from 'node:path'
import { closeDatabase, openDatabase } from '../server/db/database'
import { engineOf, openDataLayer, type DataLayer } from '../server/db/data-layer'
import { migrateDatabase } from '../server/db/migrate'

export interface ToolDatabase {
  data: DataLayer
  dataDir: string
  close(): Promise<void>
}

export async function openToolDatabase(env: NodeJS.ProcessEnv = process.env, dataDir?: string): Promise<ToolDatabase> {
  const dir = resolve(dataDir ?? (env.PARLAY_DATA_DIR || join(import.meta.dirname, '..', 'data')))
  const databaseUrl = env.DATABASE_URL || undefined
  const sqlite = databaseUrl && engineOf(databaseUrl) === 'postgres' ? undefined : openDatabase(dir)
  const data = openDataLayer({ sqlite: sqlite as never, databaseUrl, poolSize: 2 })
  const close = async () => {
    await data.close()
    if (sqlite) closeDatabase(sqlite)
  }
  try {
    await migrateDatabase(data)
  } catch (error) {
    await close()
    throw error
  }
  return { data, dataDir: dir, close }
}
