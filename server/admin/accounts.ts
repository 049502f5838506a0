/**
 * Admin accounts: operators and compliance staff, in their own tables, never punters. Passwords
 * are argon2id (OWASP first setting); sessions are random tokens stored only as a SHA-256 hash,
 * each with its own CSRF token, expiring after 8 hours. A session opens only after the second
 * factor (./second-factor.ts); a disabled account has no session and cannot sign in (issue 30).
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
import { DEMO_ADMIN_EMAILS } from './demo-admins'

export { DEMO_ADMINS } from './demo-admins'

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
  /** Set when the account is disabled (`npm run admin:disable`): no sign-in, no session. */
  disabled_at: number | null
  /** 1 for the published demo accounts (./demo-admins.ts): only a demo start keeps them enabled. */
  demo: Generated<number>
  /** The TOTP secret once enrolled, sealed (./totp-keys.ts); null until the first sign-in enrols it. */
  totp_secret: string | null
  /** The key that sealed it (q135); null: plain text from before q135, sealed at the next start. */
  totp_key_id: string | null
  totp_enrolled_at: number | null
  /** The jurisdictions the account may change documents of, comma-separated; null: every one (q094, ./scope.ts). */
  jurisdictions: string | null
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

export const q089AdminAccountsTwoFactor = schemaStep('q089-admin-accounts-two-factor', async (db) => {
  await db.schema.alterTable('admin_users').addColumn('disabled_at', 'bigint').execute()
  await db.schema.alterTable('admin_users').addColumn('demo', 'integer', (c) => c.notNull().defaultTo(0)).execute()
  await db.schema.alterTable('admin_users').addColumn('totp_secret', 'text').execute()
  await db.schema.alterTable('admin_users').addColumn('totp_enrolled_at', 'bigint').execute()
  // accounts seeded by earlier versions at every start: marked, so a production start disables them
  await db.updateTable('admin_users').set({ demo: 1 }).where(sql<boolean>`lower(email) in (${sql.join(DEMO_ADMIN_EMAILS)})`).execute()
  await db.schema.createIndex('admin_sessions_user').ifNotExists().on('admin_sessions').column('user_id').execute()
})

export interface AdminUser {
  id: number
  email: string
  name: string
  role: AdminRole
  /** Null (or absent): unscoped; else the only jurisdictions whose documents this account may change. */
  jurisdictions?: string[] | null
}

export interface AdminSession {
  user: AdminUser
  csrf: string
  tokenHash: string
}

export const ARGON2 = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const
export const SESSION_MS = 8 * 60 * 60 * 1000
export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex')

export const byEmail = (email: string) => sql<boolean>`lower(email) = ${email.toLowerCase()}`

let dummy: Promise<string> | undefined

/** An account that passed the password step: who, whether disabled, and its second factor. */
export interface PasswordChecked extends AdminUser {
  disabled: boolean
  demo: boolean
  totpSecret: string | null
}

/** One argon2 verify per attempt, against a dummy hash for an unknown email (the same time either way). */
export async function checkPassword(data: DataLayer, email: string, password: string): Promise<PasswordChecked | undefined> {
  const row = await data.db
    .selectFrom('admin_users')
    .select(['id', 'email', 'name', 'role', 'password_hash', 'disabled_at', 'demo', 'totp_secret'])
    .where(byEmail(email))
    .executeTakeFirst()
  if (!(await passwordMatches(row?.password_hash, password)) || !row) return undefined
  return { id: row.id, email: row.email, name: row.name, role: row.role, disabled: row.disabled_at !== null, demo: row.demo === 1, totpSecret: row.totp_secret }
}

/** argon2 verify; with no stored hash, a verify against a dummy one, so the time says nothing. */
export async function passwordMatches(hash: string | undefined, password: string): Promise<boolean> {
  dummy ??= argon2.hash(randomBytes(16).toString('hex'), ARGON2)
  try {
    const ok = await argon2.verify(hash ?? (await dummy), password)
    return ok && hash !== undefined
  } catch {
    return false
  }
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
    .select(['s.token_hash', 's.csrf', 's.expires_at', 'u.id', 'u.email', 'u.name', 'u.role', 'u.jurisdictions'])
    .where('s.token_hash', '=', tokenHash)
    .where('s.expires_at', '>', now)
    .where('u.disabled_at', 'is', null)
    .executeTakeFirst()
  if (!row) return undefined
  const jurisdictions = row.jurisdictions === null ? null : row.jurisdictions.split(',').filter(Boolean)
  return { user: { id: row.id, email: row.email, name: row.name, role: row.role, jurisdictions }, csrf: row.csrf, tokenHash: row.token_hash }
}

export async function closeSession(data: DataLayer, session: AdminSession): Promise<void> {
  await data.db.deleteFrom('admin_sessions').where('token_hash', '=', session.tokenHash).execute()
}

/** Ends every session of an admin but the one named (a password change keeps the session that made it). */
export async function closeSessionsOf(data: DataLayer, userId: number, keepTokenHash?: string): Promise<number> {
  const result = await data.db
    .deleteFrom('admin_sessions')
    .where('user_id', '=', userId)
    .$if(keepTokenHash !== undefined, (q) => q.where('token_hash', '!=', keepTokenHash!))
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

export function csrfMatches(session: AdminSession, header: string | undefined): boolean {
  if (!header) return false
  const a = Buffer.from(session.csrf)
  const b = Buffer.from(header)
  return a.length === b.length && timingSafeEqual(a, b)
}
