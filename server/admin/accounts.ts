/**
 * Admin accounts: operators and compliance staff, in their own tables, never punters. Passwords
 * are argon2id (OWASP first setting); sessions are random tokens stored only as a SHA-256 hash,
 * each with its own CSRF token, expiring after 8 hours.
 */
import argon2 from 'argon2'
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { registerMigration, type Db } from '../db/database'

registerMigration(
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

registerMigration(
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
export type AdminRole = 'operator' | 'compliance' | 'support'

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

export async function seedAdmins(db: Db, now: number): Promise<void> {
  const exists = db.prepare('SELECT 1 FROM admin_users WHERE email = ?')
  for (const admin of DEMO_ADMINS) {
    if (!db.open) return
    if (exists.get(admin.email)) continue
    const hash = await argon2.hash(admin.password, ARGON2)
    if (!db.open) return // the server closed while hashing
    db.prepare('INSERT OR IGNORE INTO admin_users (email, name, role, password_hash, created_at) VALUES (?, ?, ?, ?, ?)').run(admin.email, admin.name, admin.role, hash, now)
  }
}

let dummy: Promise<string> | undefined

/** One argon2 verify per attempt, against a dummy hash for an unknown email. */
export async function checkPassword(db: Db, email: string, password: string): Promise<AdminUser | undefined> {
  const row = db.prepare('SELECT id, email, name, role, password_hash FROM admin_users WHERE email = ?').get(email) as
    | (AdminUser & { password_hash: string })
    | undefined
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

export function openSession(db: Db, user: AdminUser, now: number): { token: string; csrf: string } {
  const token = randomBytes(32).toString('base64url')
  const csrf = randomBytes(24).toString('base64url')
  db.prepare('DELETE FROM admin_sessions WHERE expires_at <= ?').run(now)
  db.prepare('INSERT INTO admin_sessions (token_hash, user_id, csrf, created_at, expires_at) VALUES (?, ?, ?, ?, ?)').run(sha256(token), user.id, csrf, now, now + SESSION_MS)
  return { token, csrf }
}

export function sessionFor(db: Db, token: string | undefined, now: number): AdminSession | undefined {
  if (!token || token.length > 100) return undefined
  const row = db
    .prepare(
      'SELECT s.token_hash, s.csrf, u.id, u.email, u.name, u.role FROM admin_sessions s JOIN admin_users u ON u.id = s.user_id WHERE s.token_hash = ? AND s.expires_at > ?',
    )
    .get(sha256(token), now) as { token_hash: string; csrf: string; id: number; email: string; name: string; role: AdminRole } | undefined
  if (!row) return undefined
  return { user: { id: row.id, email: row.email, name: row.name, role: row.role }, csrf: row.csrf, tokenHash: row.token_hash }
}

export function closeSession(db: Db, session: AdminSession): void {
  db.prepare('DELETE FROM admin_sessions WHERE token_hash = ?').run(session.tokenHash)
}

export function csrfMatches(session: AdminSession, header: string | undefined): boolean {
  if (!header) return false
  const a = Buffer.from(session.csrf)
  const b = Buffer.from(header)
  return a.length === b.length && timingSafeEqual(a, b)
}
