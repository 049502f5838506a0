/**
 * Rollbacks are four-eyes (issue 29 item 7). A rollback one person asks for is only a request
 * until a second person approves it; then it goes live (store.rollback, the gate applies) as the
 * approver. An emergency rollback (a reason is required) goes live at once, and so does the publish
 * watch's automatic one (./auto-rollback.ts): each opens an after-review item a second person must
 * acknowledge, listed as pending until then. Every step, and every refusal, is one audit entry.
 * A release is rolled back the same way (subject `release/<id>`, ReleaseBook.rollback puts it
 * live): then an item's `version` is the id of the rollback release, not of a document version.
 */
import type { Generated } from 'kysely'
import type { DataLayer } from '../db/data-layer'
import { schemaStep, surrogateKey, surrogateKeyType } from '../db/schema'
import { appendAudit, auditedTransaction, type AuditScope } from './audit'
import { releaseBookOf, type Release } from './releases'
import type { Alongside, BookStore, DocumentVersion, Executor, StoreResult } from './types'

declare module '../db/tables' {
  interface Tables {
    store_rollbacks: {
      id: Generated<number>
      kind: RollbackKind
      subject: string
      to_version: number | null
      reason: string
      requested_by: string
      requested_at: number
      state: RollbackState
      decided_by: string | null
      decided_at: number | null
      version_id: number | null
    }
  }
}

export const q093StoreRollbacks = schemaStep('q093-store-rollbacks', async (db, engine) => {
  await db.schema
    .createTable('store_rollbacks')
    .ifNotExists()
    .addColumn('id', surrogateKeyType(engine), surrogateKey(engine))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('to_version', 'bigint')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'bigint', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('decided_by', 'text')
    .addColumn('decided_at', 'bigint')
    .addColumn('version_id', 'bigint')
    .execute()
  await db.schema.createIndex('store_rollbacks_state').ifNotExists().on('store_rollbacks').columns(['state', 'id']).execute()
})

/** `request`: waits for a second person; `emergency` and `automatic`: live at once, reviewed after. */
export type RollbackKind = 'request' | 'emergency' | 'automatic'
/** requested → (approving →) done; review-pending → reviewed. */
export type RollbackState = 'requested' | 'approving' | 'done' | 'review-pending' | 'reviewed'

export interface RollbackItem {
  id: number
  kind: RollbackKind
  subject: string
  toVersion: number | null
  reason: string
  requestedBy: string
  requestedAt: number
  state: RollbackState
  decidedBy: string | null
  decidedAt: number | null
  version: number | null
}

/** What went live: a document's new version, or (a release's rollback) the rollback release. */
export type RolledBack = { item: RollbackItem; version?: DocumentVersion; release?: Release }
/** The id of the release a rollback subject names (`release/<id>`), or undefined for a document. */
export const releaseOfSubject = (subject: string): number | undefined => {
  const match = /^release\/([1-9][0-9]{0,9})$/.exec(subject)
  return match ? Number(match[1]) : undefined
}

const same = (a: string | null | undefined, b: string | null | undefined) => !!a && !!b && a.toLowerCase() === b.toLowerCase()
const fail = <T>(code: string, details?: unknown): StoreResult<T> => ({ ok: false, code: code as never, details })

type Row = Omit<RollbackItem, 'id'> & { id?: number }
const toItem = (r: { id: number; kind: RollbackKind; subject: string; to_version: number | null; reason: string; requested_by: string; requested_at: number; state: RollbackState; decided_by: string | null; decided_at: number | null; version_id: number | null }): RollbackItem => ({
  id: Number(r.id),
  kind: r.kind,
  subject: r.subject,
  toVersion: r.to_version === null ? null : Number(r.to_version),
  reason: r.reason,
  requestedBy: r.requested_by,
  requestedAt: Number(r.requested_at),
  state: r.state,
  decidedBy: r.decided_by,
  decidedAt: r.decided_at === null ? null : Number(r.decided_at),
  version: r.version_id === null ? null : Number(r.version_id),
})

/** Opens an item inside the caller's audited transaction (the automatic rollback uses it too). */
export async function openRollbackItem(tx: Executor, item: Row): Promise<number> {
  const row = await tx
    .insertInto('store_rollbacks')
    .values({ kind: item.kind, subject: item.subject, to_version: item.toVersion, reason: item.reason, requested_by: item.requestedBy, requested_at: item.requestedAt, state: item.state, decided_by: null, decided_at: null, version_id: item.version })
    .returning('id')
    .executeTakeFirstOrThrow()
  return Number(row.id)
}

export class RollbackBook {
  constructor(
    private readonly store: BookStore,
    private readonly data: DataLayer,
    private readonly now: () => number,
  ) {}

  async item(id: number, tx: Executor = this.data.db): Promise<RollbackItem | undefined> {
    if (!Number.isSafeInteger(id)) return undefined
    const row = await tx.selectFrom('store_rollbacks').selectAll().where('id', '=', id).executeTakeFirst()
    return row && toItem(row)
  }

  /** Every item, newest first; `pending`: the ones waiting for a second person (approval or review). */
  async list(filter: { pending?: boolean } = {}): Promise<RollbackItem[]> {
    const rows = await this.data.db
      .selectFrom('store_rollbacks')
      .selectAll()
      .$if(!!filter.pending, (q) => q.where('state', 'in', ['requested', 'approving', 'review-pending']))
      .orderBy('id', 'desc')
      .limit(200)
      .execute()
    return rows.map(toItem)
  }

  /** The documents a rollback subject changes: the file, or every file of the release (the scope check). */
  async filesOf(subject: string): Promise<string[]> {
    const id = releaseOfSubject(subject)
    if (id === undefined) return [subject]
    const book = releaseBookOf(this.store, this.now)
    const release = await book.release(id)
    return release ? (await book.versionsOf(release)).map((v) => v.file) : []
  }

  /** A target that exists and differs from what is live, checked before anything is recorded. */
  private async target(file: string, toVersion: number): Promise<StoreResult<DocumentVersion>> {
    const target = await this.store.version(toVersion)
    if (!target || target.file !== file || target.publishedAt === null) return fail('NOT_FOUND')
    const current = await this.store.publishedVersionOf(file)
    if ((current && !target.deleted && current.contentHash === target.contentHash) || (!current && target.deleted)) return fail('NOTHING_CHANGED')
    return { ok: true, value: target }
  }

  /** One person asks: nothing changes on the site until a second person approves. */
  async request(actor: string, file: string, toVersion: number | null, reason: string): Promise<StoreResult<RollbackItem>> {
    const release = releaseOfSubject(file)
    const target = release === undefined ? await this.target(file, toVersion ?? 0) : await releaseBookOf(this.store, this.now).rollbackable(release)
    if (!target.ok) return target
    const at = this.now()
    const id = await auditedTransaction(this.data, async (audit) => {
      const id = await openRollbackItem(audit.tx, { kind: 'request', subject: file, toVersion: release === undefined ? toVersion : null, reason, requestedBy: actor, requestedAt: at, state: 'requested', decidedBy: null, decidedAt: null, version: null })
      await appendAudit(audit, at, actor, 'rollback.requested', file, { rollback: id, to: toVersion, reason })
      return id
    })
    return { ok: true, value: (await this.item(id))! }
  }

  /** A second person approves: the rollback goes live as theirs. The requester is refused (audited). */
  async approve(actor: string, id: number): Promise<StoreResult<RolledBack>> {
    const item = await this.item(id)
    if (!item || item.kind !== 'request') return fail('NOT_FOUND')
    if (same(item.requestedBy, actor)) {
      await this.store.audit(actor, 'rollback.self-approval-refused', item.subject, { rollback: id, reason: 'the person who asked for a rollback cannot approve it' })
      return fail('SELF_APPROVAL')
    }
    // claim it: of two approvers at once, one rolls back
    const claimed = await this.data.db.updateTable('store_rollbacks').set({ state: 'approving' }).where('id', '=', id).where('state', '=', 'requested').executeTakeFirst()
    if (Number(claimed.numUpdatedRows) !== 1) return fail('INVALID_STATE', { state: (await this.item(id))?.state })
    // done in the transaction that puts it live: live and recorded as approved, or neither
    const approved = async (audit: AuditScope, version: number, at: number) => {
      await audit.tx.updateTable('store_rollbacks').set({ state: 'done', decided_by: actor, decided_at: at, version_id: version }).where('id', '=', id).execute()
      await appendAudit(audit, at, actor, 'rollback.approved', item.subject, { rollback: id, requestedBy: item.requestedBy, to: item.toVersion, version })
    }
    const result = await this.goLive(actor, item.subject, item.toVersion, approved).catch((error: unknown) => ({ ok: false as const, code: 'THROWN' as never, error }))
    if (!result.ok) {
      await this.data.db.updateTable('store_rollbacks').set({ state: 'requested' }).where('id', '=', id).where('state', '=', 'approving').execute()
      if ('error' in result) throw result.error
      return result
    }
    return { ok: true, value: { item: (await this.item(id))!, ...result.value } }
  }

  /** Puts the rollback live: a document to an earlier version, or a release by its rollback release. */
  private async goLive(actor: string, subject: string, toVersion: number | null, alongside: Alongside): Promise<StoreResult<Omit<RolledBack, 'item'>>> {
    const release = releaseOfSubject(subject)
    if (release === undefined) {
      const done = await this.store.rollback(actor, subject, toVersion!, alongside)
      return done.ok ? { ok: true, value: { version: done.value } } : done
    }
    const done = await releaseBookOf(this.store, this.now).rollback(actor, release, alongside)
    return done.ok ? { ok: true, value: { release: done.value } } : done
  }

  /** One person, at once, with a reason; a second person reviews it afterwards. */
  async emergency(actor: string, file: string, toVersion: number | null, reason: string): Promise<StoreResult<RolledBack>> {
    // the after-review item is opened in the transaction that puts the rollback live: never one without the other
    let id = 0
    const opened = async (audit: AuditScope, version: number, at: number) => {
      id = await openRollbackItem(audit.tx, { kind: 'emergency', subject: file, toVersion, reason, requestedBy: actor, requestedAt: at, state: 'review-pending', decidedBy: null, decidedAt: null, version })
      await appendAudit(audit, at, actor, 'rollback.emergency', file, { rollback: id, to: toVersion, version, reason })
    }
    const result = await this.goLive(actor, file, toVersion, opened)
    if (!result.ok) return result
    return { ok: true, value: { item: (await this.item(id))!, ...result.value } }
  }

  /** The after-review of an emergency or automatic rollback, by someone other than who did it. */
  async acknowledge(actor: string, id: number, comment: string): Promise<StoreResult<RollbackItem>> {
    const item = await this.item(id)
    if (!item || item.kind === 'request') return fail('NOT_FOUND')
    if (same(item.requestedBy, actor)) {
      await this.store.audit(actor, 'rollback.self-review-refused', item.subject, { rollback: id, reason: 'the person who rolled back cannot review their own rollback' })
      return fail('SELF_APPROVAL')
    }
    const at = this.now()
    const done = await auditedTransaction(this.data, async (audit) => this.markReviewed(audit, item, actor, comment, at))
    return done ? { ok: true, value: (await this.item(id))! } : fail('INVALID_STATE', { state: (await this.item(id))?.state })
  }

  private async markReviewed(audit: AuditScope, item: RollbackItem, actor: string, comment: string, at: number): Promise<boolean> {
    const updated = await audit.tx.updateTable('store_rollbacks').set({ state: 'reviewed', decided_by: actor, decided_at: at }).where('id', '=', item.id).where('state', '=', 'review-pending').executeTakeFirst()
    if (Number(updated.numUpdatedRows) !== 1) return false
    await appendAudit(audit, at, actor, 'rollback.reviewed', item.subject, { rollback: item.id, kind: item.kind, rolledBackBy: item.requestedBy, comment })
    return true
  }
}
