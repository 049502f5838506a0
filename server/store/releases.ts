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
 * - every step writes an audit entry in the same transaction (serialised on 'audit', so a state
 *   checked inside it holds across instances).
 *
 * Its tables are the documents store's (declared in ./store.ts), on the query layer (issue 16).
 */
import type { Selectable } from 'kysely'
import type { DataLayer } from '../db/data-layer'
import { appendAudit, auditedTransaction, type AuditScope } from './audit'
import type { GateFinding } from './lint-gate'
import type { BookStore, DocumentVersion, Executor, ReleaseTable, StoreResult } from './types'
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

type Row = Selectable<ReleaseTable>

const same = (a: string | null | undefined, b: string | null | undefined) => !!a && !!b && a.toLowerCase() === b.toLowerCase()
const fail = <T>(code: string, details?: unknown): StoreResult<T> => ({ ok: false, code: code as never, details })
const MAX_ITEMS = 20
/** A release can be edited until it goes live (or is withdrawn). */
const EDITABLE: ReleaseState[] = ['draft', 'rejected', 'in_review', 'approved']

export class ReleaseBook {
  constructor(
    private readonly data: DataLayer,
    private readonly store: BookStore,
    private readonly now: () => number,
  ) {}

  // ---- reading -------------------------------------------------------------------------------

  async release(id: number, tx: Executor = this.data.db): Promise<Release | undefined> {
    if (!Number.isSafeInteger(id)) return undefined
    const row = await tx.selectFrom('store_releases').selectAll().where('id', '=', id).executeTakeFirst()
    return row && this.toRelease(row, tx)
  }

  async releases(filter: { state?: ReleaseState } = {}): Promise<Release[]> {
    const rows = await this.data.db
      .selectFrom('store_releases')
      .selectAll()
      .$if(!!filter.state, (q) => q.where('state', '=', filter.state!))
      .orderBy('id', 'desc')
      .limit(200)
      .execute()
    return Promise.all(rows.map((r) => this.toRelease(r)))
  }

  async versionsOf(release: Release, tx: Executor = this.data.db): Promise<DocumentVersion[]> {
    const versions = await Promise.all(release.versionIds.map((id) => this.store.version(id, tx)))
    return versions.filter((v): v is DocumentVersion => !!v)
  }

  async comments(releaseId: number): Promise<ReleaseComment[]> {
    const rows = await this.data.db.selectFrom('store_release_comments').selectAll().where('release_id', '=', releaseId).orderBy('id').execute()
    return rows.map((r) => ({
      id: r.id,
      releaseId: r.release_id,
      versionId: r.version_id,
      location: r.location,
      author: r.author,
      body: r.body,
      createdAt: r.created_at,
    }))
  }

  /** Approved releases whose time has come, oldest schedule first. */
  async due(): Promise<Release[]> {
    const rows = await this.data.db
      .selectFrom('store_releases')
      .selectAll()
      .where('state', '=', 'approved')
      .where('scheduled_at', 'is not', null)
      .where('scheduled_at', '<=', this.now())
      .orderBy('scheduled_at')
      .orderBy('id')
      .execute()
    return Promise.all(rows.map((r) => this.toRelease(r)))
  }

  // ---- the workflow --------------------------------------------------------------------------

  async create(actor: string, title: string, versionIds: number[]): Promise<StoreResult<Release>> {
    const ids = [...new Set(versionIds)]
    if (ids.length === 0 || ids.length > MAX_ITEMS) return fail('INVALID_STATE', { field: 'versions', code: 'count' })
    const versions = await Promise.all(ids.map((id) => this.store.version(id)))
    const missing = ids.filter((_, i) => !versions[i])
    if (missing.length > 0) return fail('NOT_FOUND', { versions: missing })
    const problem = await this.itemProblem(actor, versions as DocumentVersion[])
    if (problem) return problem
    const at = this.now()
    const id = await auditedTransaction(this.data, async (audit) => {
      const { id } = await audit.tx
        .insertInto('store_releases')
        .values({ title, origin: 'operator', state: 'draft', author: actor, created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow()
      for (const v of ids) await audit.tx.insertInto('store_release_items').values({ release_id: id, version_id: v }).execute()
      await appendAudit(audit, at, actor, 'release.created', `release/${id}`, { release: id, title, versions: ids, files: (versions as DocumentVersion[]).map((v) => v.file) })
      return id
    })
    return { ok: true, value: (await this.release(id))! }
  }

  /** Why these versions cannot form a release, or undefined. */
  private async itemProblem(actor: string, versions: DocumentVersion[]): Promise<StoreResult<Release> | undefined> {
    const notMine = versions.filter((v) => !same(v.author, actor))
    if (notMine.length > 0) return fail('NOT_AUTHOR', { versions: notMine.map((v) => v.id) })
    const notDraft = versions.filter((v) => v.state !== 'draft' && v.state !== 'rejected')
    if (notDraft.length > 0) return fail('INVALID_STATE', { versions: notDraft.map((v) => ({ id: v.id, state: v.state })) })
    const files = versions.map((v) => v.file)
    const twice = files.filter((f, i) => files.indexOf(f) !== i)
    if (twice.length > 0) return fail('INVALID_STATE', { duplicateFiles: [...new Set(twice)] })
    const holding = await Promise.all(versions.map((v) => this.store.releaseHolding(v.id)))
    const held = versions.map((v, i) => ({ id: v.id, release: holding[i] })).filter((h) => h.release !== undefined)
    if (held.length > 0) return fail('IN_RELEASE', { versions: held })
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
    const release = await this.release(id)
    if (!release) return fail('NOT_FOUND')
    if (!same(release.author, actor)) return fail('NOT_AUTHOR')
    if (!EDITABLE.includes(release.state)) return fail('INVALID_STATE', { state: release.state })
    const remove = [...new Set(change.remove ?? [])]
    const notIn = remove.filter((v) => !release.versionIds.includes(v))
    if (notIn.length > 0) return fail('NOT_FOUND', { field: 'remove', versions: notIn })
    const add = [...new Set(change.add ?? [])].filter((v) => !release.versionIds.includes(v) || remove.includes(v))
    const added = await Promise.all(add.map((v) => this.store.version(v)))
    const missing = add.filter((_, i) => !added[i])
    if (missing.length > 0) return fail('NOT_FOUND', { field: 'add', versions: missing })
    const kept = release.versionIds.filter((v) => !remove.includes(v))
    const next = [...new Set([...kept, ...add])]
    if (next.length === 0 || next.length > MAX_ITEMS) return fail('INVALID_STATE', { field: 'versions', code: 'count' })
    const problem = await this.addProblem(actor, id, added as DocumentVersion[], kept)
    if (problem) return problem
    const title = change.title ?? release.title
    const backToReview = release.state === 'in_review' || release.state === 'approved'
    const nextVersions = await Promise.all(next.map(async (v) => (await this.store.version(v))!))
    const findings = backToReview ? await this.store.checkTogether(nextVersions) : null
    const errors = (findings ?? []).filter((f) => f.severity === 'error')
    const state: ReleaseState = !backToReview ? release.state : errors.length > 0 ? 'draft' : 'in_review'
    const at = this.now()
    const done = await auditedTransaction(this.data, async (audit) => {
      const tx = audit.tx
      if ((await this.release(id, tx))?.state !== release.state) return false
      for (const v of remove) await tx.deleteFrom('store_release_items').where('release_id', '=', id).where('version_id', '=', v).execute()
      for (const v of add) await tx.insertInto('store_release_items').values({ release_id: id, version_id: v }).onConflict((oc) => oc.doNothing()).execute()
      await this.store.setStates(tx, remove.filter((v) => !add.includes(v)), 'draft')
      if (backToReview) {
        await tx
          .updateTable('store_releases')
          .set({ title, state, reviewed_by: null, reviewed_at: null, review_comment: null, lint: JSON.stringify(findings), updated_at: at })
          .where('id', '=', id)
          .execute()
        await this.store.setStates(tx, next, state === 'in_review' ? 'in_review' : 'draft')
      } else await tx.updateTable('store_releases').set({ title, updated_at: at }).where('id', '=', id).execute()
      await appendAudit(audit, at, actor, 'release.edited', `release/${id}`, {
        release: id,
        ...(change.title !== undefined && change.title !== release.title ? { title: { from: release.title, to: title } } : {}),
        added: add,
        removed: remove,
        files: nextVersions.map((v) => v.file),
        from: release.state,
        state,
        ...(backToReview ? { approvalCleared: release.state === 'approved', errors: errors.length } : {}),
      })
      return true
    })
    if (!done) return fail('INVALID_STATE', { state: (await this.release(id))?.state })
    return { ok: true, value: (await this.release(id))! }
  }

  /** Why these versions cannot join release `id` beside `kept`, or undefined. */
  private async addProblem(actor: string, id: number, added: DocumentVersion[], kept: number[]): Promise<StoreResult<Release> | undefined> {
    const notMine = added.filter((v) => !same(v.author, actor))
    if (notMine.length > 0) return fail('NOT_AUTHOR', { versions: notMine.map((v) => v.id) })
    const holding = await Promise.all(added.map((v) => this.store.releaseHolding(v.id)))
    const notDraft = added.filter((v, i) => v.state !== 'draft' && v.state !== 'rejected' && holding[i] !== id)
    if (notDraft.length > 0) return fail('INVALID_STATE', { versions: notDraft.map((v) => ({ id: v.id, state: v.state })) })
    const keptFiles = await Promise.all(kept.map(async (v) => (await this.store.version(v))!.file))
    const files = [...keptFiles, ...added.map((v) => v.file)]
    const twice = files.filter((f, i) => files.indexOf(f) !== i)
    if (twice.length > 0) return fail('INVALID_STATE', { duplicateFiles: [...new Set(twice)] })
    const held = added.map((v, i) => ({ id: v.id, release: holding[i] })).filter((h) => (h.release ?? id) !== id)
    if (held.length > 0) return fail('IN_RELEASE', { versions: held })
    return undefined
  }

  async submit(actor: string, id: number): Promise<StoreResult<Release>> {
    const release = await this.release(id)
    if (!release) return fail('NOT_FOUND')
    if (!same(release.author, actor)) return fail('NOT_AUTHOR')
    if (release.state !== 'draft' && release.state !== 'rejected') return fail('INVALID_STATE', { state: release.state })
    const versions = await this.versionsOf(release)
    const notDraft = versions.filter((v) => v.state !== 'draft' && v.state !== 'rejected')
    if (notDraft.length > 0) return fail('INVALID_STATE', { versions: notDraft.map((v) => ({ id: v.id, state: v.state })) })
    const findings = await this.store.checkTogether(versions)
    const errors = findings.filter((f) => f.severity === 'error')
    const at = this.now()
    await auditedTransaction(this.data, async (audit) => {
      const tx = audit.tx
      await tx.updateTable('store_releases').set({ lint: JSON.stringify(findings), updated_at: at }).where('id', '=', id).execute()
      if (errors.length > 0) return void (await appendAudit(audit, at, actor, 'release.lint-refused', `release/${id}`, { release: id, errors: errors.length, rules: [...new Set(errors.map((e) => e.rule))] }))
      await tx.updateTable('store_releases').set({ state: 'in_review', reviewed_by: null, reviewed_at: null }).where('id', '=', id).execute()
      await this.store.setStates(tx, release.versionIds, 'in_review')
      await appendAudit(audit, at, actor, 'release.submitted', `release/${id}`, { release: id, versions: release.versionIds, warnings: findings.length })
    })
    if (errors.length > 0) return fail('LINT_FAILED', errors)
    return { ok: true, value: (await this.release(id))! }
  }

  async approve(reviewer: string, id: number, comment: string): Promise<StoreResult<Release>> {
    const release = await this.release(id)
    if (!release) return fail('NOT_FOUND')
    if (same(release.author, reviewer)) {
      await this.store.audit(reviewer, 'release.self-approval-refused', `release/${id}`, { release: id })
      return fail('SELF_APPROVAL')
    }
    if (release.state !== 'in_review') return fail('INVALID_STATE', { state: release.state })
    // The published set may have moved since the submit: the gate runs again.
    const errors = (await this.store.checkTogether(await this.versionsOf(release))).filter((f) => f.severity === 'error')
    if (errors.length > 0) return fail('LINT_FAILED', errors)
    const at = this.now()
    const approved = await auditedTransaction(this.data, async (audit) => {
      const tx = audit.tx
      if ((await this.release(id, tx))?.state !== 'in_review') return false
      await tx.updateTable('store_releases').set({ state: 'approved', reviewed_by: reviewer, reviewed_at: at, review_comment: comment, updated_at: at }).where('id', '=', id).execute()
      await this.store.setStates(tx, release.versionIds, 'approved', { by: reviewer, comment })
      const fingerprints: string[] = []
      for (const v of await this.versionsOf(release, tx)) for (const f of await this.store.diff(v, tx)) fingerprints.push(f.fingerprint)
      await appendAudit(audit, at, reviewer, 'release.approved', `release/${id}`, { release: id, author: release.author, comment, versions: release.versionIds, fingerprints })
      return true
    })
    if (!approved) return fail('INVALID_STATE', { state: (await this.release(id))?.state })
    return { ok: true, value: (await this.release(id))! }
  }

  async reject(reviewer: string, id: number, comment: string): Promise<StoreResult<Release>> {
    const release = await this.release(id)
    if (!release) return fail('NOT_FOUND')
    if (same(release.author, reviewer)) return fail('SELF_APPROVAL')
    if (release.state !== 'in_review' && release.state !== 'approved') return fail('INVALID_STATE', { state: release.state })
    const at = this.now()
    await auditedTransaction(this.data, async (audit) => {
      await audit.tx.updateTable('store_releases').set({ state: 'rejected', reviewed_by: reviewer, reviewed_at: at, review_comment: comment, updated_at: at }).where('id', '=', id).execute()
      await this.store.setStates(audit.tx, release.versionIds, 'rejected', { by: reviewer, comment })
      await appendAudit(audit, at, reviewer, 'release.rejected', `release/${id}`, { release: id, author: release.author, comment })
    })
    return { ok: true, value: (await this.release(id))! }
  }

  async withdraw(actor: string, id: number): Promise<StoreResult<Release>> {
    const release = await this.release(id)
    if (!release) return fail('NOT_FOUND')
    if (!same(release.author, actor)) return fail('NOT_AUTHOR')
    if (!['draft', 'in_review', 'approved', 'rejected'].includes(release.state)) return fail('INVALID_STATE', { state: release.state })
    const at = this.now()
    await auditedTransaction(this.data, async (audit) => {
      await audit.tx.updateTable('store_releases').set({ state: 'withdrawn', scheduled_at: null, updated_at: at }).where('id', '=', id).execute()
      // Its versions are drafts again: the author may edit them or put them in another release.
      await this.store.setStates(audit.tx, release.versionIds, 'draft')
      await appendAudit(audit, at, actor, 'release.withdrawn', `release/${id}`, { release: id })
    })
    return { ok: true, value: (await this.release(id))! }
  }

  /** Schedules (or, with `local` null, unschedules) a release; the time must be in the future. */
  async schedule(actor: string, id: number, local: string | null, zone: string | null): Promise<StoreResult<Release>> {
    const release = await this.release(id)
    if (!release) return fail('NOT_FOUND')
    if (!['draft', 'in_review', 'approved'].includes(release.state)) return fail('INVALID_STATE', { state: release.state })
    const at = this.now()
    if (local === null || zone === null) {
      await auditedTransaction(this.data, async (audit) => {
        await audit.tx.updateTable('store_releases').set({ scheduled_at: null, schedule_local: null, schedule_zone: null, scheduled_by: null, updated_at: at }).where('id', '=', id).execute()
        await appendAudit(audit, at, actor, 'release.unscheduled', `release/${id}`, { release: id })
      })
      return { ok: true, value: (await this.release(id))! }
    }
    const instant = zonedTimeToInstant(local, zone)
    if (instant === undefined) return fail('INVALID_SCHEDULE', { field: 'at', code: 'format' })
    if (instant <= at) return fail('SCHEDULE_IN_PAST', { at: new Date(instant).toISOString(), now: new Date(at).toISOString() })
    await auditedTransaction(this.data, async (audit) => {
      await audit.tx.updateTable('store_releases').set({ scheduled_at: instant, schedule_local: local, schedule_zone: zone, scheduled_by: actor, updated_at: at }).where('id', '=', id).execute()
      await appendAudit(audit, at, actor, 'release.scheduled', `release/${id}`, { release: id, at: instant, local, zone })
    })
    return { ok: true, value: (await this.release(id))! }
  }

  /** Publishes an approved release now: its versions go live together or not at all. */
  async publish(actor: string, id: number, how: 'now' | 'schedule' = 'now'): Promise<StoreResult<Release>> {
    const release = await this.release(id)
    if (!release) return fail('NOT_FOUND')
    if (release.state !== 'approved') return fail('NOT_APPROVED', { state: release.state })
    // Four-eyes, again at the last step.
    if (!release.reviewedBy || same(release.reviewedBy, release.author)) return fail('SELF_APPROVAL')
    const versions = await this.versionsOf(release)
    const errors = (await this.store.checkTogether(versions)).filter((f) => f.severity === 'error')
    if (errors.length > 0) {
      await this.store.audit(actor, 'release.publish-lint-refused', `release/${id}`, { release: id, rules: [...new Set(errors.map((e) => e.rule))] })
      return fail('LINT_FAILED', errors)
    }
    const at = this.now()
    const result = await this.store.goLiveTogether(actor, versions, { release: id, approvedBy: release.reviewedBy }, async (audit) => {
      // checked under the audit lock: a second instance's scheduler publishing the same release finds it published
      if ((await this.release(id, audit.tx))?.state !== 'approved') throw Object.assign(new Error('stale'), { stale: [] })
      await audit.tx.updateTable('store_releases').set({ state: 'published', published_by: actor, published_at: at, updated_at: at }).where('id', '=', id).execute()
      await appendAudit(audit, at, actor, 'release.published', `release/${id}`, {
        release: id,
        how,
        author: release.author,
        approvedBy: release.reviewedBy,
        versions: release.versionIds,
        ...(release.schedule ? { scheduledAt: release.schedule.at, local: release.schedule.local, zone: release.schedule.zone } : {}),
      })
    })
    if (!result.ok) return result as StoreResult<never>
    this.store.announce({ subject: `release/${id}`, versions: result.value, author: release.author, approvedBy: release.reviewedBy, at })
    return { ok: true, value: (await this.release(id))! }
  }

  /**
   * Rolls a published release back in one action: a new release of versions restoring what each
   * file had before (a file the release added is removed), published at once. Every file must
   * still have the release's version (a later change is rolled back on its own first).
   */
  async rollback(actor: string, id: number, alongside?: (audit: AuditScope, rollbackRelease: number, at: number) => Promise<void>): Promise<StoreResult<Release>> {
    const ready = await this.rollbackable(id)
    if (!ready.ok) return ready
    const { release, versions } = ready.value
    const restoring = await Promise.all(versions.map(async (v) => ({ from: v, to: v.baseVersion === null ? undefined : await this.store.version(v.baseVersion) })))
    // What the set will be, checked before anything is written.
    const planned = restoring.map(({ from, to }) => ({ ...from, id: 0, origin: 'rollback' as const, content: to?.content ?? '', deleted: !to || to.deleted, baseVersion: from.deleted ? from.baseVersion : from.id }))
    const errors = (await this.store.checkTogether(planned)).filter((f) => f.severity === 'error')
    if (errors.length > 0) return fail('LINT_FAILED', errors)
    const at = this.now()
    let newId = 0
    try {
      newId = await auditedTransaction(this.data, async (audit) => {
        const tx = audit.tx
        const { id: rid } = await tx
          .insertInto('store_releases')
          .values({ title: `Rollback of release ${id}: ${release.title}`.slice(0, 200), origin: 'rollback', state: 'approved', author: actor, created_at: at, updated_at: at, reviewed_by: null, rollback_of: id })
          .returning('id')
          .executeTakeFirstOrThrow()
        const ids: number[] = []
        for (const p of planned) {
          const current = await this.store.publishedVersionOf(p.file, tx)
          ids.push(await this.store.insertRestoringVersion(tx, actor, p.file, p.content, p.deleted, current?.id ?? null))
        }
        for (const vid of ids) await tx.insertInto('store_release_items').values({ release_id: rid, version_id: vid }).execute()
        const restoringVersions = await Promise.all(ids.map(async (vid) => (await this.store.version(vid, tx))!))
        await this.store.goLiveTogether(
          actor,
          restoringVersions,
          { release: rid, rollbackOf: id },
          async (inner) => {
            await inner.tx.updateTable('store_releases').set({ state: 'published', published_by: actor, published_at: at, updated_at: at }).where('id', '=', rid).execute()
            await inner.tx.updateTable('store_releases').set({ rolled_back_by: rid, updated_at: at }).where('id', '=', id).execute()
            await appendAudit(inner, at, actor, 'release.rolled-back', `release/${id}`, { release: id, rollback: rid, versions: ids, restored: restoring.map(({ to }) => to?.id ?? null) })
            await alongside?.(inner, rid, at)
          },
          audit,
        )
        return rid
      })
    } catch (error) {
      const result = (error as { result?: StoreResult<never> }).result
      if (result) return result
      throw error
    }
    return { ok: true, value: (await this.release(newId))! }
  }

  /** Whether a release can be rolled back now (published, not rolled back, every file still at its version): asked before a rollback request is recorded. */
  async rollbackable(id: number): Promise<StoreResult<{ release: Release; versions: DocumentVersion[] }>> {
    const release = await this.release(id)
    if (!release) return fail('NOT_FOUND')
    if (release.state !== 'published') return fail('INVALID_STATE', { state: release.state })
    if (release.rolledBackBy !== null) return fail('NOTHING_CHANGED', { rolledBackBy: release.rolledBackBy })
    const versions = await this.versionsOf(release)
    const live = await Promise.all(versions.map((v) => this.store.publishedVersionOf(v.file)))
    const moved = versions.filter((v, i) => live[i]?.id !== v.id && !(v.deleted && !live[i]))
    if (moved.length > 0) return fail('STALE_DRAFT', { files: moved.map((v) => v.file), reason: 'changed after this release' })
    return { ok: true, value: { release, versions } }
  }

  async comment(actor: string, id: number, versionId: number, location: string, body: string): Promise<StoreResult<ReleaseComment>> {
    const release = await this.release(id)
    if (!release) return fail('NOT_FOUND')
    if (!release.versionIds.includes(versionId)) return fail('NOT_FOUND', { field: 'version' })
    const at = this.now()
    const cid = await auditedTransaction(this.data, async (audit) => {
      const { id: cid } = await audit.tx
        .insertInto('store_release_comments')
        .values({ release_id: id, version_id: versionId, location, author: actor, body, created_at: at })
        .returning('id')
        .executeTakeFirstOrThrow()
      await appendAudit(audit, at, actor, 'release.commented', `release/${id}`, { release: id, version: versionId, location, comment: cid })
      return cid
    })
    return { ok: true, value: (await this.comments(id)).find((c) => c.id === cid)! }
  }

  // ---- internals ------------------------------------------------------------------------------

  private async toRelease(r: Row, tx: Executor = this.data.db): Promise<Release> {
    const versionIds = (await tx.selectFrom('store_release_items').select('version_id').where('release_id', '=', r.id).orderBy('version_id').execute()).map((x) => x.version_id)
    return {
      id: r.id,
      title: r.title,
      origin: r.origin,
      state: r.state,
      author: r.author,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      reviewedBy: r.reviewed_by ?? null,
      reviewedAt: r.reviewed_at ?? null,
      reviewComment: r.review_comment ?? null,
      schedule: r.scheduled_at === null ? null : { at: r.scheduled_at, local: String(r.schedule_local), zone: String(r.schedule_zone), by: String(r.scheduled_by) },
      publishedBy: r.published_by ?? null,
      publishedAt: r.published_at ?? null,
      rollbackOf: r.rollback_of ?? null,
      rolledBackBy: r.rolled_back_by ?? null,
      lint: r.lint ? (JSON.parse(r.lint) as GateFinding[]) : null,
      versionIds,
    }
  }
}

const books = new WeakMap<BookStore, ReleaseBook>()

/** The release book of a store (one per running server; tests reach it through the server's deps). */
export function releaseBookOf(store: BookStore, now: () => number): ReleaseBook {
  let book = books.get(store)
  if (!book) books.set(store, (book = new ReleaseBook(store.data, store, now)))
  return book
}
