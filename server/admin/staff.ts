/**
 * Managing staff accounts (issue 30): creating an admin (`npm run admin:create`), disabling and
 * enabling one, clearing a lost second factor, changing a password, and the demo's accounts —
 * seeded only when the demo is asked for, disabled by any other start. What is audited is audited
 * by the caller (the admin router, the admin tool, the admin module), in the log it writes.
 *
 * Passwords (REFERENCES.md, NIST SP 800-63B): at least 15 characters (the recommended length, for
 * staff), at most 128, no composition rules; the published demo passwords are refused.
 */
import argon2 from 'argon2'
import type { DataLayer } from '../db/data-layer'
import { ADMIN_ROLES, ARGON2, byEmail, closeSessionsOf, type AdminRole } from './accounts'
import { DEMO_ADMINS, PUBLISHED_PASSWORDS } from './demo-admins'
import type { TotpKeyring } from './totp-keys'

export const MIN_PASSWORD = 15
export const MAX_PASSWORD = 128

export type PasswordProblem = 'too-short' | 'too-long' | 'published'

/** Why a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): PasswordProblem | null {
  const length = [...password].length
  if (length < MIN_PASSWORD) return 'too-short'
  if (length > MAX_PASSWORD) return 'too-long'
  if (PUBLISHED_PASSWORDS.has(password)) return 'published'
  return null
}

export interface NewAdmin {
  email: string
  name: string
  role: AdminRole
  password: string
}

export type CreateResult = { ok: true; id: number } | { ok: false; problem: 'email' | 'role' | 'exists' | PasswordProblem }

/** Creates an admin (not enrolled: the first sign-in sets up the second factor). */
export async function createAdmin(data: DataLayer, admin: NewAdmin, now: number): Promise<CreateResult> {
  const email = admin.email.trim()
  if (!/^[^\s@]{1,64}@[^\s@]{1,185}$/.test(email)) return { ok: false, problem: 'email' }
  if (!(ADMIN_ROLES as readonly string[]).includes(admin.role)) return { ok: false, problem: 'role' }
  const problem = passwordProblem(admin.password)
  if (problem) return { ok: false, problem }
  const hash = await argon2.hash(admin.password, ARGON2)
  const row = await data.db
    .insertInto('admin_users')
    .values({ email, name: admin.name.trim() || email, role: admin.role, password_hash: hash, created_at: now, disabled_at: null, totp_secret: null, totp_key_id: null, totp_enrolled_at: null })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst()
  return row ? { ok: true, id: Number(row.id) } : { ok: false, problem: 'exists' }
}

/** The account of an e-mail (any state), or undefined. */
export async function adminByEmail(data: DataLayer, email: string): Promise<{ id: number; email: string; role: AdminRole; disabled: boolean; enrolled: boolean } | undefined> {
  const row = await data.db.selectFrom('admin_users').select(['id', 'email', 'role', 'disabled_at', 'totp_secret']).where(byEmail(email)).executeTakeFirst()
  return row && { id: Number(row.id), email: row.email, role: row.role, disabled: row.disabled_at !== null, enrolled: row.totp_secret !== null }
}

/** Disables an admin and ends every session and pending sign-in of it at once; answers the sessions ended. */
export async function disableAdmin(data: DataLayer, userId: number, now: number): Promise<number> {
  await data.db.updateTable('admin_users').set({ disabled_at: now }).where('id', '=', userId).where('disabled_at', 'is', null).execute()
  await data.db.deleteFrom('admin_challenges').where('user_id', '=', userId).execute()
  return closeSessionsOf(data, userId)
}

export async function enableAdmin(data: DataLayer, userId: number): Promise<void> {
  await data.db.updateTable('admin_users').set({ disabled_at: null }).where('id', '=', userId).execute()
}

/** Forgets a lost authenticator: the next sign-in enrols a new secret; recovery codes and sessions end. */
export async function resetSecondFactor(data: DataLayer, userId: number): Promise<number> {
  await data.db.updateTable('admin_users').set({ totp_secret: null, totp_key_id: null, totp_enrolled_at: null }).where('id', '=', userId).execute()
  await data.db.deleteFrom('admin_recovery_codes').where('user_id', '=', userId).execute()
  await data.db.deleteFrom('admin_challenges').where('user_id', '=', userId).execute()
  return closeSessionsOf(data, userId)
}

/** Sets a new password (checked by the caller) and ends the admin's other sessions; answers how many ended. */
export async function setPassword(data: DataLayer, userId: number, password: string, keepTokenHash: string | undefined): Promise<number> {
  const hash = await argon2.hash(password, ARGON2)
  await data.db.updateTable('admin_users').set({ password_hash: hash }).where('id', '=', userId).execute()
  return closeSessionsOf(data, userId, keepTokenHash)
}

/**
 * The demo's accounts, enrolled with their published TOTP secrets: added when missing, enabled
 * again when a production start had disabled them. Stops quietly when the server closes meanwhile.
 */
export async function seedDemoAdmins(data: DataLayer, keys: TotpKeyring, now: number, isOpen: () => boolean = () => true): Promise<void> {
  for (const admin of DEMO_ADMINS) {
    if (!isOpen()) return
    const found = await data.db.selectFrom('admin_users').select(['id', 'demo']).where(byEmail(admin.email)).executeTakeFirst()
    if (found) {
      if (found.demo === 1) await data.db.updateTable('admin_users').set({ disabled_at: null }).where('id', '=', found.id).execute()
      continue
    }
    const hash = await argon2.hash(admin.password, ARGON2)
    if (!isOpen()) return // the server closed while hashing
    const { sealed, keyId } = keys.seal(admin.totpSecret, admin.email)
    // two instances seeding at once: the unique index on lower(email) keeps one row
    await data.db
      .insertInto('admin_users')
      .values({ email: admin.email, name: admin.name, role: admin.role, password_hash: hash, created_at: now, demo: 1, disabled_at: null, totp_secret: sealed, totp_key_id: keyId, totp_enrolled_at: now })
      .onConflict((oc) => oc.doNothing())
      .execute()
  }
}

/** A start without the demo: the demo accounts still enabled (published passwords) are disabled; answers their e-mails. */
export async function retireDemoAdmins(data: DataLayer, now: number): Promise<string[]> {
  const live = await data.db.selectFrom('admin_users').select(['id', 'email']).where('demo', '=', 1).where('disabled_at', 'is', null).execute()
  for (const row of live) await disableAdmin(data, Number(row.id), now)
  return live.map((r) => r.email)
}

/** A scope as stored and audited: distinct ids, sorted; null (unscoped) for an empty list. */
export function normalizeScope(jurisdictions: readonly string[] | null): string[] | null {
  const list = [...new Set((jurisdictions ?? []).map((j) => j.trim()).filter(Boolean))].sort()
  return list.length > 0 ? list : null
}

/** Limits an account to the documents of these jurisdictions (an empty list or null: unscoped). */
export async function setStaffScope(data: DataLayer, id: number, jurisdictions: readonly string[] | null): Promise<void> {
  const list = normalizeScope(jurisdictions)?.join(',') ?? null
  await data.db.updateTable('admin_users').set({ jurisdictions: list }).where('id', '=', id).execute()
}
