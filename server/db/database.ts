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

/** Does this error mean the database cannot serve writes (answered 503, not 500)? SQLite's codes,
 * or a PostgreSQL outage seen by the query layer's pool (./storage-errors.ts). */
export function isStorageUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  if (error instanceof Database.SqliteError) return typeof code === 'string' && UNAVAILABLE_CODES.test(code)
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
  writersTakeTheLockFirst(db)
  return db
}

/**
 * Several processes on one file (issue 16): every transaction begins IMMEDIATE, taking the write
 * lock (waiting up to busy_timeout) before it reads. A deferred transaction that read first and
 * then wrote would fail with SQLITE_BUSY when another process committed in between, and a
 * read-then-append (the audit chain's last hash, a counter) would see a stale row. Nested
 * transactions are savepoints, as before.
 */
function writersTakeTheLockFirst(db: Db): void {
  const deferred = db.transaction.bind(db)
  db.transaction = ((fn: (...args: unknown[]) => unknown) => {
    const modes = deferred(fn)
    // better-sqlite3's modes are non-enumerable properties: Object.assign(…, modes) copied none of
    // them and every `.immediate()` call failed ("is not a function")
    const { deferred: asDeferred, immediate, exclusive } = modes
    return Object.assign((...args: unknown[]) => immediate(...args), { default: immediate, deferred: asDeferred, immediate, exclusive })
  }) as Db['transaction']
}

/**
 * Readiness: can the database take a write right now? A one-row insert inside a transaction that
 * is always rolled back (nothing is stored), so a read-only file, a lost lock or an I/O error shows
 * here. Answers null when writable, else the SQLite code.
 */
const ROLLBACK = Symbol('rollback')
export function writeProbe(db: Db): string | null {
  try {
    db.transaction(() => {
      db.prepare("INSERT INTO migrations (name, applied_at) VALUES ('~ready-probe', 0)").run()
      throw ROLLBACK
    })()
    return null
  } catch (error) {
    if (error === ROLLBACK) return null
    return (error as { code?: string }).code ?? 'SQLITE_ERROR'
  }
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
