/**
 * The embedded database: one SQLite file under `data/` (better-sqlite3 12.x, synchronous, WAL).
 *
 * Migrations are named, applied once, in the order they are registered, inside a transaction.
 * Each part of the server registers its own (`registerMigration` at module load) so the accounts,
 * sign-up, experiments and document-store code each own their tables.
 */
import Database from 'better-sqlite3'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'

export type Db = Database.Database

interface Migration {
  name: string
  sql: string
}

const migrations: Migration[] = []

export function registerMigration(name: string, sql: string): void {
  if (!migrations.some((m) => m.name === name)) migrations.push({ name, sql })
}

/** Opens (creating if needed) `<dataDir>/parlay.db`, or an in-memory database for ':memory:'. */
export function openDatabase(dataDir: string): Db {
  let file = ':memory:'
  if (dataDir !== ':memory:') {
    mkdirSync(dataDir, { recursive: true })
    file = join(dataDir, 'parlay.db')
  }
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
  db.exec('CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)')
  runMigrations(db)
  return db
}

/** Applies every registered migration not applied yet. Safe to call again after more register. */
export function runMigrations(db: Db): void {
  const applied = new Set((db.prepare('SELECT name FROM migrations').all() as { name: string }[]).map((r) => r.name))
  for (const migration of migrations) {
    if (applied.has(migration.name)) continue
    db.transaction(() => {
      db.exec(migration.sql)
      db.prepare('INSERT INTO migrations (name, applied_at) VALUES (?, ?)').run(migration.name, Date.now())
    })()
  }
}

registerMigration(
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

registerMigration(
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
