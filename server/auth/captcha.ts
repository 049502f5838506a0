/**
 * Self-hosted proof-of-work captcha (spec: challenge type RQ_POW, remote config POW_PUZZLE_CONFIG)
 * with ALTCHA's v1 protocol: the server signs a challenge (HMAC), the client finds the number n
 * with SHA-256(salt + n) = challenge, and sends back base64(JSON{algorithm, challenge, number,
 * salt, signature}). The server checks the signature, the expiry against the injected clock, and
 * that the solution was never used before (one solution, one login attempt).
 */
import { createChallenge, verifySolution } from 'altcha-lib/v1'
import type { Challenge } from 'altcha-lib/v1/types'
import { randomBytes } from 'node:crypto'
import { registerMigration, type Db } from '../db/database'
import { sha256 } from './sessions'

registerMigration(
  '104-auth-captcha',
  `CREATE TABLE auth_captcha_used (
     signature_sha256 TEXT PRIMARY KEY,
     expires_at INTEGER NOT NULL
   );`,
)

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

registerMigration(
  'scale-902-captcha-key',
  `CREATE TABLE auth_captcha_key (id INTEGER PRIMARY KEY CHECK (id = 1), hmac_key TEXT NOT NULL);`,
)

/** The challenges' HMAC key, created by the first instance that needs it. It only signs
 * proof-of-work puzzles (whoever reads the database has more than puzzles anyway). */
function sharedCaptchaKey(db: Db): string {
  db.prepare('INSERT OR IGNORE INTO auth_captcha_key (id, hmac_key) VALUES (1, ?)').run(randomBytes(32).toString('hex'))
  return (db.prepare('SELECT hmac_key FROM auth_captcha_key WHERE id = 1').get() as { hmac_key: string }).hmac_key
}

const services = new WeakMap<Db, CaptchaService>()

/** One service per server (database): login and sign-up verify what the one challenge call issued. */
export function captchaServiceFor(db: Db, now: () => number): CaptchaService {
  let service = services.get(db)
  if (!service) services.set(db, (service = createCaptchaService(db, now)))
  return service
}

export function createCaptchaService(db: Db, now: () => number): CaptchaService {
  // One key per database, so a challenge issued by one instance is verified by another (issue 16)
  const hmacKey = sharedCaptchaKey(db)
  return {
    async challenge(config) {
      const challenge = await createChallenge({
        hmacKey,
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
      // Use the solution up before the (async) check, so two parallel requests cannot share it.
      const used = db.prepare('INSERT OR IGNORE INTO auth_captcha_used (signature_sha256, expires_at) VALUES (?, ?)').run(sha256(decoded.signature), expires)
      if (used.changes === 0) return false
      db.prepare('DELETE FROM auth_captcha_used WHERE expires_at <= ?').run(now())
      try {
        return await verifySolution(payload, hmacKey, false)
      } catch {
        return false
      }
    },
  }
}
