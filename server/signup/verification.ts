/**
 * Sign-up verification codes (spec §3 "Verification (join) state", §8 code errors; REFERENCES:
 * 6 digits, single use, bound to the flow that created them, invalid after 10 minutes, attempts
 * limited and counted atomically before the code is compared, resend refused inside 60 s).
 *
 * A flow is one sign-up attempt. The client holds its verification token (and, for Russia, the
 * registration token); the database keeps only SHA-256 digests of both, and the code only as a
 * digest keyed by the flow's token, so a copy of the database neither reveals codes nor lets
 * anyone finish somebody else's sign-up.
 *
 * The attempt counter is incremented by one conditional UPDATE … RETURNING
 * (`attempts < max`) *before* the code is compared: however many requests race, at most `max`
 * of them ever get their code compared.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'
import type { Result } from '../../engine/core/contracts'
import { registerMigration, type Db } from '../db/database'

registerMigration(
  '402-signup-verifications',
  `CREATE TABLE signup_verifications (
     token_sha256 TEXT PRIMARY KEY,
     registration_token_sha256 TEXT UNIQUE,
     flow TEXT NOT NULL,
     jurisdiction TEXT NOT NULL,
     channel TEXT NOT NULL,
     contact TEXT NOT NULL,
     code_sha256 TEXT NOT NULL,
     previous_code_sha256 TEXT,
     code_expires_at INTEGER NOT NULL,
     attempts INTEGER NOT NULL DEFAULT 0,
     sends INTEGER NOT NULL DEFAULT 1,
     next_send_at INTEGER NOT NULL,
     status TEXT NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'VERIFIED', 'COMPLETED', 'LOCKED', 'SUPERSEDED')),
     payload TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL
   );
   CREATE INDEX signup_verifications_contact ON signup_verifications(contact, created_at);`,
)

export const VERIFICATION_LIMITS = {
  codeDigits: 6,
  /** A code is valid this long (REFERENCES: at most 10 minutes). */
  codeTtlMs: 10 * 60_000,
  /** Wrong codes per flow (Ory Kratos: 5). */
  maxCodeAttempts: 5,
  /** One message per contact per 60 s (Supabase). */
  resendCooldownMs: 60_000,
  /** Messages per flow, the first included. */
  maxSends: 5,
  /** A flow lives this long from its start. */
  flowTtlMs: 30 * 60_000,
  /** Locked flows of one contact within the window → PUNTER_BLOCKED. */
  lockedFlowsBeforeBlock: 3,
  blockWindowMs: 24 * 3_600_000,
} as const

/** The sign-up variant a flow belongs to (engine/documents/signup-variants.json): its code completes only that variant. */
export type FlowKind = string
type Status = 'PENDING' | 'VERIFIED' | 'COMPLETED' | 'LOCKED' | 'SUPERSEDED'

interface Row {
  token_sha256: string
  registration_token_sha256: string | null
  flow: FlowKind
  jurisdiction: string
  channel: 'sms' | 'email'
  contact: string
  code_sha256: string
  previous_code_sha256: string | null
  code_expires_at: number
  attempts: number
  sends: number
  next_send_at: number
  status: Status
  payload: string
  created_at: number
  expires_at: number
}

/** What the client shows (spec §3 "Verification (join) state"); times are relative ms. */
export interface VerificationState {
  status: Status
  verificationToken?: string
  registrationToken?: string
  phoneNumber?: string
  email?: string
  channelType: 'sms' | 'email'
  /** Messages this flow may still send. */
  attemptVerificationCount: number
  /** ms until a resend is allowed (0 = now). */
  nextVerificationAfterMillis: number
  /** Code submissions left. */
  attemptCodeCount: number
  /** ms until the current code expires. */
  codeExpiredAfterMillis: number
}

export const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex')
const codeDigest = (token: string, code: string) => createHash('sha256').update(`${token}\u0000${code}`, 'utf8').digest('hex')
const newToken = () => randomBytes(32).toString('base64url')
export const newCode = () => String(randomInt(0, 10 ** VERIFICATION_LIMITS.codeDigits)).padStart(VERIFICATION_LIMITS.codeDigits, '0')

function sameDigest(a: string | null, b: string): boolean {
  if (!a || a.length !== b.length) return false
  return timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'))
}

export function stateOf(row: Row, now: number, tokens: { verificationToken?: string; registrationToken?: string } = {}): VerificationState {
  const limits = VERIFICATION_LIMITS
  return {
    status: row.status,
    ...tokens,
    ...(row.channel === 'sms' ? { phoneNumber: row.contact } : { email: row.contact }),
    channelType: row.channel,
    attemptVerificationCount: Math.max(0, limits.maxSends - row.sends),
    nextVerificationAfterMillis: Math.max(0, row.next_send_at - now),
    attemptCodeCount: Math.max(0, limits.maxCodeAttempts - row.attempts),
    codeExpiredAfterMillis: Math.max(0, row.code_expires_at - now),
  }
}

export interface StartInput {
  flow: FlowKind
  jurisdiction: string
  channel: 'sms' | 'email'
  contact: string
  /** Registration data to keep until completion (passwords already hashed). */
  payload: Record<string, unknown>
  withRegistrationToken?: boolean
}

export interface Started {
  state: VerificationState
  code: string
  verificationToken: string
  registrationToken?: string
}

export type CodeFailure =
  | 'UNKNOWN_HASH'
  | 'CODE_NO_MATCH'
  | 'CODE_EXPIRED'
  | 'CODE_OVERRIDDEN'
  | 'EXCEEDED_LIMIT'
  | 'PUNTER_BLOCKED'
  | 'TEMPORARY_BLOCKED'
  | 'SESSION_ALREADY_VERIFIED'
  | 'VERIFICATION_ERROR'

export interface VerifiedFlow {
  contact: string
  jurisdiction: string
  flow: FlowKind
  payload: Record<string, unknown>
  tokenDigest: string
}

/** The verification store over one database; every method takes `now` (injected clock). */
export function createVerificationService(db: Db) {
  const limits = VERIFICATION_LIMITS
  const byToken = (token: string) => db.prepare('SELECT * FROM signup_verifications WHERE token_sha256 = ?').get(sha256(token)) as Row | undefined

  /** Refusals before anything is sent: blocked contact, or a message sent to it too recently. */
  function precheck(contact: string, now: number): Result<null> & { nextAllowedAt?: number } {
    const locked = db
      .prepare("SELECT COUNT(*) AS n FROM signup_verifications WHERE contact = ? AND status = 'LOCKED' AND created_at > ?")
      .get(contact, now - limits.blockWindowMs) as { n: number }
    if (locked.n >= limits.lockedFlowsBeforeBlock) return { ok: false, code: 'PUNTER_BLOCKED' }
    const latest = db.prepare('SELECT MAX(next_send_at) AS at FROM signup_verifications WHERE contact = ?').get(contact) as { at: number | null }
    if (latest.at !== null && latest.at > now) return { ok: false, code: 'TEMPORARY_BLOCKED', nextAllowedAt: latest.at }
    return { ok: true, value: null }
  }

  return {
    precheck,

    /** Starts a flow and returns the code to send (the caller sends it and never logs it). */
    start(input: StartInput, now: number): Result<Started> & { nextAllowedAt?: number } {
      return db.transaction((): Result<Started> & { nextAllowedAt?: number } => {
        const refused = precheck(input.contact, now)
        if (!refused.ok) return refused
        // A new flow supersedes the contact's open ones: their codes stop working.
        db.prepare("UPDATE signup_verifications SET status = 'SUPERSEDED' WHERE contact = ? AND status IN ('PENDING', 'VERIFIED')").run(input.contact)
        const verificationToken = newToken()
        const registrationToken = input.withRegistrationToken ? newToken() : undefined
        const code = newCode()
        db.prepare(
          `INSERT INTO signup_verifications (token_sha256, registration_token_sha256, flow, jurisdiction, channel, contact, code_sha256,
             code_expires_at, next_send_at, payload, created_at, expires_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(
          sha256(verificationToken),
          registrationToken ? sha256(registrationToken) : null,
          input.flow,
          input.jurisdiction,
          input.channel,
          input.contact,
          codeDigest(verificationToken, code),
          now + limits.codeTtlMs,
          now + limits.resendCooldownMs,
          JSON.stringify(input.payload),
          now,
          now + limits.flowTtlMs,
        )
        const row = byToken(verificationToken)!
        return { ok: true, value: { state: stateOf(row, now, { verificationToken, registrationToken }), code, verificationToken, registrationToken } }
      })()
    },

    /** A new code for the same flow; the old one answers CODE_OVERRIDDEN from now on. */
    resend(token: string, flow: FlowKind, jurisdiction: string, now: number): Result<{ state: VerificationState; code: string; contact: string }> & { nextAllowedAt?: number } {
      return db.transaction((): Result<{ state: VerificationState; code: string; contact: string }> & { nextAllowedAt?: number } => {
        const row = byToken(token)
        if (!row || row.flow !== flow || row.jurisdiction !== jurisdiction) return { ok: false, code: 'UNKNOWN_HASH' }
        if (row.status === 'LOCKED') return { ok: false, code: 'EXCEEDED_LIMIT' }
        if (row.status !== 'PENDING') return { ok: false, code: row.status === 'SUPERSEDED' ? 'CODE_OVERRIDDEN' : 'SESSION_ALREADY_VERIFIED' }
        if (now >= row.expires_at) return { ok: false, code: 'CODE_EXPIRED' }
        if (row.sends >= limits.maxSends) return { ok: false, code: 'EXCEEDED_LIMIT' }
        const code = newCode()
        // The cooldown condition is part of the UPDATE, so two racing resends send one message.
        const updated = db
          .prepare(
            `UPDATE signup_verifications SET previous_code_sha256 = code_sha256, code_sha256 = ?, code_expires_at = ?,
               sends = sends + 1, next_send_at = ?
             WHERE token_sha256 = ? AND status = 'PENDING' AND next_send_at <= ? AND sends < ?`,
          )
          .run(codeDigest(token, code), now + limits.codeTtlMs, now + limits.resendCooldownMs, row.token_sha256, now, limits.maxSends)
        if (updated.changes !== 1) return { ok: false, code: 'TEMPORARY_BLOCKED', nextAllowedAt: row.next_send_at }
        const fresh = byToken(token)!
        return { ok: true, value: { state: stateOf(fresh, now), code, contact: row.contact } }
      })()
    },

    /**
     * Checks a code for a flow. The attempt is counted first, in one statement; then the code is
     * compared. Success moves the flow to VERIFIED (single use: a second success is impossible).
     */
    verify(token: string, code: string, flow: FlowKind, jurisdiction: string, now: number): Result<VerifiedFlow> & { state?: VerificationState } {
      const counted = db
        .prepare(
          `UPDATE signup_verifications SET attempts = attempts + 1
           WHERE token_sha256 = ? AND flow = ? AND jurisdiction = ? AND status = 'PENDING' AND attempts < ? AND expires_at > ?
           RETURNING *`,
        )
        .get(sha256(token), flow, jurisdiction, limits.maxCodeAttempts, now) as Row | undefined
      if (!counted) {
        const row = byToken(token)
        if (!row || row.flow !== flow || row.jurisdiction !== jurisdiction) return { ok: false, code: 'UNKNOWN_HASH' }
        if (row.status === 'LOCKED' || row.attempts >= limits.maxCodeAttempts) return { ok: false, code: 'EXCEEDED_LIMIT', state: stateOf(row, now) }
        if (row.status === 'SUPERSEDED') return { ok: false, code: 'CODE_OVERRIDDEN' }
        if (row.status === 'VERIFIED' || row.status === 'COMPLETED') return { ok: false, code: 'SESSION_ALREADY_VERIFIED' }
        return { ok: false, code: 'CODE_EXPIRED', state: stateOf(row, now) }
      }
      const digest = codeDigest(token, code)
      const lockIfSpent = (): boolean => {
        if (counted.attempts < limits.maxCodeAttempts) return false
        db.prepare("UPDATE signup_verifications SET status = 'LOCKED' WHERE token_sha256 = ? AND status = 'PENDING'").run(counted.token_sha256)
        return true
      }
      if (sameDigest(counted.code_sha256, digest)) {
        if (now >= counted.code_expires_at) {
          lockIfSpent()
          return { ok: false, code: 'CODE_EXPIRED', state: stateOf(counted, now) }
        }
        const used = db.prepare("UPDATE signup_verifications SET status = 'VERIFIED' WHERE token_sha256 = ? AND status = 'PENDING'").run(counted.token_sha256)
        if (used.changes !== 1) return { ok: false, code: 'SESSION_ALREADY_VERIFIED' }
        return { ok: true, value: { contact: counted.contact, jurisdiction: counted.jurisdiction, flow: counted.flow, payload: JSON.parse(counted.payload), tokenDigest: counted.token_sha256 } }
      }
      const spent = lockIfSpent()
      const state = stateOf({ ...counted, status: spent ? 'LOCKED' : counted.status }, now)
      if (spent) return { ok: false, code: 'EXCEEDED_LIMIT', state }
      if (sameDigest(counted.previous_code_sha256, digest)) return { ok: false, code: 'CODE_OVERRIDDEN', state }
      return { ok: false, code: 'CODE_NO_MATCH', state }
    },

    /** A verified flow by its token (Russia's complete step, which comes after the code step). */
    verified(token: string, flow: FlowKind, jurisdiction: string, now: number): Result<VerifiedFlow> {
      const row = byToken(token)
      if (!row || row.flow !== flow || row.jurisdiction !== jurisdiction) return { ok: false, code: 'UNKNOWN_HASH' }
      if (row.status === 'PENDING') return { ok: false, code: 'VERIFICATION_ERROR', message: 'the code step has not been passed' }
      if (row.status !== 'VERIFIED') return { ok: false, code: row.status === 'COMPLETED' ? 'SESSION_ALREADY_VERIFIED' : 'VERIFICATION_ERROR' }
      if (now >= row.expires_at) return { ok: false, code: 'CODE_EXPIRED' }
      return { ok: true, value: { contact: row.contact, jurisdiction: row.jurisdiction, flow: row.flow, payload: JSON.parse(row.payload), tokenDigest: row.token_sha256 } }
    },

    /** Marks a verified flow completed; false if someone else completed it first. Call inside the punter transaction. */
    complete(tokenDigest: string): boolean {
      return db.prepare("UPDATE signup_verifications SET status = 'COMPLETED', payload = '{}' WHERE token_sha256 = ? AND status = 'VERIFIED'").run(tokenDigest).changes === 1
    },

    /** The state of a flow by its registration token (Russia's continue call). */
    byRegistrationToken(registrationToken: string, jurisdiction: string, now: number): (VerificationState & { tokenDigest: string }) | undefined {
      const row = db.prepare('SELECT * FROM signup_verifications WHERE registration_token_sha256 = ? AND jurisdiction = ?').get(sha256(registrationToken), jurisdiction) as Row | undefined
      return row && { ...stateOf(row, now), tokenDigest: row.token_sha256 }
    },

    registrationTokenMatches(verificationToken: string, registrationToken: string): boolean {
      const row = byToken(verificationToken)
      return !!row && row.registration_token_sha256 === sha256(registrationToken)
    },

    /** The phone or e-mail a flow sends to (for the SMS budget, before a resend). */
    contactOf(token: string): string | undefined {
      return byToken(token)?.contact
    },

    /** Test and dev inspection: attempts counted for a flow. */
    attempts(token: string): number | undefined {
      return byToken(token)?.attempts
    },
  }
}

export type VerificationService = ReturnType<typeof createVerificationService>
