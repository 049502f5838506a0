/**
 * Admin accounts: operators and compliance staff, in their own tables, never punters. Passwords
 * are argon2id (OWASP first setting); sessions are random tokens stored only as a SHA-256 hash,
 * each with its own CSRF token, expiring after 8 hours.
 *
 * On the query layer (issue 16): the same queries on SQLite and PostgreSQL, so a session opened on
 * one instance is recognised (and a sign-out ends it) on every other. E-mails are compared
 * lower-cased (SQLite's COLLATE NOCASE has no PostgreSQL equivalent; a unique index on
 * lower(email) keeps them unique on both).
 */
import argon2 from 'argon2'
import { sql, type Generated } from 'kysely'
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { DataLayer } from '../db/data-layer'
import { oneOf, schemaStep, sqliteHistory, surrogateKey, surrogateKeyType } from '../db/schema'

export const sqlite102AdminAccounts = sqliteHistory(
  '102-admin-accounts',
  `CREATE TABLE admin_users (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     email TEXT NOT NULL UNIQUE COLLATE NOCASE,
     name TEXT NOT NULL,
     role TEXT NOT NULL CHECK (role IN ('operator', 'compliance')),
     password_hash TEXT NOT NULL,
     created_at INTEGER NOT NULL
   );
   CREATE TABLE admin_sessions (
     token_hash TEXT PRIMARY KEY,
     user_id INTEGER NOT NULL REFERENCES admin_users (id),
     csrf TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL
   );`,
)

export const sqlite103AdminSupportRole = sqliteHistory(
  '103-admin-support-role',
  // SQLite cannot change a CHECK in place: both tables are rebuilt (sessions reference users), the
  // rows copied as they are, the old tables dropped child first, the new ones renamed.
  `CREATE TABLE admin_users_next (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     email TEXT NOT NULL UNIQUE COLLATE NOCASE,
     name TEXT NOT NULL,
     role TEXT NOT NULL CHECK (role IN ('operator', 'compliance', 'support')),
     password_hash TEXT NOT NULL,
     created_at INTEGER NOT NULL
   );
   INSERT INTO admin_users_next (id, email, name, role, password_hash, created_at) SELECT id, email, name, role, password_hash, created_at FROM admin_users;
   CREATE TABLE admin_sessions_next (
     token_hash TEXT PRIMARY KEY,
     user_id INTEGER NOT NULL REFERENCES admin_users_next (id),
     csrf TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL
   );
   INSERT INTO admin_sessions_next (token_hash, user_id, csrf, created_at, expires_at) SELECT token_hash, user_id, csrf, created_at, expires_at FROM admin_sessions;
   DROP TABLE admin_sessions;
   DROP TABLE admin_users;
   ALTER TABLE admin_users_next RENAME TO admin_users;
   ALTER TABLE admin_sessions_next RENAME TO admin_sessions;`,
)

/** operator: edits and publishes; compliance: reviews; support: reads the services' records of punters (issue 18). */
export const ADMIN_ROLES = ['operator', 'compliance', 'support'] as const
export type AdminRole = (typeof ADMIN_ROLES)[number]

interface AdminUserTable {
  id: Generated<number>
  email: string
  name: string
  role: AdminRole
  password_hash: string
  created_at: number
}

interface AdminSessionTable {
  /** SHA-256 of the session token (the token itself is only in the admin's cookie). */
  token_hash: string
  user_id: number
  csrf: string
  created_at: number
  expires_at: number
}

declare module '../db/tables' {
  interface Tables {
    admin_users: AdminUserTable
    admin_sessions: AdminSessionTable
  }
}

export const q040AdminAccounts = schemaStep('q040-admin-accounts', async (db, engine) => {
  await db.schema
    .createTable('admin_users')
    .ifNotExists()
    .addColumn('id', surrogateKeyType(engine), surrogateKey(engine))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(oneOf('role', ADMIN_ROLES)))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('admin_users_email_lower').ifNotExists().unique().on('admin_users').expression(sql`lower(email)`).execute()
  await db.schema
    .createTable('admin_sessions')
    .ifNotExists()
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', surrogateKeyType(engine), (c) => c.notNull().references('admin_users.id'))
    .addColumn('csrf', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('admin_sessions_expires').ifNotExists().on('admin_sessions').column('expires_at').execute()
})

export interface AdminUser {
  id: number
  email: string
  name: string
  role: AdminRole
}

export interface AdminSession {
  user: AdminUser
  csrf: string
  tokenHash: string
}

/** Demo accounts (documented in DEMO_ADMINS.md); seeded when the table has no such email. */
export const DEMO_ADMINS: { email: string; name: string; role: AdminRole; password: string }[] = [
  { email: 'operator@parlay.test', name: 'Olga Operator', role: 'operator', password: 'operator-demo-2026' },
  { email: 'compliance@parlay.test', name: 'Carlos Compliance', role: 'compliance', password: 'compliance-demo-2026' },
  { email: 'compliance2@parlay.test', name: 'Chiara Compliance', role: 'compliance', password: 'compliance2-demo-2026' },
  { email: 'support@parlay.test', name: 'Sam Support', role: 'support', password: 'support-demo-2026' },
]

const ARGON2 = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const
export const SESSION_MS = 8 * 60 * 60 * 1000
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex')

const byEmail = (email: string) => sql<boolean>`lower(email) = ${email.toLowerCase()}`

/** Adds each demo account whose e-mail is missing. Stops quietly when the server closes meanwhile. */
export async function seedAdmins(data: DataLayer, now: number, isOpen: () => boolean = () => true): Promise<void> {
  for (const admin of DEMO_ADMINS) {
    if (!isOpen()) return
    if (await data.db.selectFrom('admin_users').select('id').where(byEmail(admin.email)).executeTakeFirst()) continue
    const hash = await argon2.hash(admin.password, ARGON2)
    if (!isOpen()) return // the server closed while hashing
    // two instances seeding at once: the unique index on lower(email) keeps one row
    await data.db
      .insertInto('admin_users')
      .values({ email: admin.email, name: admin.name, role: admin.role, password_hash: hash, created_at: now })
      .onConflict((oc) => oc.doNothing())
      .execute()
  }
}

let dummy: Promise<string> | undefined

/** One argon2 verify per attempt, against a dummy hash for an unknown email. */
export async function checkPassword(data: DataLayer, email: string, password: string): Promise<AdminUser | undefined> {
  const row = await data.db.selectFrom('admin_users').select(['id', 'email', 'name', 'role', 'password_hash']).where(byEmail(email)).executeTakeFirst()
  dummy ??= argon2.hash(randomBytes(16).toString('hex'), ARGON2)
  let ok = false
  try {
    ok = await argon2.verify(row?.password_hash ?? (await dummy), password)
  } catch {
    ok = false
  }
  if (!row || !ok) return undefined
  return { id: row.id, email: row.email, name: row.name, role: row.role }
}

/**
 * Whether the admin session of this token hash is still open, asked of the session store (one read
 * on its primary key) by every preview request (server/store/preview.ts): a sign-out or expiry on
 * any instance sharing the database ends the previews that session made, here too.
 */
export async function adminSessionOpen(data: DataLayer, tokenHash: string, now: number): Promise<boolean> {
  const row = await data.db.selectFrom('admin_sessions').select('token_hash').where('token_hash', '=', tokenHash).where('expires_at', '>', now).executeTakeFirst()
  return row !== undefined
}

export async function openSession(data: DataLayer, user: AdminUser, now: number): Promise<{ token: string; csrf: string }> {
  const token = randomBytes(32).toString('base64url')
  const csrf = randomBytes(24).toString('base64url')
  await data.transaction(async (tx) => {
    await tx.deleteFrom('admin_sessions').where('expires_at', '<=', now).execute()
    await tx.insertInto('admin_sessions').values({ token_hash: sha256(token), user_id: user.id, csrf, created_at: now, expires_at: now + SESSION_MS }).execute()
  })
  return { token, csrf }
}

export async function sessionFor(data: DataLayer, token: string | undefined, now: number): Promise<AdminSession | undefined> {
  if (!token || token.length > 100) return undefined
  const tokenHash = sha256(token)
  const row = await data.db
    .selectFrom('admin_sessions as s')
    .innerJoin('admin_users as u', 'u.id', 's.user_id')
    .select(['s.token_hash', 's.csrf', 's.expires_at', 'u.id', 'u.email', 'u.name', 'u.role'])
    .where('s.token_hash', '=', tokenHash)
    .where('s.expires_at', '>', now)
    .executeTakeFirst()
  if (!row) return undefined
  return { user: { id: row.id, email: row.email, name: row.name, role: row.role }, csrf: row.csrf, tokenHash: row.token_hash }
}

export async function closeSession(data: DataLayer, session: AdminSession): Promise<void> {
  await data.db.deleteFrom('admin_sessions').where('token_hash', '=', session.tokenHash).execute()
}

export function csrfMatches(session: AdminSession, header: string | undefined): boolean {
  if (!header) return false
  const a = Buffer.from(session.csrf)
  const b = Buffer.from(header)
  return a.length === b.length && timingSafeEqual(a, b)
}
