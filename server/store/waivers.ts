/**
 * Waivers of regulatory findings (issue 29 item 6): a waiver lets ONE rule pass in ONE
 * jurisdiction's ONE document until an end time, and can be revoked before it. Every grant and
 * every revocation is four-eyes — asked by one admin, approved by another (compliance) — and each
 * step writes an audit entry in its transaction. The gate (./publish-check.ts) reads only the
 * active ones: approved, not revoked, not yet ended by the injected clock.
 *
 * Rows from before scopes and ends existed (no document, no end) cover nothing: a waiver of a
 * whole rule for ever is exactly what compliance could not accept.
 */
import type { DataLayer } from '../db/data-layer'
import { appendAudit, auditedTransaction } from './audit'
import type { Executor, StoreResult } from './types'
import type { Waiver } from '../../tools/schema-lint'

/** The longest a waiver may run: a waiver is a bridge to a fix, not a new rule. */
export const MAX_WAIVER_DAYS = 180
const DAY = 86_400_000

/** Where a waiver stands at a moment: `active` is the only status the gate honours. */
export type WaiverStatus = 'requested' | 'active' | 'revocation-requested' | 'expired' | 'rejected' | 'revoked'

export interface WaiverRecord extends Waiver {
  id: number
  author: string
  state: 'requested' | 'approved' | 'rejected' | 'revoked'
  status: WaiverStatus
  reviewedBy: string | null
  createdAt: number
  /** Ms since epoch; null for a row from before waivers ended. */
  expiresAt: number | null
  revocation: { requestedBy: string; requestedAt: number; reason: string } | null
  revokedBy: string | null
  revokedAt: number | null
}

export interface WaiverRequest {
  jurisdiction: string
  rule: string
  document: string
  reason: string
  expiresAt: number
}

const same = (a: string | null | undefined, b: string | null | undefined) => !!a && !!b && a.toLowerCase() === b.toLowerCase()
const fail = <T>(code: string, details?: unknown): StoreResult<T> => ({ ok: false, code: code as never, details })

function statusOf(row: { state: WaiverRecord['state']; document: string | null; expires_at: number | null; revoke_requested_by: string | null }, now: number): WaiverStatus {
  if (row.state !== 'approved') return row.state === 'requested' && row.expires_at !== null && row.expires_at <= now ? 'expired' : row.state
  if (row.document === null || row.expires_at === null || row.expires_at <= now) return 'expired'
  return row.revoke_requested_by ? 'revocation-requested' : 'active'
}

export class WaiverBook {
  constructor(
    private readonly data: DataLayer,
    private readonly now: () => number,
  ) {}

  async list(tx: Executor = this.data.db): Promise<WaiverRecord[]> {
    const rows = await tx.selectFrom('store_waivers').selectAll().orderBy('id', 'desc').execute()
    const now = this.now()
    return rows.map((w) => ({
      id: w.id,
      jurisdiction: w.jurisdiction,
      rule: w.rule,
      document: w.document ?? '',
      reason: w.reason,
      author: w.author,
      state: w.state,
      status: statusOf(w, now),
      reviewedBy: w.reviewed_by ?? null,
      createdAt: w.created_at,
      expiresAt: w.expires_at ?? null,
      revocation: w.revoke_requested_by ? { requestedBy: w.revoke_requested_by, requestedAt: w.revoke_requested_at ?? 0, reason: w.revoke_reason ?? '' } : null,
      revokedBy: w.revoked_by ?? null,
      revokedAt: w.revoked_at ?? null,
    }))
  }

  async one(id: number): Promise<WaiverRecord | undefined> {
    return (await this.list()).find((w) => w.id === id)
  }

  /** The waivers the gate honours now. */
  async active(): Promise<Waiver[]> {
    return (await this.list())
      .filter((w) => w.status === 'active' || w.status === 'revocation-requested')
      .map(({ jurisdiction, rule, document, reason }) => ({ jurisdiction, rule, document, reason }))
      .reverse()
  }

  async request(actor: string, asked: WaiverRequest): Promise<StoreResult<WaiverRecord>> {
    const at = this.now()
    if (!Number.isSafeInteger(asked.expiresAt) || asked.expiresAt <= at || asked.expiresAt > at + MAX_WAIVER_DAYS * DAY)
      return fail('INVALID_EXPIRY', { field: 'expiresAt', code: 'range', maxDays: MAX_WAIVER_DAYS })
    const id = await auditedTransaction(this.data, async (audit) => {
      const { id } = await audit.tx
        .insertInto('store_waivers')
        .values({ jurisdiction: asked.jurisdiction, rule: asked.rule, document: asked.document, reason: asked.reason, expires_at: asked.expiresAt, author: actor, state: 'requested', created_at: at })
        .returning('id')
        .executeTakeFirstOrThrow()
      await appendAudit(audit, at, actor, 'waiver.requested', `${asked.jurisdiction}/${asked.rule}`, { waiver: id, document: asked.document, expiresAt: asked.expiresAt, reason: asked.reason })
      return id
    })
    return { ok: true, value: (await this.one(id))! }
  }

  /** Compliance grants or refuses a requested waiver; never the admin who asked. */
  async review(reviewer: string, id: number, decision: 'approved' | 'rejected'): Promise<StoreResult<WaiverRecord>> {
    const waiver = await this.one(id)
    if (!waiver) return fail('NOT_FOUND')
    if (same(waiver.author, reviewer)) return fail('SELF_APPROVAL')
    if (waiver.status !== 'requested') return fail('INVALID_STATE', { state: waiver.status })
    const at = this.now()
    await auditedTransaction(this.data, async (audit) => {
      await audit.tx.updateTable('store_waivers').set({ state: decision, reviewed_by: reviewer, reviewed_at: at }).where('id', '=', id).execute()
      await appendAudit(audit, at, reviewer, `waiver.${decision}`, `${waiver.jurisdiction}/${waiver.rule}`, { waiver: id, author: waiver.author, document: waiver.document, expiresAt: waiver.expiresAt })
    })
    return { ok: true, value: (await this.one(id))! }
  }

  /** Asks to revoke an active waiver (it stays active until a second admin approves). */
  async requestRevocation(actor: string, id: number, reason: string): Promise<StoreResult<WaiverRecord>> {
    const waiver = await this.one(id)
    if (!waiver) return fail('NOT_FOUND')
    if (waiver.status !== 'active') return fail('INVALID_STATE', { state: waiver.status })
    const at = this.now()
    await auditedTransaction(this.data, async (audit) => {
      await audit.tx.updateTable('store_waivers').set({ revoke_requested_by: actor, revoke_requested_at: at, revoke_reason: reason }).where('id', '=', id).execute()
      await appendAudit(audit, at, actor, 'waiver.revocation-requested', `${waiver.jurisdiction}/${waiver.rule}`, { waiver: id, reason })
    })
    return { ok: true, value: (await this.one(id))! }
  }

  /** A second admin (compliance, not the one who asked) revokes the waiver, or keeps it. */
  async reviewRevocation(reviewer: string, id: number, decision: 'approved' | 'rejected'): Promise<StoreResult<WaiverRecord>> {
    const waiver = await this.one(id)
    if (!waiver) return fail('NOT_FOUND')
    if (waiver.status !== 'revocation-requested' || !waiver.revocation) return fail('INVALID_STATE', { state: waiver.status })
    if (same(waiver.revocation.requestedBy, reviewer)) return fail('SELF_APPROVAL')
    const at = this.now()
    await auditedTransaction(this.data, async (audit) => {
      const change =
        decision === 'approved'
          ? { state: 'revoked' as const, revoked_by: reviewer, revoked_at: at }
          : { revoke_requested_by: null, revoke_requested_at: null, revoke_reason: null }
      await audit.tx.updateTable('store_waivers').set(change).where('id', '=', id).execute()
      const action = decision === 'approved' ? 'waiver.revoked' : 'waiver.revocation-rejected'
      await appendAudit(audit, at, reviewer, action, `${waiver.jurisdiction}/${waiver.rule}`, { waiver: id, requestedBy: waiver.revocation!.requestedBy, reason: waiver.revocation!.reason })
    })
    return { ok: true, value: (await this.one(id))! }
  }
}
