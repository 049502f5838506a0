/**
 * The embedded database: one SQLite file under `data/` (better-sqlite3 12.x, synchronous, WAL).
 *
 * The tables are made by the migrations of ./migrations/index.ts (one ordered list, run by
 * ./migrate.ts once the file is open); the first three steps of the SQLite files' history are here.
 */
import Database from 'better-sqlite3'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { sqliteHistory } from './schema'
import { isPostgresUnavailable } from './storage-errors'

export type Db = Database.Database

/** The store cannot write: full disk, read-only file, I/O error, locked past the busy timeout, corrupt. */
const UNAVAILABLE_CODES = /^SQLITE_(FULL|READONLY|IOERR|BUSY|LOCKED|CORRUPT|NOTADB|CANTOPEN|PROTOCOL)(_|$)/

/** The disk under the data folder cannot take a file write (the audit anchor beside the database):
 * full, over quota, read-only, failing. Only errors of a system call count (Node's fs errors). */
const UNAVAILABLE_DISK = /^(ENOSPC|EDQUOT|EROFS|EIO)$/

/** Does this error mean the storage cannot serve writes (answered 503, not 500)? SQLite's codes, a
 * PostgreSQL outage seen by the query layer's pool (./storage-errors.ts), or the data folder's disk. */
export function isStorageUnavailable(error: unknown): boolean {
  const { code, syscall } = (error ?? {}) as { code?: unknown; syscall?: unknown }
  if (error instanceof Database.SqliteError) return typeof code === 'string' && UNAVAILABLE_CODES.test(code)
  if (typeof syscall === 'string' && typeof code === 'string' && UNAVAILABLE_DISK.test(code)) return true
  return isPostgresUnavailable(error)
}

/** Refusal to start on a database file SQLite cannot trust; the message says what to do. */
export class DatabaseCorruptError extends Error {
  constructor(file: string, detail: string) {
    super(
      `the database ${file} is damaged (${detail}). Parlay will not run on it: restore the file from a backup, ` +
        'or move it (with its -wal and -shm files) aside to start with an empty database.',
    )
    this.name = 'DatabaseCorruptError'
  }
}

/** PRAGMA quick_check (O(N), no index cross-check): 'ok', or the first problems it names. */
function quickCheck(db: Db): string {
  const rows = db.pragma('quick_check(5)') as { quick_check: string }[]
  return rows.map((r) => r.quick_check).join('; ')
}

/** Opens (creating if needed) `<dataDir>/parlay.db`, or an in-memory database for ':memory:'.
 * A file that is not a database, or fails `PRAGMA quick_check`, is refused (DatabaseCorruptError). */
export function openDatabase(dataDir: string): Db {
  let file = ':memory:'
  if (dataDir !== ':memory:') {
    mkdirSync(dataDir, { recursive: true })
    file = join(dataDir, 'parlay.db')
  }
  const db = new Database(file)
  try {
    db.pragma('busy_timeout = 5000')
    db.pragma('journal_mode = WAL')
    const check = quickCheck(db)
    if (check !== 'ok') throw new DatabaseCorruptError(file, `quick_check: ${check.slice(0, 300)}`)
  } catch (error) {
    db.close()
    if (error instanceof DatabaseCorruptError) throw error
    const code = (error as { code?: string }).code ?? ''
    if (/^SQLITE_(CORRUPT|NOTADB)/.test(code)) throw new DatabaseCorruptError(file, `${code}: ${(error as Error).message}`)
    throw error
  }
  db.pragma('foreign_keys = ON')
  return db
}

/** Closes the database cleanly: the WAL checkpointed into the main file and truncated, so no
 * `-wal` content is left behind (SQLite removes the file when the last connection closes). */
export function closeDatabase(db: Db): void {
  if (!db.open) return
  try {
    db.pragma('wal_checkpoint(TRUNCATE)')
  } catch {
    // A read-only or failing store cannot checkpoint; closing still releases it.
  }
  db.close()
}

export const sqlite001Punters = sqliteHistory(
  '001-punters',
  `CREATE TABLE punters (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     jurisdiction TEXT NOT NULL,
     account_number TEXT NOT NULL UNIQUE,
     email TEXT UNIQUE COLLATE NOCASE,
     phone TEXT UNIQUE,
     nickname TEXT UNIQUE COLLATE NOCASE,
     password_hash TEXT NOT NULL,
     state TEXT NOT NULL DEFAULT 'OPENED',
     first_name TEXT NOT NULL DEFAULT '',
     last_name TEXT NOT NULL DEFAULT '',
     birth_day TEXT,
     country_id INTEGER,
     currency TEXT NOT NULL DEFAULT 'USD',
     balance_minor INTEGER NOT NULL DEFAULT 0,
     withdrawable_minor INTEGER NOT NULL DEFAULT 0,
     first_deposit_date TEXT,
     vip INTEGER NOT NULL DEFAULT 0,
     legal_agreement TEXT NOT NULL DEFAULT 'accepted',
     email_confirmed INTEGER NOT NULL DEFAULT 1,
     phone_confirmed INTEGER NOT NULL DEFAULT 1,
     identity_state TEXT NOT NULL DEFAULT 'none',
     profile TEXT NOT NULL DEFAULT '{}',
     settings TEXT NOT NULL DEFAULT '{}',
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   );`,
)

export const sqlite002Documents = sqliteHistory(
  '002-documents',
  `CREATE TABLE documents (
     kind TEXT NOT NULL,
     id TEXT NOT NULL,
     jurisdiction TEXT NOT NULL DEFAULT '',
     variant TEXT NOT NULL DEFAULT '',
     file TEXT NOT NULL,
     hash TEXT NOT NULL,
     content TEXT NOT NULL,
     updated_at INTEGER NOT NULL,
     PRIMARY KEY (kind, id, jurisdiction, variant)
   );`,
)

// The served documents live in memory (server/documents/service.ts) and, versioned, in the
// document store's tables; this copy was written on every load and never read.
export const sqlite002bDropDocumentsCopy = sqliteHistory('002b-drop-documents-copy', 'DROP TABLE IF EXISTS documents;')
