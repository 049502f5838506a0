/**
 * `npm run ledger:verify -- [data dir | parlay.db]`: recomputes every balance of every punter (real
 * money, deposit play-through, each bonus account and its wagering) from the ledger and checks each
 * entry's balance-after chain (server/punters/ledger-verify.ts), read-only. With
 * `DATABASE_URL=postgres://…` it reads that PostgreSQL database instead of the SQLite file.
 * Exit 0 with a one-line summary when every balance agrees; exit 1 naming the first punter and
 * account that disagree; exit 2 when the database cannot be read.
 */
import Database from 'better-sqlite3'
import { existsSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Db } from '../server/db/database'
import { engineOf, openDataLayer } from '../server/db/data-layer'
import { describeVerification, verifyLedger, type LedgerVerification } from '../server/punters/ledger-verify'

/** The ledger of an SQLite data folder (or its parlay.db), opened read-only. */
export async function verifyLedgerFile(path: string): Promise<LedgerVerification> {
  const file = existsSync(path) && statSync(path).isDirectory() ? join(path, 'parlay.db') : path
  const handle = new Database(file, { readonly: true, fileMustExist: true })
  const data = openDataLayer({ sqlite: handle as unknown as Db })
  try {
    return await verifyLedger(data.db)
  } finally {
    await data.close()
    handle.close()
  }
}

/** The ledger of a PostgreSQL database. */
export async function verifyLedgerDatabase(databaseUrl: string): Promise<LedgerVerification> {
  const data = openDataLayer({ databaseUrl, sqlite: undefined as never, poolSize: 1 })
  try {
    return await verifyLedger(data.db)
  } finally {
    await data.close()
  }
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)
if (isMain) {
  const target = resolve(process.argv[2] ?? join(import.meta.dirname, '..', 'data'))
  const databaseUrl = process.env.DATABASE_URL
  const where = databaseUrl && engineOf(databaseUrl) === 'postgres' ? 'the PostgreSQL database of DATABASE_URL' : target
  try {
    const result = databaseUrl && engineOf(databaseUrl) === 'postgres' ? await verifyLedgerDatabase(databaseUrl) : await verifyLedgerFile(target)
    if (result.ok) console.log(describeVerification(result))
    else console.error(describeVerification(result))
    process.exit(result.ok ? 0 : 1)
  } catch (error) {
    console.error(`ledger-verify: cannot read ${where}: ${(error as Error).message}`)
    process.exit(2)
  }
}
