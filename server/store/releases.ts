/**
 * Releases: drafts of several documents (a flow, its popup and their texts) reviewed, approved and
 * published together. Why a release and not N versions: a punter must never see the flow without
 * its popup or its texts, so the versions go live in ONE transaction with ONE swap of the served
 * set (DocumentStore.goLiveTogether), and they are rolled back together in one action.
 *
 * Rules, whoever calls (the admin API adds roles on top):
 * - a release holds drafts of distinct files, all written by its author; while it is open its
 *   versions move only with it (the store refuses them one by one: IN_RELEASE);
 * - submit runs the lint gate of each version against the published set with the others in place;
 * - four-eyes: the approver is not the author; publishing needs that approval, again;
 * - a schedule is a wall-clock time in a zone; the scheduler (release-scheduler.ts) publishes an
 *   approved release once the server's clock reaches it;
 * - until it goes live its author may edit it (title, drafts in and out); an edit of a release in
 *   review or approved sends it back to review (the approval is cleared, the gate runs again);
 * - rollback is a new release of restoring versions, published at once, and the old one is marked;
 * - every step writes an audit entry in the same transaction.
 */
import type { Db } from '../db/database'
import { appendAudit, auditedTransaction } from './audit'
import type { GateFinding } from './lint-gate'
import type { DocumentStore, DocumentVersion, StoreResult } from './store'
import { zonedTimeToInstant } from './zoned-time'

export type ReleaseState = 'draft' | 'in_review' | 'approved' | 'rejected' | 'published' | 'withdrawn'

export interface Release {
  id: number
  title: string
  origin: 'operator' | 'rollback'
  state: ReleaseState
  author: string
  createdAt: number
  updatedAt: number
  reviewedBy: string | null
  reviewedAt: number | null
  reviewComment: string | null
  /** When it goes live (ms), and the wall-clock time and zone the operator gave. */
  schedule: { at: number; local: string; zone: string; by: string } | null
  publishedBy: string | null
  publishedAt: number | null
  rollbackOf: number | null
  rolledBackBy: number | null
  lint: GateFinding[] | null
  versionIds: number[]
}

export interface ReleaseComment {
  id: number
  releaseId: number
  versionId: number
  /** Where on the diff: a finding's location or a JSON pointer. */
  location: string
  author: string
  body: string
  createdAt: number
}

type Row = Record<string, unknown>

const same = (a: string | null | undefined, b: string | null | undefined) => !!a && !!b && a.toLowerCase() === b.toLowerCase()
const fail = <T>(code: string, details?: unknown): StoreResult<T> => ({ ok: false, code: code as never, details })
const MAX_ITEMS = 20
/** A release can be edited until it goes live (or is withdrawn). */
const EDITABLE: ReleaseState[] = ['draft', 'rejected', 'in_review', 'approved']

export class ReleaseBook {
  constructor(
    private readonly db: Db,
    private readonly store: DocumentStore,
    private readonly now: () => number,
  ) {}

  // ---- reading -------------------------------------------------------------------------------

  release(id: number): Release | undefined {
    const row = this.db.prepare('SELECT * FROM store_releases WHERE id = ?').get(id) as Row | undefined
    return row && this.toRelease(row)
  }

  releases(filter: { state?: ReleaseState } = {}): Release[] {
    const rows = (filter.state
      ? this.db.prepare('SELECT * FROM store_releases WHERE state = ? ORDER BY id DESC LIMIT 200').all(filter.state)
      : this.db.prepare('SELECT * FROM store_releases ORDER BY id DESC LIMIT 200').all()) as Row[]
    return rows.map((r) => this.toRelease(r))
  }

  versionsOf(release: Release): DocumentVersion[] {
    return release.versionIds.map((id) => this.store.version(id)!).filter(Boolean)
  }

  comments(releaseId: number): ReleaseComment[] {
    return (this.db.prepare('SELECT * FROM store_release_comments WHERE release_id = ? ORDER BY id').all(releaseId) as Row[]).map((r) => ({
      id: Number(r.id),
      releaseId: Number(r.release_id),
      versionId: Number(r.version_id),
      location: String(r.location),
      author: String(r.author),
      body: String(r.body),
      createdAt: Number(r.created_at),
    }))
  }

  /** Approved releases whose time has come, oldest schedule first. */
  due(): Release[] {
    const rows = this.db.prepare("SELECT * FROM store_releases WHERE state = 'approved' AND scheduled_at IS NOT NULL AND scheduled_at <= ? ORDER BY scheduled_at, id").all(this.now()) as Row[]
    return rows.map((r) => this.toRelease(r))
  }

  // ---- the workflow --------------------------------------------------------------------------

  create(actor: string, title: string, versionIds: number[]): StoreResult<Release> {
    const ids = [...new Set(versionIds)]
    if (ids.length === 0 || ids.length > MAX_ITEMS) return fail('INVALID_STATE', { field: 'versions', code: 'count' })
    const versions = ids.map((id) => this.store.version(id))
    const missing = ids.filter((_, i) => !versions[i])
    if (missing.length > 0) return fail('NOT_FOUND', { versions: missing })
    const problem = this.itemProblem(actor, versions as DocumentVersion[])
    if (problem) return problem
    const at = this.now()
    const id = auditedTransaction(this.db, () => {
      const id = Number(
        this.db.prepare("INSERT INTO store_releases (title, origin, state, author, created_at, updated_at) VALUES (?, 'operator', 'draft', ?, ?, ?)").run(title, actor, at, at).lastInsertRowid,
      )
      for (const v of ids) this.db.prepare('INSERT INTO store_release_items (release_id, version_id) VALUES (?, ?)').run(id, v)
      appendAudit(this.db, at, actor, 'release.created', `release/${id}`, { release: id, title, versions: ids, files: (versions as DocumentVersion[]).map((v) => v.file) })
      return id
    })
    return { ok: true, value: this.release(id)! }
  }

  /** Why these versions cannot form a release, or undefined. */
  private itemProblem(actor: string, versions: DocumentVersion[]): StoreResult<Release> | undefined {
    const notMine = versions.filter((v) => !same(v.author, actor))
    if (notMine.length > 0) return fail('NOT_AUTHOR', { versions: notMine.map((v) => v.id) })
    const notDraft = versions.filter((v) => v.state !== 'draft' && v.state !== 'rejected')
    if (notDraft.length > 0) return fail('INVALID_STATE', { versions: notDraft.map((v) => ({ id: v.id, state: v.state })) })
    const files = versions.map((v) => v.file)
    const twice = files.filter((f, i) => files.indexOf(f) !== i)
    if (twice.length > 0) return fail('INVALID_STATE', { duplicateFiles: [...new Set(twice)] })
    const held = versions.filter((v) => this.store.releaseHolding(v.id) !== undefined)
    if (held.length > 0) return fail('IN_RELEASE', { versions: held.map((v) => ({ id: v.id, release: this.store.releaseHolding(v.id) })) })
    return undefined
  }

  /**
   * Edits a release that is not live yet (its author only): a new title, drafts added, drafts
   * removed (removals first, so a newer draft of a file can replace the older one in one call).
   * A removed draft is the author's own draft again. A release in review or approved goes back to
   * review: the approval is cleared, the lint gate runs again over the new set, and it waits for a
   * second person once more (if the gate finds errors, it is a draft again to fix and resubmit).
   */
  async edit(actor: string, id: number, change: { title?: string; add?: number[]; remove?: number[] }): Promise<StoreResult<Release>> {
    const release = this.release(id)
    if (!release) return fail('NOT_FOUND')
    if (!same(release.author, actor)) return fail('NOT_AUTHOR')
    if (!EDITABLE.includes(release.state)) return fail('INVALID_STATE', { state: release.state })
    const remove = [...new Set(change.remove ?? [])]
    const notIn = remove.filter((v) => !release.versionIds.includes(v))
    if (notIn.length > 0) return fail('NOT_FOUND', { field: 'remove', versions: notIn })
    const add = [...new Set(change.add ?? [])].filter((v) => !release.versionIds.includes(v) || remove.includes(v))
    const added = add.map((v) => this.store.version(v))
    const missing = add.filter((_, i) => !added[i])
    if (missing.length > 0) return fail('NOT_FOUND', { field: 'add', versions: missing })
    const kept = release.versionIds.filter((v) => !remove.includes(v))
    const next = [...new Set([...kept, ...add])]
    if (next.length === 0 || next.length > MAX_ITEMS) return fail('INVALID_STATE', { field: 'versions', code: 'count' })
    const problem = this.addProblem(actor, id, added as DocumentVersion[], kept)
    if (problem) return problem
    const title = change.title ?? release.title
    const backToReview = release.state === 'in_review' || release.state === 'approved'
    const findings = backToReview ? await this.store.checkTogether(next.map((v) => this.store.version(v)!)) : null
    const errors = (findings ?? []).filter((f) => f.severity === 'error')
    const state: ReleaseState = !backToReview ? release.state : errors.length > 0 ? 'draft' : 'in_review'
    const at = this.now()
    const done = auditedTransaction(this.db, () => {
      if (this.release(id)?.state !== release.state) return false
      for (const v of remove) this.db.prepare('DELETE FROM store_release_items WHERE release_id = ? AND version_id = ?').run(id, v)
      for (const v of add) this.db.prepare('INSERT OR IGNORE INTO store_release_items (release_id, version_id) VALUES (?, ?)').run(id, v)
      this.store.setStates(remove.filter((v) => !add.includes(v)), 'draft')
      if (backToReview) {
        this.db
          .prepare('UPDATE store_releases SET title = ?, state = ?, reviewed_by = NULL, reviewed_at = NULL, review_comment = NULL, lint = ?, updated_at = ? WHERE id = ?')
          .run(title, state, JSON.stringify(findings), at, id)
        this.store.setStates(next, state === 'in_review' ? 'in_review' : 'draft')
      } else this.db.prepare('UPDATE store_releases SET title = ?, updated_at = ? WHERE id = ?').run(title, at, id)
      appendAudit(this.db, at, actor, 'release.edited', `release/${id}`, {
        release: id,
        ...(change.title !== undefined && change.title !== release.title ? { title: { from: release.title, to: title } } : {}),
        added: add,
        removed: remove,
        files: next.map((v) => this.store.version(v)!.file),
        from: release.state,
        state,
        ...(backToReview ? { approvalCleared: release.state === 'approved', errors: errors.length } : {}),
      })
      return true
    })
    if (!done) return fail('INVALID_STATE', { state: this.release(id)?.state })
    return { ok: true, value: this.release(id)! }
  }

  /** Why these versions cannot join release `id` beside `kept`, or undefined. */
  private addProblem(actor: string, id: number, added: DocumentVersion[], kept: number[]): StoreResult<Release> | undefined {
    const notMine = added.filter((v) => !same(v.author, actor))
    if (notMine.length > 0) return fail('NOT_AUTHOR', { versions: notMine.map((v) => v.id) })
    const notDraft = added.filter((v) => v.state !== 'draft' && v.state !== 'rejected' && this.store.releaseHolding(v.id) !== id)
    if (notDraft.length > 0) return fail('INVALID_STATE', { versions: notDraft.map((v) => ({ id: v.id, state: v.state })) })
    const files = [...kept.map((v) => this.store.version(v)!.file), ...added.map((v) => v.file)]
    const twice = files.filter((f, i) => files.indexOf(f) !== i)
    if (twice.length > 0) return fail('INVALID_STATE', { duplicateFiles: [...new Set(twice)] })
    const held = added.filter((v) => (this.store.releaseHolding(v.id) ?? id) !== id)
    if (held.length > 0) return fail('IN_RELEASE', { versions: held.map((v) => ({ id: v.id, release: this.store.releaseHolding(v.id) })) })
    return undefined
  }

  async submit(actor: string, id: number): Promise<StoreResult<Release>> {
    const release = this.release(id)
    if (!release) return fail('NOT_FOUND')
    if (!same(release.author, actor)) return fail('NOT_AUTHOR')
    if (release.state !== 'draft' && release.state !== 'rejected') return fail('INVALID_STATE', { state: release.state })
    const versions = this.versionsOf(release)
    const notDraft = versions.filter((v) => v.state !== 'draft' && v.state !== 'rejected')
    if (notDraft.length > 0) return fail('INVALID_STATE', { versions: notDraft.map((v) => ({ id: v.id, state: v.state })) })
    const findings = await this.store.checkTogether(versions)
    const errors = findings.filter((f) => f.severity === 'error')
    const at = this.now()
    auditedTransaction(this.db, () => {
      this.db.prepare('UPDATE store_releases SET lint = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(findings), at, id)
      if (errors.length > 0) return appendAudit(this.db, at, actor, 'release.lint-refused', `release/${id}`, { release: id, errors: errors.length, rules: [...new Set(errors.map((e) => e.rule))] })
      this.db.prepare("UPDATE store_releases SET state = 'in_review', reviewed_by = NULL, reviewed_at = NULL WHERE id = ?").run(id)
      this.store.setStates(release.versionIds, 'in_review')
      appendAudit(this.db, at, actor, 'release.submitted', `release/${id}`, { release: id, versions: release.versionIds, warnings: findings.length })
    })
    if (errors.length > 0) return fail('LINT_FAILED', errors)
    return { ok: true, value: this.release(id)! }
  }

  async approve(reviewer: string, id: number, comment: string): Promise<StoreResult<Release>> {
    const release = this.release(id)
    if (!release) return fail('NOT_FOUND')
    if (same(release.author, reviewer)) {
      this.store.audit(reviewer, 'release.self-approval-refused', `release/${id}`, { release: id })
      return fail('SELF_APPROVAL')
    }
    if (release.state !== 'in_review') return fail('INVALID_STATE', { state: release.state })
    // The published set may have moved since the submit: the gate runs again.
    const errors = (await this.store.checkTogether(this.versionsOf(release))).filter((f) => f.severity === 'error')
    if (errors.length > 0) return fail('LINT_FAILED', errors)
    const at = this.now()
    const approved = auditedTransaction(this.db, () => {
      if (this.release(id)?.state !== 'in_review') return false
      this.db.prepare("UPDATE store_releases SET state = 'approved', reviewed_by = ?, reviewed_at = ?, review_comment = ?, updated_at = ? WHERE id = ?").run(reviewer, at, comment, at, id)
      this.store.setStates(release.versionIds, 'approved', { by: reviewer, comment })
      const fingerprints = this.versionsOf(release).flatMap((v) => this.store.diff(v).map((f) => f.fingerprint))
      appendAudit(this.db, at, reviewer, 'release.approved', `release/${id}`, { release: id, author: release.author, comment, versions: release.versionIds, fingerprints })
      return true
    })
    if (!approved) return fail('INVALID_STATE', { state: this.release(id)?.state })
    return { ok: true, value: this.release(id)! }
  }

  reject(reviewer: string, id: number, comment: string): StoreResult<Release> {
    const release = this.release(id)
    if (!release) return fail('NOT_FOUND')
    if (same(release.author, reviewer)) return fail('SELF_APPROVAL')
    if (release.state !== 'in_review' && release.state !== 'approved') return fail('INVALID_STATE', { state: release.state })
    const at = this.now()
    auditedTransaction(this.db, () => {
      this.db.prepare("UPDATE store_releases SET state = 'rejected', reviewed_by = ?, reviewed_at = ?, review_comment = ?, updated_at = ? WHERE id = ?").run(reviewer, at, comment, at, id)
      this.store.setStates(release.versionIds, 'rejected', { by: reviewer, comment })
      appendAudit(this.db, at, reviewer, 'release.rejected', `release/${id}`, { release: id, author: release.author, comment })
    })
    return { ok: true, value: this.release(id)! }
  }

  withdraw(actor: string, id: number): StoreResult<Release> {
    const release = this.release(id)
    if (!release) return fail('NOT_FOUND')
    if (!same(release.author, actor)) return fail('NOT_AUTHOR')
    if (!['draft', 'in_review', 'approved', 'rejected'].includes(release.state)) return fail('INVALID_STATE', { state: release.state })
    const at = this.now()
    auditedTransaction(this.db, () => {
      this.db.prepare("UPDATE store_releases SET state = 'withdrawn', scheduled_at = NULL, updated_at = ? WHERE id = ?").run(at, id)
      // Its versions are drafts again: the author may edit them or put them in another release.
      this.store.setStates(release.versionIds, 'draft')
      appendAudit(this.db, at, actor, 'release.withdrawn', `release/${id}`, { release: id })
    })
    return { ok: true, value: this.release(id)! }
  }

  /** Schedules (or, with `local` null, unschedules) a release; the time must be in the future. */
  schedule(actor: string, id: number, local: string | null, zone: string | null): StoreResult<Release> {
    const release = this.release(id)
    if (!release) return fail('NOT_FOUND')
    if (!['draft', 'in_review', 'approved'].includes(release.state)) return fail('INVALID_STATE', { state: release.state })
    const at = this.now()
    if (local === null || zone === null) {
      auditedTransaction(this.db, () => {
        this.db.prepare('UPDATE store_releases SET scheduled_at = NULL, schedule_local = NULL, schedule_zone = NULL, scheduled_by = NULL, updated_at = ? WHERE id = ?').run(at, id)
        appendAudit(this.db, at, actor, 'release.unscheduled', `release/${id}`, { release: id })
      })
      return { ok: true, value: this.release(id)! }
    }
    const instant = zonedTimeToInstant(local, zone)
    if (instant === undefined) return fail('INVALID_SCHEDULE', { field: 'at', code: 'format' })
    if (instant <= at) return fail('SCHEDULE_IN_PAST', { at: new Date(instant).toISOString(), now: new Date(at).toISOString() })
    auditedTransaction(this.db, () => {
      this.db.prepare('UPDATE store_releases SET scheduled_at = ?, schedule_local = ?, schedule_zone = ?, scheduled_by = ?, updated_at = ? WHERE id = ?').run(instant, local, zone, actor, at, id)
      appendAudit(this.db, at, actor, 'release.scheduled', `release/${id}`, { release: id, at: instant, local, zone })
    })
    return { ok: true, value: this.release(id)! }
  }

  /** Publishes an approved release now: its versions go live together or not at all. */
  async publish(actor: string, id: number, how: 'now' | 'schedule' = 'now'): Promise<StoreResult<Release>> {
    const release = this.release(id)
    if (!release) return fail('NOT_FOUND')
    if (release.state !== 'approved') return fail('NOT_APPROVED', { state: release.state })
    // Four-eyes, again at the last step.
    if (!release.reviewedBy || same(release.reviewedBy, release.author)) return fail('SELF_APPROVAL')
    const versions = this.versionsOf(release)
    const errors = (await this.store.checkTogether(versions)).filter((f) => f.severity === 'error')
    if (errors.length > 0) {
      this.store.audit(actor, 'release.publish-lint-refused', `release/${id}`, { release: id, rules: [...new Set(errors.map((e) => e.rule))] })
      return fail('LINT_FAILED', errors)
    }
    const at = this.now()
    const result = this.store.goLiveTogether(actor, versions, { release: id, approvedBy: release.reviewedBy }, () => {
      if (this.release(id)?.state !== 'approved') throw Object.assign(new Error('stale'), { stale: [] })
      this.db.prepare("UPDATE store_releases SET state = 'published', published_by = ?, published_at = ?, updated_at = ? WHERE id = ?").run(actor, at, at, id)
      appendAudit(this.db, at, actor, 'release.published', `release/${id}`, {
        release: id,
        how,
        author: release.author,
        approvedBy: release.reviewedBy,
        versions: release.versionIds,
        ...(release.schedule ? { scheduledAt: release.schedule.at, local: release.schedule.local, zone: release.schedule.zone } : {}),
      })
    })
    if (!result.ok) return result as StoreResult<never>
    return { ok: true, value: this.release(id)! }
  }

  /**
   * Rolls a published release back in one action: a new release of versions restoring what each
   * file had before (a file the release added is removed), published at once. Every file must
   * still have the release's version (a later change is rolled back on its own first).
   */
  async rollback(actor: string, id: number): Promise<StoreResult<Release>> {
    const release = this.release(id)
    if (!release) return fail('NOT_FOUND')
    if (release.state !== 'published') return fail('INVALID_STATE', { state: release.state })
    if (release.rolledBackBy !== null) return fail('NOTHING_CHANGED', { rolledBackBy: release.rolledBackBy })
    const versions = this.versionsOf(release)
    const moved = versions.filter((v) => this.store.publishedVersionOf(v.file)?.id !== v.id && !(v.deleted && !this.store.publishedVersionOf(v.file)))
    if (moved.length > 0) return fail('STALE_DRAFT', { files: moved.map((v) => v.file), reason: 'changed after this release' })
    const restoring = versions.map((v) => ({ from: v, to: v.baseVersion === null ? undefined : this.store.version(v.baseVersion) }))
    // What the set will be, checked before anything is written.
    const planned = restoring.map(({ from, to }) => ({ ...from, id: 0, content: to?.content ?? '', deleted: !to || to.deleted, baseVersion: from.deleted ? from.baseVersion : from.id }))
    const errors = (await this.store.checkTogether(planned)).filter((f) => f.severity === 'error')
    if (errors.length > 0) return fail('LINT_FAILED', errors)
    const at = this.now()
    let newId = 0
    try {
      newId = auditedTransaction(this.db, () => {
        const rid = Number(
          this.db
            .prepare("INSERT INTO store_releases (title, origin, state, author, created_at, updated_at, reviewed_by, rollback_of) VALUES (?, 'rollback', 'approved', ?, ?, ?, NULL, ?)")
            .run(`Rollback of release ${id}: ${release.title}`.slice(0, 200), actor, at, at, id).lastInsertRowid,
        )
        const current = restoring.map(({ from }) => this.store.publishedVersionOf(from.file))
        const ids = planned.map((p, i) => this.store.insertRestoringVersion(actor, p.file, p.content, p.deleted, current[i]?.id ?? null))
        for (const vid of ids) this.db.prepare('INSERT INTO store_release_items (release_id, version_id) VALUES (?, ?)').run(rid, vid)
        const result = this.store.goLiveTogether(actor, ids.map((vid) => this.store.version(vid)!), { release: rid, rollbackOf: id }, () => {
          this.db.prepare("UPDATE store_releases SET state = 'published', published_by = ?, published_at = ?, updated_at = ? WHERE id = ?").run(actor, at, at, rid)
          this.db.prepare('UPDATE store_releases SET rolled_back_by = ?, updated_at = ? WHERE id = ?').run(rid, at, id)
          appendAudit(this.db, at, actor, 'release.rolled-back', `release/${id}`, { release: id, rollback: rid, versions: ids, restored: restoring.map(({ to }) => to?.id ?? null) })
        })
        if (!result.ok) throw Object.assign(new Error('rollback refused'), { result })
        return rid
      })
    } catch (error) {
      const result = (error as { result?: StoreResult<never> }).result
      if (result) return result
      throw error
    }
    return { ok: true, value: this.release(newId)! }
  }

  comment(actor: string, id: number, versionId: number, location: string, body: string): StoreResult<ReleaseComment> {
    const release = this.release(id)
    if (!release) return fail('NOT_FOUND')
    if (!release.versionIds.includes(versionId)) return fail('NOT_FOUND', { field: 'version' })
    const at = this.now()
    const cid = auditedTransaction(this.db, () => {
      const cid = Number(
        this.db.prepare('INSERT INTO store_release_comments (release_id, version_id, location, author, body, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(id, versionId, location, actor, body, at).lastInsertRowid,
      )
      appendAudit(this.db, at, actor, 'release.commented', `release/${id}`, { release: id, version: versionId, location, comment: cid })
      return cid
    })
    return { ok: true, value: this.comments(id).find((c) => c.id === cid)! }
  }

  // ---- internals ------------------------------------------------------------------------------

  private toRelease(r: Row): Release {
    const versionIds = (this.db.prepare('SELECT version_id FROM store_release_items WHERE release_id = ? ORDER BY version_id').all(r.id) as { version_id: number }[]).map((x) => x.version_id)
    return {
      id: Number(r.id),
      title: String(r.title),
      origin: r.origin as Release['origin'],
      state: r.state as ReleaseState,
      author: String(r.author),
      createdAt: Number(r.created_at),
      updatedAt: Number(r.updated_at),
      reviewedBy: (r.reviewed_by as string | null) ?? null,
      reviewedAt: (r.reviewed_at as number | null) ?? null,
      reviewComment: (r.review_comment as string | null) ?? null,
      schedule: r.scheduled_at === null ? null : { at: Number(r.scheduled_at), local: String(r.schedule_local), zone: String(r.schedule_zone), by: String(r.scheduled_by) },
      publishedBy: (r.published_by as string | null) ?? null,
      publishedAt: (r.published_at as number | null) ?? null,
      rollbackOf: (r.rollback_of as number | null) ?? null,
      rolledBackBy: (r.rolled_back_by as number | null) ?? null,
      lint: r.lint ? (JSON.parse(String(r.lint)) as GateFinding[]) : null,
      versionIds,
    }
  }
}

const books = new WeakMap<DocumentStore, ReleaseBook>()

/** The release book of a store (one per running server; tests reach it through the server's deps). */
export function releaseBookOf(store: DocumentStore, db: Db, now: () => number): ReleaseBook {
  let book = books.get(store)
  if (!book) books.set(store, (book = new ReleaseBook(db, store, now)))
  return book
}
