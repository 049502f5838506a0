/**
 * Self-hosted proof-of-work captcha (spec: challenge type RQ_POW, remote config POW_PUZZLE_CONFIG)
 * with ALTCHA's v1 protocol: the server signs a challenge (HMAC), the client finds the number n
 * with SHA-256(salt + n) = challenge, and sends back base64(JSON{algorithm, challenge, number,
 * salt, signature}). The server checks the signature, the expiry against the injected clock, and
 * that the solution was never used before (one solution, one login attempt).
 */
import { createChallenge, verifySolution } from 'altcha-lib/v1'
import { sql } from 'kysely'
import type { Challenge } from 'altcha-lib/v1/types'
import { randomBytes } from 'node:crypto'
import type { DataLayer } from '../db/data-layer'
import { schemaStep, sqliteHistory } from '../db/schema'
import { sha256 } from './sessions'

// On the query layer (issue 16): a solution used on one instance is used on all, on SQLite or
// PostgreSQL. The raw-SQL migrations are the history of existing SQLite files; the schema step
// after them is the tables' current shape on both engines.

export const sqlite104AuthCaptcha = sqliteHistory(
  '104-auth-captcha',
  `CREATE TABLE auth_captcha_used (
     signature_sha256 TEXT PRIMARY KEY,
     expires_at INTEGER NOT NULL
   );`,
)

export const sqliteScale902CaptchaKey = sqliteHistory(
  'scale-902-captcha-key',
  `CREATE TABLE auth_captcha_key (id INTEGER PRIMARY KEY CHECK (id = 1), hmac_key TEXT NOT NULL);`,
)

declare module '../db/tables' {
  interface Tables {
    /** A used solution: the digest of its signature, kept until the challenge would expire anyway. */
    auth_captcha_used: { signature_sha256: string; expires_at: number }
    /** The one HMAC key of the database (id 1). */
    auth_captcha_key: { id: number; hmac_key: string }
  }
}

export const q010AuthCaptcha = schemaStep('q010-auth-captcha', async (db) => {
  await db.schema
    .createTable('auth_captcha_used')
    .ifNotExists()
    .addColumn('signature_sha256', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('auth_captcha_key')
    .ifNotExists()
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('hmac_key', 'text', (c) => c.notNull())
    .execute()
})

export interface PowPuzzleConfig {
  enabled: boolean
  algorithm: 'SHA-256'
  maxNumber: number
  expiresInMs: number
}

export const DEFAULT_POW: PowPuzzleConfig = { enabled: true, algorithm: 'SHA-256', maxNumber: 100_000, expiresInMs: 300_000 }

export function powConfig(remoteConfig: Record<string, unknown>): PowPuzzleConfig {
  const raw = (remoteConfig.POW_PUZZLE_CONFIG ?? {}) as Partial<PowPuzzleConfig>
  return {
    enabled: raw.enabled !== false,
    algorithm: 'SHA-256',
    maxNumber: typeof raw.maxNumber === 'number' && raw.maxNumber >= 1000 && raw.maxNumber <= 10_000_000 ? raw.maxNumber : DEFAULT_POW.maxNumber,
    expiresInMs: typeof raw.expiresInMs === 'number' && raw.expiresInMs >= 10_000 ? raw.expiresInMs : DEFAULT_POW.expiresInMs,
  }
}

export interface CaptchaService {
  challenge(config: PowPuzzleConfig): Promise<{ type: 'RQ_POW'; answer: 'pow'; challenge: Challenge }>
  /** Checks and uses up a solution: true once per valid, unexpired solution. */
  verify(payload: string): Promise<boolean>
}

/** The challenges' HMAC key, created by the first instance that needs it (the others read that
 * one). It only signs proof-of-work puzzles (whoever reads the database has more than puzzles anyway). */
async function sharedCaptchaKey(data: DataLayer): Promise<string> {
  await data.db
    .insertInto('auth_captcha_key')
    .values({ id: 1, hmac_key: randomBytes(32).toString('hex') })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute()
  return (await data.db.selectFrom('auth_captcha_key').select('hmac_key').where('id', '=', 1).executeTakeFirstOrThrow()).hmac_key
}

/** The shared key, read once; a read that failed (database away) is tried again by the next call. */
export function captchaKeyReader(data: DataLayer): () => Promise<string> {
  let key: Promise<string> | undefined
  return () => (key ??= sharedCaptchaKey(data).catch((error: unknown) => ((key = undefined), Promise.reject(error))))
}

/** One service per server (database), made by `create` on first use: a check finds what the one challenge call issued. */
export function perDatabase<T extends object>(create: (data: DataLayer, now: () => number) => T): (data: DataLayer, now: () => number) => T {
  const services = new WeakMap<DataLayer, T>()
  return (data, now) => {
    let service = services.get(data)
    if (!service) services.set(data, (service = create(data, now)))
    return service
  }
}

/** Login and sign-up verify what the one challenge call issued. */
export const captchaServiceFor = perDatabase(createCaptchaService)

export function createCaptchaService(data: DataLayer, now: () => number): CaptchaService {
  // One key per database, so a challenge issued by one instance is verified by another (issue 16).
  const hmacKey = captchaKeyReader(data)
  return {
    async challenge(config) {
      const challenge = await createChallenge({
        hmacKey: await hmacKey(),
        algorithm: config.algorithm,
        maxNumber: config.maxNumber,
        expires: new Date(now() + config.expiresInMs),
      })
      return { type: 'RQ_POW', answer: 'pow', challenge }
    },
    async verify(payload) {
      if (payload.length > 2000) return false
      let decoded: { signature?: unknown; salt?: unknown }
      try {
        decoded = JSON.parse(Buffer.from(payload, 'base64').toString('utf8'))
      } catch {
        return false
      }
      if (!decoded || typeof decoded.signature !== 'string' || typeof decoded.salt !== 'string') return false
      // ALTCHA puts the expiry in the salt's query part, covered by the signature.
      const expires = Number(new URLSearchParams(decoded.salt.split('?')[1] ?? '').get('expires')) * 1000
      if (!Number.isFinite(expires) || expires <= now()) return false
      const secret = await hmacKey()
      // Use the solution up before the (async) check, so two parallel requests, on any instance, cannot share it.
      if (!(await useSolution(data, sha256(decoded.signature), expires, now()))) return false
      try {
        return await verifySolution(payload, secret, false)
      } catch {
        return false
      }
    },
  }
}

/** Records a solution (or a nonce) as used; false when it already was (one statement: the primary key decides the race). */
export async function useSolution(data: DataLayer, signatureDigest: string, expiresAt: number, now: number): Promise<boolean> {
  const used = await data.db
    .insertInto('auth_captcha_used')
    .values({ signature_sha256: signatureDigest, expires_at: expiresAt })
    .onConflict((oc) => oc.column('signature_sha256').doNothing())
    .returning('signature_sha256')
    .executeTakeFirst()
  if (!used) return false
  await data.db.deleteFrom('auth_captcha_used').where('expires_at', '<=', now).execute()
  return true
}
