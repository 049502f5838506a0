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
 * (`attempts < max`) *before* the code is compared: however many requests race, on however many
 * instances, at most `max` of them ever get their code compared.
 *
 * On the query layer (issue 16): the same statements on SQLite and PostgreSQL, so a code attempt
 * counted on one instance counts on all, and a code used on one is used on all.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Result } from '../../kernel/core/contracts'
import type { DataLayer } from '../db/data-layer'
import { oneOf, schemaStep, sqliteHistory } from '../db/schema'
import type { Tables } from '../db/tables'

export const sqlite402SignupVerifications = sqliteHistory(
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

/** The sign-up variant a flow belongs to (kernel/documents/signup-variants.json): its code completes only that variant. */
export type FlowKind = string
const STATUSES = ['PENDING', 'VERIFIED', 'COMPLETED', 'LOCKED', 'SUPERSEDED'] as const
type Status = (typeof STATUSES)[number]

/** One sign-up flow as stored (only digests of its tokens and codes). */
export interface FlowRow {
  token_sha256: string
  registration_token_sha256: string | null
  flow: FlowKind
  jurisdiction: string
  channel: 'sms' | 'email' | 'tg_gateway'
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

declare module '../db/tables' {
  interface Tables {
    signup_verifications: FlowRow
  }
}

export const q011SignupVerifications = schemaStep('q011-signup-verifications', async (db) => {
  await db.schema
    .createTable('signup_verifications')
    .ifNotExists()
    .addColumn('token_sha256', 'text', (c) => c.primaryKey())
    .addColumn('registration_token_sha256', 'text', (c) => c.unique())
    .addColumn('flow', 'text', (c) => c.notNull())
    .addColumn('jurisdiction', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('contact', 'text', (c) => c.notNull())
    .addColumn('code_sha256', 'text', (c) => c.notNull())
    .addColumn('previous_code_sha256', 'text')
    .addColumn('code_expires_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sends', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('next_send_at', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('PENDING').check(oneOf('status', STATUSES)))
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('signup_verifications_contact').ifNotExists().on('signup_verifications').columns(['contact', 'created_at']).execute()
})

/** What the client shows (spec §3 "Verification (join) state"); times are relative ms. */
export interface VerificationState {
  status: Status
  verificationToken?: string
  registrationToken?: string
  phoneNumber?: string
  email?: string
  channelType: 'sms' | 'email' | 'tg_gateway'
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

export function stateOf(row: FlowRow, now: number, tokens: { verificationToken?: string; registrationToken?: string } = {}): VerificationState {
  const limits = VERIFICATION_LIMITS
  return {
    status: row.status,
    ...tokens,
    ...(row.channel === 'email' ? { email: row.contact } : { phoneNumber: row.contact }),
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
  channel: 'sms' | 'email' | 'tg_gateway'
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

/** A flow's row by its verification token's digest, on the database or transaction given. */
const byDigest = (db: Kysely<Tables>, digest: string) => db.selectFrom('signup_verifications').selectAll().where('token_sha256', '=', digest).executeTakeFirst() as Promise<FlowRow | undefined>
const byToken = (data: DataLayer, token: string) => byDigest(data.db, sha256(token))

/** A site's flow by its registration token (Russia's continue and add-email calls). */
const byRegistrationToken = async (data: DataLayer, registrationToken: string, jurisdiction: string): Promise<FlowRow | undefined> =>
  (await data.db
    .selectFrom('signup_verifications')
    .selectAll()
    .where('registration_token_sha256', '=', sha256(registrationToken))
    .where('jurisdiction', '=', jurisdiction)
    .executeTakeFirst()) as FlowRow | undefined

/** Moves a PENDING flow to `status` (one conditional statement: numUpdatedRows says whether it did). */
const setStatus = (data: DataLayer, digest: string, status: Status) =>
  data.db.updateTable('signup_verifications').set({ status }).where('token_sha256', '=', digest).where('status', '=', 'PENDING').executeTakeFirst()

/** What a verified (or completed) flow carries on to the punter's creation. */
const verifiedFlowOf = (row: FlowRow): VerifiedFlow => ({ contact: row.contact, jurisdiction: row.jurisdiction, flow: row.flow, payload: JSON.parse(row.payload), tokenDigest: row.token_sha256 })

/** Refusals before anything is sent: blocked contact, or a message sent to it too recently. */
async function precheck(db: Kysely<Tables>, contact: string, now: number): Promise<Result<null> & { nextAllowedAt?: number }> {
  const limits = VERIFICATION_LIMITS
  const row = await db
    .selectFrom('signup_verifications')
    .select((eb) => [
      eb.fn.sum<number>(eb.case().when(eb.and([eb('status', '=', 'LOCKED'), eb('created_at', '>', now - limits.blockWindowMs)])).then(1).else(0).end()).as('locked'),
      eb.fn.max('next_send_at').as('latest'),
    ])
    .where('contact', '=', contact)
    .executeTakeFirst()
  if (Number(row?.locked ?? 0) >= limits.lockedFlowsBeforeBlock) return { ok: false, code: 'PUNTER_BLOCKED' }
  const latest = row?.latest == null ? null : Number(row.latest)
  if (latest !== null && latest > now) return { ok: false, code: 'TEMPORARY_BLOCKED', nextAllowedAt: latest }
  return { ok: true, value: null }
}

/**
 * A new flow's row: only digests of its tokens and of its code (the code's keyed by the
 * verification token); the code valid for codeTtlMs, the next message allowed after
 * resendCooldownMs, the flow alive for flowTtlMs, all from `now`; one message sent, no attempt yet.
 */
export function newFlowRow(input: StartInput, tokens: { verificationToken: string; registrationToken?: string }, code: string, now: number): FlowRow {
  const limits = VERIFICATION_LIMITS
  return {
    token_sha256: sha256(tokens.verificationToken),
    registration_token_sha256: tokens.registrationToken ? sha256(tokens.registrationToken) : null,
    flow: input.flow,
    jurisdiction: input.jurisdiction,
    channel: input.channel,
    contact: input.contact,
    code_sha256: codeDigest(tokens.verificationToken, code),
    previous_code_sha256: null,
    code_expires_at: now + limits.codeTtlMs,
    attempts: 0,
    sends: 1,
    next_send_at: now + limits.resendCooldownMs,
    status: 'PENDING',
    payload: JSON.stringify(input.payload),
    created_at: now,
    expires_at: now + limits.flowTtlMs,
  }
}

/** Starts a flow and returns the code to send (the caller sends it and never logs it). Serialised per contact across instances. */
function startFlow(data: DataLayer, input: StartInput, now: number): Promise<Result<Started> & { nextAllowedAt?: number }> {
  return data.transaction(
    async (tx): Promise<Result<Started> & { nextAllowedAt?: number }> => {
      const refused = await precheck(tx, input.contact, now)
      if (!refused.ok) return refused
      // A new flow supersedes the contact's open ones: their codes stop working.
      await tx.updateTable('signup_verifications').set({ status: 'SUPERSEDED' }).where('contact', '=', input.contact).where('status', 'in', ['PENDING', 'VERIFIED']).execute()
      const verificationToken = newToken()
      const registrationToken = input.withRegistrationToken ? newToken() : undefined
      const code = newCode()
      const row = (await tx
        .insertInto('signup_verifications')
        .values(newFlowRow(input, { verificationToken, registrationToken }, code, now))
        .returningAll()
        .executeTakeFirstOrThrow()) as FlowRow
      return { ok: true, value: { state: stateOf(row, now, { verificationToken, registrationToken }), code, verificationToken, registrationToken } }
    },
    { serialiseOn: 'signup-contact:' + input.contact },
  )
}

/**
 * Why a flow gets no new code, read before the resend is tried: unknown (or another variant's or
 * site's) flow, locked, superseded, already verified or completed, past its life, or every
 * message of it sent. Undefined: a resend may go (the cooldown is checked by the UPDATE itself).
 */
export function resendRefusal(row: FlowRow | undefined, flow: FlowKind, jurisdiction: string, now: number): CodeFailure | undefined {
  if (!row || row.flow !== flow || row.jurisdiction !== jurisdiction) return 'UNKNOWN_HASH'
  if (row.status === 'LOCKED') return 'EXCEEDED_LIMIT'
  if (row.status !== 'PENDING') return row.status === 'SUPERSEDED' ? 'CODE_OVERRIDDEN' : 'SESSION_ALREADY_VERIFIED'
  if (now >= row.expires_at) return 'CODE_EXPIRED'
  if (row.sends >= VERIFICATION_LIMITS.maxSends) return 'EXCEEDED_LIMIT'
  return undefined
}

/** A new code for the same flow; the old one answers CODE_OVERRIDDEN from now on. */
async function resendCode(data: DataLayer, token: string, flow: FlowKind, jurisdiction: string, now: number): Promise<Result<{ state: VerificationState; code: string; contact: string }> & { nextAllowedAt?: number }> {
  const limits = VERIFICATION_LIMITS
  const row = await byToken(data, token)
  const refused = resendRefusal(row, flow, jurisdiction, now)
  if (refused || !row) return { ok: false, code: refused ?? 'UNKNOWN_HASH' }
  const code = newCode()
  // The cooldown condition is part of the UPDATE, so two racing resends (on any instances) send one message.
  const fresh = (await data.db
    .updateTable('signup_verifications')
    .set((eb) => ({
      previous_code_sha256: eb.ref('code_sha256'),
      code_sha256: codeDigest(token, code),
      code_expires_at: now + limits.codeTtlMs,
      sends: eb('sends', '+', 1),
      next_send_at: now + limits.resendCooldownMs,
    }))
    .where('token_sha256', '=', row.token_sha256)
    .where('status', '=', 'PENDING')
    .where('next_send_at', '<=', now)
    .where('sends', '<', limits.maxSends)
    .returningAll()
    .executeTakeFirst()) as FlowRow | undefined
  if (!fresh) return { ok: false, code: 'TEMPORARY_BLOCKED', nextAllowedAt: row.next_send_at }
  return { ok: true, value: { state: stateOf(fresh, now), code, contact: row.contact } }
}

/**
 * Why a code attempt was not counted (the counting UPDATE matched no row), from the flow's row as
 * it is now: unknown (or another variant's or site's) flow, attempts spent (with the state),
 * superseded, already verified or completed; else the flow is past its life (CODE_EXPIRED, with
 * the state).
 */
export function uncountedRefusal(row: FlowRow | undefined, flow: FlowKind, jurisdiction: string, now: number): { ok: false; code: CodeFailure; state?: VerificationState } {
  if (!row || row.flow !== flow || row.jurisdiction !== jurisdiction) return { ok: false, code: 'UNKNOWN_HASH' }
  if (row.status === 'LOCKED' || row.attempts >= VERIFICATION_LIMITS.maxCodeAttempts) return { ok: false, code: 'EXCEEDED_LIMIT', state: stateOf(row, now) }
  if (row.status === 'SUPERSEDED') return { ok: false, code: 'CODE_OVERRIDDEN' }
  if (row.status === 'VERIFIED' || row.status === 'COMPLETED') return { ok: false, code: 'SESSION_ALREADY_VERIFIED' }
  return { ok: false, code: 'CODE_EXPIRED', state: stateOf(row, now) }
}

/** Compares a code with a flow whose attempt was counted: the last allowed attempt that fails (or finds its code expired) locks the flow. */
async function compareCounted(data: DataLayer, counted: FlowRow, token: string, code: string, now: number): Promise<Result<VerifiedFlow> & { state?: VerificationState }> {
  const digest = codeDigest(token, code)
  const lockIfSpent = async (): Promise<boolean> => {
    if (counted.attempts < VERIFICATION_LIMITS.maxCodeAttempts) return false
    await setStatus(data, counted.token_sha256, 'LOCKED')
    return true
  }
  if (sameDigest(counted.code_sha256, digest)) {
    if (now >= counted.code_expires_at) {
      await lockIfSpent()
      return { ok: false, code: 'CODE_EXPIRED', state: stateOf(counted, now) }
    }
    const used = await setStatus(data, counted.token_sha256, 'VERIFIED')
    if (Number(used.numUpdatedRows) !== 1) return { ok: false, code: 'SESSION_ALREADY_VERIFIED' }
    return { ok: true, value: verifiedFlowOf(counted) }
  }
  const spent = await lockIfSpent()
  const state = stateOf({ ...counted, status: spent ? 'LOCKED' : counted.status }, now)
  if (spent) return { ok: false, code: 'EXCEEDED_LIMIT', state }
  if (sameDigest(counted.previous_code_sha256, digest)) return { ok: false, code: 'CODE_OVERRIDDEN', state }
  return { ok: false, code: 'CODE_NO_MATCH', state }
}

/**
 * Checks a code for a flow. The attempt is counted first, in one statement; then the code is
 * compared. Success moves the flow to VERIFIED (single use: a second success is impossible).
 */
async function verifyCode(data: DataLayer, token: string, code: string, flow: FlowKind, jurisdiction: string, now: number): Promise<Result<VerifiedFlow> & { state?: VerificationState }> {
  const counted = (await data.db
    .updateTable('signup_verifications')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('token_sha256', '=', sha256(token))
    .where('flow', '=', flow)
    .where('jurisdiction', '=', jurisdiction)
    .where('status', '=', 'PENDING')
    .where('attempts', '<', VERIFICATION_LIMITS.maxCodeAttempts)
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst()) as FlowRow | undefined
  if (!counted) return uncountedRefusal(await byToken(data, token), flow, jurisdiction, now)
  return compareCounted(data, counted, token, code, now)
}

/** A verified flow by its token (Russia's complete step, which comes after the code step). */
async function verifiedFlow(data: DataLayer, token: string, flow: FlowKind, jurisdiction: string, now: number): Promise<Result<VerifiedFlow>> {
  const row = await byToken(data, token)
  if (!row || row.flow !== flow || row.jurisdiction !== jurisdiction) return { ok: false, code: 'UNKNOWN_HASH' }
  if (row.status === 'PENDING') return { ok: false, code: 'VERIFICATION_ERROR', message: 'the code step has not been passed' }
  if (row.status !== 'VERIFIED') return { ok: false, code: row.status === 'COMPLETED' ? 'SESSION_ALREADY_VERIFIED' : 'VERIFICATION_ERROR' }
  if (now >= row.expires_at) return { ok: false, code: 'CODE_EXPIRED' }
  return { ok: true, value: verifiedFlowOf(row) }
}

/** Marks a verified flow completed (single use, one conditional statement); false if someone else completed it first. */
async function completeFlow(data: DataLayer, tokenDigest: string): Promise<boolean> {
  const done = await data.db.updateTable('signup_verifications').set({ status: 'COMPLETED', payload: '{}' }).where('token_sha256', '=', tokenDigest).where('status', '=', 'VERIFIED').executeTakeFirst()
  return Number(done.numUpdatedRows) === 1
}

/**
 * Russia's add-email step: the e-mail the punter will be created with, set on a started (or
 * code-verified) registration of the site, by its registration token. False when no such
 * registration is open (unknown token, another site's, completed, expired).
 */
async function addEmail(data: DataLayer, registrationToken: string, jurisdiction: string, email: string, now: number): Promise<boolean> {
  const row = await byRegistrationToken(data, registrationToken, jurisdiction)
  if (!row || (row.status !== 'PENDING' && row.status !== 'VERIFIED') || now >= row.expires_at) return false
  const payload = JSON.parse(row.payload) as { punter?: Record<string, unknown> }
  const next = JSON.stringify({ ...payload, punter: { ...payload.punter, email } })
  const done = await data.db.updateTable('signup_verifications').set({ payload: next }).where('token_sha256', '=', row.token_sha256).where('status', '=', row.status).executeTakeFirst()
  return Number(done.numUpdatedRows) === 1
}

/** The verification store over one database (either engine); every method takes `now` (injected clock). */
export function createVerificationService(data: DataLayer) {
  return {
    precheck: (contact: string, now: number) => precheck(data.db, contact, now),
    start: (input: StartInput, now: number) => startFlow(data, input, now),
    resend: (token: string, flow: FlowKind, jurisdiction: string, now: number) => resendCode(data, token, flow, jurisdiction, now),
    verify: (token: string, code: string, flow: FlowKind, jurisdiction: string, now: number) => verifyCode(data, token, code, flow, jurisdiction, now),
    verified: (token: string, flow: FlowKind, jurisdiction: string, now: number) => verifiedFlow(data, token, flow, jurisdiction, now),
    complete: (tokenDigest: string) => completeFlow(data, tokenDigest),

    /** The state of a flow by its registration token (Russia's continue call). */
    async byRegistrationToken(registrationToken: string, jurisdiction: string, now: number): Promise<(VerificationState & { tokenDigest: string }) | undefined> {
      const row = await byRegistrationToken(data, registrationToken, jurisdiction)
      return row && { ...stateOf(row, now), tokenDigest: row.token_sha256 }
    },

    addEmail: (registrationToken: string, jurisdiction: string, email: string, now: number) => addEmail(data, registrationToken, jurisdiction, email, now),

    async registrationTokenMatches(verificationToken: string, registrationToken: string): Promise<boolean> {
      const row = await byToken(data, verificationToken)
      return !!row && row.registration_token_sha256 === sha256(registrationToken)
    },

    /** The phone or e-mail a flow sends to (for the SMS budget, before a resend). */
    contactOf: async (token: string): Promise<string | undefined> => (await byToken(data, token))?.contact,

    /** Test and dev inspection: attempts counted for a flow. */
    attempts: async (token: string): Promise<number | undefined> => (await byToken(data, token))?.attempts,
  }
}

export type VerificationService = ReturnType<typeof createVerificationService>
