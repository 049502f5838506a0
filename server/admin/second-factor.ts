/**
 * The second factor every admin role signs in with (issue 30; regulators expect two factors for
 * back-office access): a TOTP code (RFC 6238 through the `otpauth` library: SHA-1, 6 digits,
 * 30-second steps, one step either side for clock drift) or one of ten single-use recovery codes.
 *
 * - The password step opens a **challenge**: a random token (stored as SHA-256), valid 5 minutes,
 *   at most 5 code attempts, each counted by one conditional UPDATE before the code is checked, so
 *   parallel guesses cannot exceed the budget on any instance.
 * - A code is **single use**: the (admin, time step) pair is a primary key, claimed by an insert; a
 *   replay within the same window finds it taken, on every instance sharing the database.
 * - **Recovery codes**: 60 random bits each, shown once, stored as SHA-256 of (admin id, code);
 *   each is spent by one conditional UPDATE.
 * - **Secrets at rest** are sealed with AES-256-GCM under a key outside the database (./totp-keys.ts).
 */
import { Secret, TOTP } from 'otpauth'
import { randomBytes, randomInt } from 'node:crypto'
import type { DataLayer } from '../db/data-layer'
import { oneOf, schemaStep, surrogateKeyType } from '../db/schema'
import { sha256, type AdminUser } from './accounts'
import type { Sealed, TotpKeyring } from './totp-keys'

export const CHALLENGE_MS = 5 * 60_000
export const CHALLENGE_ATTEMPTS = 5
export const RECOVERY_CODES = 10
const PERIOD = 30
const ISSUER = 'Parlay admin'

interface AdminChallengeTable {
  token_hash: string
  user_id: number
  /** 'totp': an enrolled admin types a code; 'enrol': the secret below is being set up. */
  purpose: 'totp' | 'enrol'
  /** The secret being set up, sealed under `secret_key_id` (./totp-keys.ts). */
  secret: string | null
  secret_key_id: string | null
  attempts: number
  created_at: number
  expires_at: number
}

interface AdminTotpStepTable {
  user_id: number
  /** The TOTP time step (seconds since the epoch / 30) a code was accepted for. */
  step: number
  used_at: number
}

interface AdminRecoveryCodeTable {
  user_id: number
  code_hash: string
  created_at: number
  used_at: number | null
}

declare module '../db/tables' {
  interface Tables {
    admin_challenges: AdminChallengeTable
    admin_totp_steps: AdminTotpStepTable
    admin_recovery_codes: AdminRecoveryCodeTable
  }
}

export const q090AdminSecondFactor = schemaStep('q090-admin-second-factor', async (db, engine) => {
  const userId = surrogateKeyType(engine)
  await db.schema
    .createTable('admin_challenges')
    .ifNotExists()
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', userId, (c) => c.notNull().references('admin_users.id'))
    .addColumn('purpose', 'text', (c) => c.notNull().check(oneOf('purpose', ['totp', 'enrol'])))
    .addColumn('secret', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('admin_totp_steps')
    .ifNotExists()
    .addColumn('user_id', userId, (c) => c.notNull().references('admin_users.id'))
    .addColumn('step', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('admin_totp_steps_pk', ['user_id', 'step'])
    .execute()
  await db.schema
    .createTable('admin_recovery_codes')
    .ifNotExists()
    .addColumn('user_id', userId, (c) => c.notNull().references('admin_users.id'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addPrimaryKeyConstraint('admin_recovery_codes_pk', ['user_id', 'code_hash'])
    .execute()
})

/** A new random TOTP secret (160 bits, base32), as an authenticator app takes it. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32

/** The otpauth:// URI of a secret (what a QR code would carry; typed or pasted into an authenticator). */
export function otpauthUri(secret: string, email: string): string {
  return new TOTP({ issuer: ISSUER, label: email, secret: Secret.fromBase32(secret), period: PERIOD }).toString()
}

/** The time step a code is valid for at `now` (within one step either way), or null. */
export function totpStepOf(secret: string, code: string, now: number): number | null {
  if (!/^[0-9]{6}$/.test(code)) return null
  const delta = TOTP.validate({ token: code, secret: Secret.fromBase32(secret), period: PERIOD, timestamp: now, window: 1 })
  return delta === null ? null : TOTP.counter({ period: PERIOD, timestamp: now }) + delta
}

/** Opens a challenge after a correct password; an enrolment carries the secret being set up (sealed in the table). */
export async function openChallenge(data: DataLayer, keys: TotpKeyring, user: AdminUser, purpose: 'totp' | 'enrol', now: number): Promise<{ token: string; secret: string | null }> {
  const token = randomBytes(32).toString('base64url')
  const secret = purpose === 'enrol' ? newTotpSecret() : null
  const sealed = secret === null ? null : keys.seal(secret, user.email)
  await data.transaction(async (tx) => {
    await tx.deleteFrom('admin_challenges').where('expires_at', '<=', now).execute()
    await tx
      .insertInto('admin_challenges')
      .values({ token_hash: sha256(token), user_id: user.id, purpose, secret: sealed?.sealed ?? null, secret_key_id: sealed?.keyId ?? null, attempts: 0, created_at: now, expires_at: now + CHALLENGE_MS })
      .execute()
  })
  return { token, secret }
}

export interface ChallengeAttempt {
  tokenHash: string
  userId: number
  purpose: 'totp' | 'enrol'
  /** An enrolment's secret as stored (sealed); opened with the admin's e-mail. */
  secret: Sealed | null
}

/** Counts one attempt on a live challenge (before the code is checked); undefined when it is unknown, expired or spent. */
export async function takeAttempt(data: DataLayer, token: string, now: number): Promise<ChallengeAttempt | undefined> {
  if (token.length > 100) return undefined
  const tokenHash = sha256(token)
  const row = await data.db
    .updateTable('admin_challenges')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>', now)
    .where('attempts', '<', CHALLENGE_ATTEMPTS)
    .returning(['user_id', 'purpose', 'secret', 'secret_key_id'])
    .executeTakeFirst()
  const secret = row?.secret && row.secret_key_id ? { sealed: row.secret, keyId: row.secret_key_id } : null
  return row && { tokenHash, userId: Number(row.user_id), purpose: row.purpose, secret }
}

export async function spendChallenge(data: DataLayer, tokenHash: string): Promise<void> {
  await data.db.deleteFrom('admin_challenges').where('token_hash', '=', tokenHash).execute()
}

/** Claims a time step for an admin: false when a code of that step was accepted before (a replay). */
export async function claimStep(data: DataLayer, userId: number, step: number, now: number): Promise<boolean> {
  return data.transaction(async (tx) => {
    await tx.deleteFrom('admin_totp_steps').where('user_id', '=', userId).where('step', '<', step - 10).execute()
    const claimed = await tx.insertInto('admin_totp_steps').values({ user_id: userId, step, used_at: now }).onConflict((oc) => oc.doNothing()).returning('step').executeTakeFirst()
    return claimed !== undefined
  })
}

/** Sets the secret (sealed) of an admin not enrolled yet; false when another sign-in enrolled meanwhile. */
export async function enrol(data: DataLayer, keys: TotpKeyring, user: { id: number; email: string }, secret: string, now: number): Promise<boolean> {
  const { sealed, keyId } = keys.seal(secret, user.email)
  const result = await data.db
    .updateTable('admin_users')
    .set({ totp_secret: sealed, totp_key_id: keyId, totp_enrolled_at: now })
    .where('id', '=', user.id)
    .where('totp_secret', 'is', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789' // 32 symbols, no 0/O or 1/I: 5 bits each

const normalised = (code: string) => code.toUpperCase().replace(/[\s-]/g, '')
const recoveryHash = (userId: number, code: string) => sha256(`parlay-admin-recovery:${userId}:${normalised(code)}`)

/** Replaces an admin's recovery codes with ten new ones; answers them (the only time they are seen). */
export async function newRecoveryCodes(data: DataLayer, userId: number, now: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODES }, () => {
    const text = Array.from({ length: 12 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('')
    return `${text.slice(0, 4)}-${text.slice(4, 8)}-${text.slice(8)}`
  })
  await data.transaction(async (tx) => {
    await tx.deleteFrom('admin_recovery_codes').where('user_id', '=', userId).execute()
    await tx.insertInto('admin_recovery_codes').values(codes.map((code) => ({ user_id: userId, code_hash: recoveryHash(userId, code), created_at: now, used_at: null }))).execute()
  })
  return codes
}

/** Spends one recovery code; answers how many are left, or null when the code is wrong or spent. */
export async function useRecoveryCode(data: DataLayer, userId: number, code: string, now: number): Promise<number | null> {
  if (normalised(code).length !== 12) return null
  const spent = await data.db
    .updateTable('admin_recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', recoveryHash(userId, code))
    .where('used_at', 'is', null)
    .executeTakeFirst()
  if (Number(spent.numUpdatedRows) !== 1) return null
  return recoveryCodesLeft(data, userId)
}

export async function recoveryCodesLeft(data: DataLayer, userId: number): Promise<number> {
  const row = await data.db.selectFrom('admin_recovery_codes').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('used_at', 'is', null).executeTakeFirst()
  return Number(row?.n ?? 0)
}
