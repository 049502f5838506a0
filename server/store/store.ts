/**
 * The versioned document store: draft → lint gate → review → publish → rollback, in SQLite.
 *
 * Every document is a file path (`jurisdictions/spain/flows/signup-email.json`), the same identity
 * it has in git. The files in `schemas/` seed the store: on first start, and again as a new
 * published "seed" version whenever a file's content differs from the last one seeded (so in
 * development an edited file still goes live). Operators' versions live only here.
 *
 * Rules the store enforces whoever calls it (the admin API adds roles on top):
 * - a version that fails the lint gate is never submitted, approved or published;
 * - publishing needs an approval by someone other than the author (four-eyes);
 * - a draft built on an older published version than the current one is stale and cannot publish;
 * - every change writes an audit entry in the same transaction.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { registerMigration, type Db } from '../db/database'
import { listDocumentFiles, readDocument, variantOf, type DocumentProblem, type DocumentRecord } from '../../shared/documents/loader'
import { appendAudit, auditedTransaction } from './audit'
import { findingsOf, lintDeletionGate, lintGate, lintReleaseGate, type GateFinding } from './lint-gate'
import { diffDocumentSets, unparseableFinding, type DiffFinding, type DocumentSnapshot } from '../../tools/schema-lint/diff/differ'
import { readSnapshot, snapshotOf } from '../../tools/schema-lint/diff/sources'
import type { Waiver } from '../../tools/schema-lint/rules/regulatory'

registerMigration(
  '101-document-store',
  `CREATE TABLE store_versions (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     file TEXT NOT NULL,
     content TEXT NOT NULL,
     content_hash TEXT NOT NULL,
     origin TEXT NOT NULL CHECK (origin IN ('seed', 'operator', 'rollback')),
     state TEXT NOT NULL CHECK (state IN ('draft', 'in_review', 'approved', 'rejected', 'published', 'superseded', 'withdrawn')),
     author TEXT NOT NULL,
     base_version INTEGER,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     reviewed_by TEXT,
     reviewed_at INTEGER,
     review_comment TEXT,
     published_by TEXT,
     published_at INTEGER,
     lint TEXT
   );
   CREATE INDEX store_versions_file ON store_versions (file, id);
   CREATE TABLE store_published (file TEXT PRIMARY KEY, version_id INTEGER NOT NULL REFERENCES store_versions (id));
   CREATE TABLE store_seeds (file TEXT PRIMARY KEY, content_hash TEXT NOT NULL);
   CREATE TABLE store_waivers (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     jurisdiction TEXT NOT NULL,
     rule TEXT NOT NULL,
     reason TEXT NOT NULL,
     author TEXT NOT NULL,
     state TEXT NOT NULL CHECK (state IN ('requested', 'approved', 'rejected', 'revoked')),
     reviewed_by TEXT,
     reviewed_at INTEGER,
     created_at INTEGER NOT NULL
   );`,
)

// A file removed from schemas/ becomes a deletion version: no content, reviewed like any change.
registerMigration('103-store-deletions', 'ALTER TABLE store_versions ADD COLUMN deleted INTEGER NOT NULL DEFAULT 0')

// Releases (server/store/releases.ts): versions of several files reviewed and published together.
registerMigration(
  '150-store-releases',
  `CREATE TABLE store_releases (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     title TEXT NOT NULL,
     origin TEXT NOT NULL CHECK (origin IN ('operator', 'rollback')),
     state TEXT NOT NULL CHECK (state IN ('draft', 'in_review', 'approved', 'rejected', 'published', 'withdrawn')),
     author TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     reviewed_by TEXT,
     reviewed_at INTEGER,
     review_comment TEXT,
     scheduled_at INTEGER,
     schedule_zone TEXT,
     schedule_local TEXT,
     scheduled_by TEXT,
     published_by TEXT,
     published_at INTEGER,
     rollback_of INTEGER REFERENCES store_releases (id),
     rolled_back_by INTEGER REFERENCES store_releases (id),
     lint TEXT
   );
   CREATE TABLE store_release_items (
     release_id INTEGER NOT NULL REFERENCES store_releases (id),
     version_id INTEGER NOT NULL REFERENCES store_versions (id),
     PRIMARY KEY (release_id, version_id)
   );
   CREATE INDEX store_release_items_version ON store_release_items (version_id);
   CREATE TABLE store_release_comments (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     release_id INTEGER NOT NULL REFERENCES store_releases (id),
     version_id INTEGER NOT NULL REFERENCES store_versions (id),
     location TEXT NOT NULL,
     author TEXT NOT NULL,
     body TEXT NOT NULL,
     created_at INTEGER NOT NULL
   );`,
)

/** store_seeds' content hash for a file removed from the documents folder (its deletion proposed). */
const REMOVED_FROM_FILES = 'removed'

export type VersionState = 'draft' | 'in_review' | 'approved' | 'rejected' | 'published' | 'superseded' | 'withdrawn'

export interface DocumentVersion {
  id: number
  file: string
  content: string
  contentHash: string
  origin: 'seed' | 'operator' | 'rollback'
  state: VersionState
  author: string
  baseVersion: number | null
  createdAt: number
  updatedAt: number
  reviewedBy: string | null
  reviewedAt: number | null
  reviewComment: string | null
  publishedBy: string | null
  publishedAt: number | null
  lint: GateFinding[] | null
  /** This version deletes the file (proposed when the file was removed from the documents folder). */
  deleted: boolean
}

export interface WaiverRecord extends Waiver {
  id: number
  author: string
  state: 'requested' | 'approved' | 'rejected' | 'revoked'
  reviewedBy: string | null
  createdAt: number
}

export type StoreResult<T> = { ok: true; value: T } | { ok: false; code: StoreErrorCode; details?: unknown }

export type StoreErrorCode =
  | 'NOT_FOUND'
  | 'INVALID_FILE'
  | 'INVALID_STATE'
  | 'NOT_AUTHOR'
  | 'SELF_APPROVAL'
  | 'LINT_FAILED'
  | 'STALE_DRAFT'
  | 'NOT_APPROVED'
  | 'SET_INVALID'
  | 'NOTHING_CHANGED'
  | 'IN_RELEASE'

interface VersionRow {
  id: number
  file: string
  content: string
  content_hash: string
  origin: DocumentVersion['origin']
  state: VersionState
  author: string
  base_version: number | null
  created_at: number
  updated_at: number
  reviewed_by: string | null
  reviewed_at: number | null
  review_comment: string | null
  published_by: string | null
  published_at: number | null
  lint: string | null
  deleted: number
}

const toVersion = (r: VersionRow): DocumentVersion => ({
  id: r.id,
  file: r.file,
  content: r.content,
  contentHash: r.content_hash,
  origin: r.origin,
  state: r.state,
  author: r.author,
  baseVersion: r.base_version,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  reviewedBy: r.reviewed_by,
  reviewedAt: r.reviewed_at,
  reviewComment: r.review_comment,
  publishedBy: r.published_by,
  publishedAt: r.published_at,
  lint: r.lint ? (JSON.parse(r.lint) as GateFinding[]) : null,
  deleted: r.deleted === 1,
})

/** Same JSON value (formatting aside), or the same text when either side does not parse. */
function sameDocument(a: string, b: string): boolean {
  try {
    return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b))
  } catch {
    return a === b
  }
}

const contentHash = (text: string) => createHash('sha256').update(text).digest('hex')

/** A document path: folders and file names the loader knows, no traversal, `.json`. */
export const FILE_PATTERN = /^(?:[a-z0-9-]+\/){0,3}[a-z0-9][a-z0-9-]*\.json$/
const validFile = (file: unknown): file is string =>
  typeof file === 'string' && file.length <= 200 && FILE_PATTERN.test(file) && !/^(kinds|experiments)\//.test(file)

const same = (a: string | null | undefined, b: string | null | undefined) => !!a && !!b && a.toLowerCase() === b.toLowerCase()

export interface DocumentStoreOptions {
  db: Db
  now: () => number
  /** Installs a new served set; throws (e.g. DocumentLoadError) to refuse it. */
  install: (records: DocumentRecord[]) => void
}

export class DocumentStore {
  private readonly db: Db
  private readonly now: () => number
  private readonly install: (records: DocumentRecord[]) => void
  /** True while the store installs a served set (the documents service's change is the store's own). */
  installing = false

  constructor(options: DocumentStoreOptions) {
    this.db = options.db
    this.now = options.now
    this.install = (records) => {
      this.installing = true
      try {
        options.install(records)
      } finally {
        this.installing = false
      }
    }
  }

  /** Serves a set of records (the published set after seeding). */
  serve(records: DocumentRecord[]): void {
    this.install(records)
  }

  // ---- reading -------------------------------------------------------------------------------

  version(id: number): DocumentVersion | undefined {
    const row = this.db.prepare('SELECT * FROM store_versions WHERE id = ?').get(id) as VersionRow | undefined
    return row && toVersion(row)
  }

  versions(filter: { file?: string; state?: VersionState; limit?: number } = {}): DocumentVersion[] {
    const where: string[] = []
    const args: unknown[] = []
    if (filter.file) (where.push('file = ?'), args.push(filter.file))
    if (filter.state) (where.push('state = ?'), args.push(filter.state))
    const sql = `SELECT * FROM store_versions ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`
    return (this.db.prepare(sql).all(...args, Math.min(filter.limit ?? 200, 1000)) as VersionRow[]).map(toVersion)
  }

  /** file → published version. */
  published(): Map<string, DocumentVersion> {
    const rows = this.db
      .prepare('SELECT v.* FROM store_published p JOIN store_versions v ON v.id = p.version_id ORDER BY p.file')
      .all() as VersionRow[]
    return new Map(rows.map((r) => [r.file, toVersion(r)]))
  }

  publishedVersionOf(file: string): DocumentVersion | undefined {
    const row = this.db.prepare('SELECT v.* FROM store_published p JOIN store_versions v ON v.id = p.version_id WHERE p.file = ?').get(file) as
      | VersionRow
      | undefined
    return row && toVersion(row)
  }

  /** The served records of the published set (every published version parses: the gate saw it). */
  publishedRecords(replacing?: { file: string; content: string }): { records: DocumentRecord[]; problems: DocumentProblem[] } {
    const problems: DocumentProblem[] = []
    const records: DocumentRecord[] = []
    const texts = new Map([...this.published()].map(([file, v]) => [file, v.content]))
    if (replacing) texts.set(replacing.file, replacing.content)
    for (const [file, text] of [...texts].sort(([a], [b]) => a.localeCompare(b))) {
      const record = this.read(file, text, problems)
      if (record) records.push(record)
    }
    return { records, problems }
  }

  /** Snapshots for the differ: the published set, optionally with one version in place of its file
   * (a version that does not parse leaves the published one in place: see `diff`; a deletion
   * version takes the file out). */
  snapshots(withVersion?: DocumentVersion): DocumentSnapshot[] {
    const texts = new Map([...this.published()].map(([file, v]) => [file, v.content]))
    if (withVersion?.deleted) texts.delete(withVersion.file)
    else if (withVersion && snapshotOf(withVersion.file, withVersion.content)) texts.set(withVersion.file, withVersion.content)
    return [...texts].flatMap(([file, text]) => snapshotOf(file, text) ?? [])
  }

  /** The served records the published set would have with this version live. */
  recordsWith(version: DocumentVersion): { records: DocumentRecord[]; problems: DocumentProblem[] } {
    if (!version.deleted) return this.publishedRecords({ file: version.file, content: version.content })
    const { records, problems } = this.publishedRecords()
    return { records: records.filter((r) => r.file !== version.file), problems }
  }

  /** What a version changes against the published set, in the product's language. A version that
   * does not parse is one error finding that says so, never "no semantic changes". */
  diff(version: DocumentVersion): DiffFinding[] {
    const read = readSnapshot(version.file, version.content)
    if (!version.deleted && 'problem' in read) {
      const published = this.publishedVersionOf(version.file)
      return [unparseableFinding(version.file, read.problem, published ? (snapshotOf(published.file, published.content) ?? undefined) : undefined)]
    }
    return diffDocumentSets(this.snapshots(), this.snapshots(version))
  }

  approvedWaivers(): Waiver[] {
    return (this.db.prepare("SELECT jurisdiction, rule, reason FROM store_waivers WHERE state = 'approved'").all() as Waiver[]).map((w) => ({ ...w }))
  }

  waivers(): WaiverRecord[] {
    return (this.db.prepare('SELECT * FROM store_waivers ORDER BY id DESC').all() as Record<string, unknown>[]).map((w) => ({
      id: Number(w.id),
      jurisdiction: String(w.jurisdiction),
      rule: String(w.rule),
      reason: String(w.reason),
      author: String(w.author),
      state: w.state as WaiverRecord['state'],
      reviewedBy: (w.reviewed_by as string | null) ?? null,
      createdAt: Number(w.created_at),
    }))
  }

  // ---- seeding from the files in git ----------------------------------------------------------

  /**
   * Publishes a "seed" version of every file whose content differs from the last one seeded. A
   * seeded file that is no longer in the folder is not dropped silently, nor kept silently: its
   * deletion is proposed as a version in review (diff: "document removed"), and the document stays
   * served until compliance approves it and it is published. A file that comes back withdraws the
   * proposal. Files that never came from the folder (operators' new documents) are not touched.
   */
  seed(root: string): { seeded: string[]; removed: string[]; problems: DocumentProblem[] } {
    const seeded: string[] = []
    const problems: DocumentProblem[] = []
    const known = new Map((this.db.prepare('SELECT file, content_hash FROM store_seeds').all() as { file: string; content_hash: string }[]).map((r) => [r.file, r.content_hash]))
    const files = listDocumentFiles(root)
    const at = this.now()
    const removed = auditedTransaction(this.db, () => {
      for (const file of files) {
        const text = readFileSync(join(root, file), 'utf8')
        const hash = contentHash(text)
        if (known.get(file) === hash) continue
        // A file that does not load is not seeded: the store keeps serving its last good version.
        if (!this.read(file, text, problems)) continue
        if (known.get(file) === REMOVED_FROM_FILES) this.withdrawDeletion(file, at)
        const current = this.publishedVersionOf(file)
        if (current?.contentHash !== hash) {
          const id = this.insertVersion(file, text, 'seed', 'published', 'seed', current?.id ?? null, at)
          this.db.prepare('UPDATE store_versions SET published_by = ?, published_at = ? WHERE id = ?').run('seed', at, id)
          this.point(file, id, current)
          appendAudit(this.db, at, 'seed', 'document.seeded', file, { version: id, contentHash: hash, previous: current?.id ?? null })
          seeded.push(file)
        }
        this.markSeed(file, hash)
      }
      return this.proposeDeletions(known, new Set(files), at)
    })
    return { seeded, removed, problems }
  }

  /** Seeded files gone from the folder and still published: each becomes a deletion in review. */
  private proposeDeletions(known: Map<string, string>, present: Set<string>, at: number): string[] {
    const removed: string[] = []
    for (const [file, hash] of known) {
      if (present.has(file) || hash === REMOVED_FROM_FILES) continue
      this.markSeed(file, REMOVED_FROM_FILES)
      const current = this.publishedVersionOf(file)
      if (!current) continue
      const id = this.insertVersion(file, '', 'seed', 'in_review', 'seed', current.id, at, true)
      appendAudit(this.db, at, 'seed', 'document.deletion-proposed', file, { version: id, previous: current.id })
      removed.push(file)
    }
    return removed
  }

  /** The file is back in the folder: an open proposal to delete it no longer stands. */
  private withdrawDeletion(file: string, at: number): void {
    const open = this.db
      .prepare("SELECT id FROM store_versions WHERE file = ? AND deleted = 1 AND state IN ('draft', 'in_review', 'approved')")
      .all(file) as { id: number }[]
    for (const { id } of open) {
      this.db.prepare("UPDATE store_versions SET state = 'withdrawn', updated_at = ? WHERE id = ?").run(at, id)
      appendAudit(this.db, at, 'seed', 'document.deletion-withdrawn', file, { version: id, reason: 'the file is back in the documents folder' })
    }
  }

  private markSeed(file: string, hash: string): void {
    this.db.prepare('INSERT INTO store_seeds (file, content_hash) VALUES (?, ?) ON CONFLICT (file) DO UPDATE SET content_hash = excluded.content_hash').run(file, hash)
  }

  // ---- the review workflow --------------------------------------------------------------------

  createDraft(actor: string, file: unknown, content: unknown): StoreResult<DocumentVersion> {
    if (!validFile(file)) return { ok: false, code: 'INVALID_FILE' }
    if (typeof content !== 'string') return { ok: false, code: 'INVALID_STATE' }
    const at = this.now()
    const base = this.publishedVersionOf(file)
    if (base && sameDocument(base.content, content)) return { ok: false, code: 'NOTHING_CHANGED' }
    const id = auditedTransaction(this.db, () => {
      const id = this.insertVersion(file, content, 'operator', 'draft', actor, base?.id ?? null, at)
      appendAudit(this.db, at, actor, 'draft.created', file, { version: id, base: base?.id ?? null, contentHash: contentHash(content) })
      return id
    })
    return { ok: true, value: this.version(id)! }
  }

  updateDraft(actor: string, id: number, content: string): StoreResult<DocumentVersion> {
    const version = this.version(id)
    if (!version) return { ok: false, code: 'NOT_FOUND' }
    if (this.releaseHolding(id, ['in_review', 'approved'])) return { ok: false, code: 'IN_RELEASE', details: { release: this.releaseHolding(id) } }
    if (!same(version.author, actor)) return { ok: false, code: 'NOT_AUTHOR' }
    if (version.state !== 'draft' && version.state !== 'rejected') return { ok: false, code: 'INVALID_STATE', details: { state: version.state } }
    const at = this.now()
    auditedTransaction(this.db, () => {
      // A rejected draft that is edited is a draft again; the rejection stays in the audit log.
      this.db
        .prepare("UPDATE store_versions SET content = ?, content_hash = ?, state = 'draft', updated_at = ?, reviewed_by = NULL, reviewed_at = NULL, lint = NULL WHERE id = ?")
        .run(content, contentHash(content), at, id)
      appendAudit(this.db, at, actor, 'draft.updated', version.file, { version: id, contentHash: contentHash(content) })
    })
    return { ok: true, value: this.version(id)! }
  }

  /** Runs the lint gate against the current published set. */
  async check(version: DocumentVersion): Promise<GateFinding[]> {
    const baseline = this.publishedRecords()
    const input = { file: version.file, content: version.content, baseline: baseline.records, waivers: this.approvedWaivers() }
    return version.deleted ? lintDeletionGate(input) : lintGate(input)
  }

  async submit(actor: string, id: number): Promise<StoreResult<DocumentVersion>> {
    const version = this.version(id)
    if (!version) return { ok: false, code: 'NOT_FOUND' }
    if (this.releaseHolding(id)) return { ok: false, code: 'IN_RELEASE', details: { release: this.releaseHolding(id) } }
    if (!same(version.author, actor)) return { ok: false, code: 'NOT_AUTHOR' }
    if (version.state !== 'draft') return { ok: false, code: 'INVALID_STATE', details: { state: version.state } }
    const findings = await this.check(version)
    const errors = findings.filter((f) => f.severity === 'error')
    const at = this.now()
    auditedTransaction(this.db, () => {
      if (errors.length > 0) {
        this.db.prepare('UPDATE store_versions SET lint = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(findings), at, id)
        appendAudit(this.db, at, actor, 'draft.lint-refused', version.file, { version: id, errors: errors.length, rules: [...new Set(errors.map((e) => e.rule))] })
      } else {
        this.db.prepare("UPDATE store_versions SET state = 'in_review', lint = ?, updated_at = ? WHERE id = ?").run(JSON.stringify(findings), at, id)
        appendAudit(this.db, at, actor, 'draft.submitted', version.file, { version: id, warnings: findings.length })
      }
    })
    if (errors.length > 0) return { ok: false, code: 'LINT_FAILED', details: errors }
    return { ok: true, value: this.version(id)! }
  }

  async approve(reviewer: string, id: number, comment = ''): Promise<StoreResult<DocumentVersion>> {
    const version = this.version(id)
    if (!version) return { ok: false, code: 'NOT_FOUND' }
    if (this.releaseHolding(id)) return { ok: false, code: 'IN_RELEASE', details: { release: this.releaseHolding(id) } }
    if (same(version.author, reviewer)) {
      this.audit(reviewer, 'review.self-approval-refused', version.file, { version: id })
      return { ok: false, code: 'SELF_APPROVAL' }
    }
    if (version.state !== 'in_review') return { ok: false, code: 'INVALID_STATE', details: { state: version.state } }
    // The published set may have moved since the submit: the gate runs again.
    const errors = (await this.check(version)).filter((f) => f.severity === 'error')
    if (errors.length > 0) return { ok: false, code: 'LINT_FAILED', details: errors }
    const at = this.now()
    const approved = auditedTransaction(this.db, () => {
      // A parallel approval or a withdrawal won the race while the gate ran.
      if (this.version(id)?.state !== 'in_review') return false
      this.db.prepare("UPDATE store_versions SET state = 'approved', reviewed_by = ?, reviewed_at = ?, review_comment = ?, updated_at = ? WHERE id = ?").run(reviewer, at, comment, at, id)
      // The approved findings' fingerprints: `schema-lint diff --approved` accepts them on later commits.
      const fingerprints = this.diff(version).map((f) => f.fingerprint)
      appendAudit(this.db, at, reviewer, 'review.approved', version.file, { version: id, author: version.author, comment, fingerprints })
      return true
    })
    if (!approved) return { ok: false, code: 'INVALID_STATE', details: { state: this.version(id)?.state } }
    return { ok: true, value: this.version(id)! }
  }

  reject(reviewer: string, id: number, comment: string): StoreResult<DocumentVersion> {
    const version = this.version(id)
    if (!version) return { ok: false, code: 'NOT_FOUND' }
    if (this.releaseHolding(id)) return { ok: false, code: 'IN_RELEASE', details: { release: this.releaseHolding(id) } }
    if (same(version.author, reviewer)) return { ok: false, code: 'SELF_APPROVAL' }
    if (version.state !== 'in_review' && version.state !== 'approved') return { ok: false, code: 'INVALID_STATE', details: { state: version.state } }
    const at = this.now()
    auditedTransaction(this.db, () => {
      this.db.prepare("UPDATE store_versions SET state = 'rejected', reviewed_by = ?, reviewed_at = ?, review_comment = ?, updated_at = ? WHERE id = ?").run(reviewer, at, comment, at, id)
      appendAudit(this.db, at, reviewer, 'review.rejected', version.file, { version: id, author: version.author, comment })
    })
    return { ok: true, value: this.version(id)! }
  }

  withdraw(actor: string, id: number): StoreResult<DocumentVersion> {
    const version = this.version(id)
    if (!version) return { ok: false, code: 'NOT_FOUND' }
    if (this.releaseHolding(id)) return { ok: false, code: 'IN_RELEASE', details: { release: this.releaseHolding(id) } }
    if (!same(version.author, actor)) return { ok: false, code: 'NOT_AUTHOR' }
    if (!['draft', 'in_review', 'approved', 'rejected'].includes(version.state)) return { ok: false, code: 'INVALID_STATE', details: { state: version.state } }
    const at = this.now()
    auditedTransaction(this.db, () => {
      this.db.prepare("UPDATE store_versions SET state = 'withdrawn', updated_at = ? WHERE id = ?").run(at, id)
      appendAudit(this.db, at, actor, 'draft.withdrawn', version.file, { version: id })
    })
    return { ok: true, value: this.version(id)! }
  }

  async publish(actor: string, id: number): Promise<StoreResult<DocumentVersion>> {
    const version = this.version(id)
    if (!version) return { ok: false, code: 'NOT_FOUND' }
    if (this.releaseHolding(id)) return { ok: false, code: 'IN_RELEASE', details: { release: this.releaseHolding(id) } }
    if (version.state !== 'approved') return { ok: false, code: 'NOT_APPROVED', details: { state: version.state } }
    // Four-eyes, again at the last step: the approval must come from someone other than the author.
    if (!version.reviewedBy || same(version.reviewedBy, version.author)) return { ok: false, code: 'SELF_APPROVAL' }
    const current = this.publishedVersionOf(version.file)
    if ((current?.id ?? null) !== version.baseVersion) return { ok: false, code: 'STALE_DRAFT', details: { base: version.baseVersion, published: current?.id ?? null } }
    return this.goLive(actor, version, current, 'document.published', version.id)
  }

  /** Puts an earlier published version of a file live again, as a new version (lint gate applies). */
  async rollback(actor: string, file: string, toVersionId: number): Promise<StoreResult<DocumentVersion>> {
    const target = this.version(toVersionId)
    if (!target || target.file !== file || target.publishedAt === null) return { ok: false, code: 'NOT_FOUND' }
    const current = this.publishedVersionOf(file)
    if (current && !target.deleted && current.contentHash === target.contentHash) return { ok: false, code: 'NOTHING_CHANGED' }
    if (!current && target.deleted) return { ok: false, code: 'NOTHING_CHANGED' }
    const at = this.now()
    const id = auditedTransaction(this.db, () => {
      const id = this.insertVersion(file, target.content, 'rollback', 'approved', actor, current?.id ?? null, at, target.deleted)
      return id
    })
    const result = await this.goLive(actor, this.version(id)!, current, 'document.rolled-back', id, { to: toVersionId })
    if (!result.ok) this.db.prepare("UPDATE store_versions SET state = 'withdrawn' WHERE id = ?").run(id)
    return result
  }

  private async goLive(actor: string, version: DocumentVersion, current: DocumentVersion | undefined, action: string, id: number, extra: Record<string, unknown> = {}): Promise<StoreResult<DocumentVersion>> {
    const findings = await this.check(version)
    const errors = findings.filter((f) => f.severity === 'error')
    if (errors.length > 0) {
      this.audit(actor, `${action}.lint-refused`, version.file, { version: id, rules: [...new Set(errors.map((e) => e.rule))] })
      return { ok: false, code: 'LINT_FAILED', details: errors }
    }
    const at = this.now()
    try {
      auditedTransaction(this.db, () => {
        // The gate ran asynchronously: refuse if another publish moved the file meanwhile.
        if ((this.publishedVersionOf(version.file)?.id ?? null) !== (current?.id ?? null) || this.version(id)?.state !== 'approved')
          throw Object.assign(new Error('stale'), { stale: true })
        this.db.prepare("UPDATE store_versions SET state = 'published', published_by = ?, published_at = ?, updated_at = ? WHERE id = ?").run(actor, at, at, id)
        this.point(version.file, id, current, version.deleted)
        appendAudit(this.db, at, actor, action, version.file, { version: id, previous: current?.id ?? null, author: version.author, approvedBy: version.reviewedBy, ...(version.deleted ? { deleted: true } : {}), ...extra })
        // Served inside the transaction: if the server refuses the set, nothing is recorded.
        this.install(this.publishedRecords().records)
      })
    } catch (error) {
      if ((error as { stale?: boolean }).stale) return { ok: false, code: 'STALE_DRAFT' }
      return { ok: false, code: 'SET_INVALID', details: (error as { problems?: unknown }).problems ?? String(error) }
    }
    return { ok: true, value: this.version(id)! }
  }

  // ---- waivers --------------------------------------------------------------------------------

  requestWaiver(actor: string, jurisdiction: string, rule: string, reason: string): StoreResult<WaiverRecord> {
    const at = this.now()
    const id = auditedTransaction(this.db, () => {
      const id = Number(
        this.db.prepare("INSERT INTO store_waivers (jurisdiction, rule, reason, author, state, created_at) VALUES (?, ?, ?, ?, 'requested', ?)").run(jurisdiction, rule, reason, actor, at)
          .lastInsertRowid,
      )
      appendAudit(this.db, at, actor, 'waiver.requested', `${jurisdiction}/${rule}`, { waiver: id, reason })
      return id
    })
    return { ok: true, value: this.waivers().find((w) => w.id === id)! }
  }

  reviewWaiver(reviewer: string, id: number, decision: 'approved' | 'rejected'): StoreResult<WaiverRecord> {
    const waiver = this.waivers().find((w) => w.id === id)
    if (!waiver) return { ok: false, code: 'NOT_FOUND' }
    if (same(waiver.author, reviewer)) return { ok: false, code: 'SELF_APPROVAL' }
    if (waiver.state !== 'requested') return { ok: false, code: 'INVALID_STATE', details: { state: waiver.state } }
    const at = this.now()
    auditedTransaction(this.db, () => {
      this.db.prepare('UPDATE store_waivers SET state = ?, reviewed_by = ?, reviewed_at = ? WHERE id = ?').run(decision, reviewer, at, id)
      appendAudit(this.db, at, reviewer, `waiver.${decision}`, `${waiver.jurisdiction}/${waiver.rule}`, { waiver: id, author: waiver.author })
    })
    return { ok: true, value: this.waivers().find((w) => w.id === id)! }
  }

  /** Every fingerprint compliance approved (from the audit log), for `schema-lint diff --approved`. */
  approvedFingerprints(): string[] {
    const rows = this.db.prepare("SELECT details FROM audit_log WHERE action = 'review.approved' ORDER BY seq").all() as { details: string }[]
    const out = new Set<string>()
    for (const row of rows) for (const f of (JSON.parse(row.details) as { fingerprints?: string[] }).fingerprints ?? []) out.add(f)
    return [...out]
  }

  audit(actor: string, action: string, subject: string, details: Record<string, unknown> = {}): void {
    auditedTransaction(this.db, () => appendAudit(this.db, this.now(), actor, action, subject, details))
  }

  // ---- releases (server/store/releases.ts): several versions go live together ----------------

  /** The open release (draft, in review or approved) a version belongs to, if any. */
  releaseHolding(versionId: number, states: string[] = ['draft', 'in_review', 'approved']): number | undefined {
    const row = this.db
      .prepare(`SELECT r.id FROM store_release_items i JOIN store_releases r ON r.id = i.release_id WHERE i.version_id = ? AND r.state IN (${states.map(() => '?').join(', ')})`)
      .get(versionId, ...states) as { id: number } | undefined
    return row?.id
  }

  /** The served records the published set would have with every one of these versions live. */
  recordsWithAll(versions: DocumentVersion[]): { records: DocumentRecord[]; problems: DocumentProblem[] } {
    const problems: DocumentProblem[] = []
    const texts = new Map([...this.published()].map(([file, v]) => [file, v.content]))
    for (const v of versions) v.deleted ? texts.delete(v.file) : texts.set(v.file, v.content)
    const records: DocumentRecord[] = []
    for (const [file, text] of [...texts].sort(([a], [b]) => a.localeCompare(b))) {
      const record = this.read(file, text, problems)
      if (record) records.push(record)
    }
    return { records, problems }
  }

  /** The lint gate of a release: the published set with every one of these versions in place
   * (a flow may use a popup the same release adds). */
  async checkTogether(versions: DocumentVersion[]): Promise<GateFinding[]> {
    const baseline = this.publishedRecords().records
    const waivers = this.approvedWaivers()
    // The published set's own findings change only when it (or a waiver) does: one lint run, not one per gate.
    const key = `${[...this.published().values()].map((v) => v.id).join(',')}|${JSON.stringify(waivers)}`
    if (this.baselineFindings?.key !== key) this.baselineFindings = { key, findings: findingsOf(baseline, waivers) }
    const baselineFindings = this.baselineFindings.findings
    baselineFindings.catch(() => (this.baselineFindings = undefined))
    return lintReleaseGate({ versions, baseline, waivers, baselineFindings })
  }
  private baselineFindings?: { key: string; findings: Promise<GateFinding[]> }

  /** A new version that restores earlier content (a release's rollback); approved, not yet live. */
  insertRestoringVersion(actor: string, file: string, content: string, deleted: boolean, base: number | null): number {
    return this.insertVersion(file, content, 'rollback', 'approved', actor, base, this.now(), deleted)
  }

  /**
   * Puts several approved versions live in ONE transaction with ONE install of the served set:
   * each file must still have the published version it was built on (else STALE_DRAFT), and if
   * the server refuses the set nothing is recorded. `inside` runs in the same transaction (the
   * release's own row and audit entry).
   */
  goLiveTogether(actor: string, versions: DocumentVersion[], audit: Record<string, unknown>, inside: () => void): StoreResult<DocumentVersion[]> {
    const at = this.now()
    try {
      auditedTransaction(this.db, () => {
        const stale = versions.filter((v) => (this.publishedVersionOf(v.file)?.id ?? null) !== v.baseVersion)
        if (stale.length > 0) throw Object.assign(new Error('stale'), { stale: stale.map((v) => v.file) })
        for (const version of versions) {
          const current = this.publishedVersionOf(version.file)
          this.db.prepare("UPDATE store_versions SET state = 'published', published_by = ?, published_at = ?, updated_at = ? WHERE id = ?").run(actor, at, at, version.id)
          this.point(version.file, version.id, current, version.deleted)
          appendAudit(this.db, at, actor, 'document.published', version.file, { version: version.id, previous: current?.id ?? null, author: version.author, ...(version.deleted ? { deleted: true } : {}), ...audit })
        }
        inside()
        this.install(this.publishedRecords().records)
      })
    } catch (error) {
      const stale = (error as { stale?: string[] }).stale
      if (stale) return { ok: false, code: 'STALE_DRAFT', details: { files: stale } }
      return { ok: false, code: 'SET_INVALID', details: (error as { problems?: unknown }).problems ?? String(error) }
    }
    return { ok: true, value: versions.map((v) => this.version(v.id)!) }
  }

  /** Sets the state of versions moving with their release (inside the release's transaction). */
  setStates(ids: number[], state: VersionState, review?: { by: string; comment: string }): void {
    const at = this.now()
    for (const id of ids) {
      if (review) this.db.prepare('UPDATE store_versions SET state = ?, reviewed_by = ?, reviewed_at = ?, review_comment = ?, updated_at = ? WHERE id = ?').run(state, review.by, at, review.comment, at, id)
      else this.db.prepare('UPDATE store_versions SET state = ?, updated_at = ? WHERE id = ?').run(state, at, id)
    }
  }

  // ---- internals ------------------------------------------------------------------------------

  private read(file: string, text: string, problems: DocumentProblem[]): DocumentRecord | null {
    return readDocument(file, text, problems) // parsed once per file and text (the loader remembers)
  }

  private insertVersion(file: string, content: string, origin: DocumentVersion['origin'], state: VersionState, author: string, base: number | null, at: number, deleted = false): number {
    return Number(
      this.db
        .prepare('INSERT INTO store_versions (file, content, content_hash, origin, state, author, base_version, created_at, updated_at, deleted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
        .run(file, content, contentHash(content), origin, state, author, base, at, at, deleted ? 1 : 0).lastInsertRowid,
    )
  }

  private point(file: string, id: number, previous: DocumentVersion | undefined, deleted = false): void {
    if (previous) this.db.prepare("UPDATE store_versions SET state = 'superseded' WHERE id = ?").run(previous.id)
    if (deleted) return void this.db.prepare('DELETE FROM store_published WHERE file = ?').run(file)
    this.db.prepare('INSERT INTO store_published (file, version_id) VALUES (?, ?) ON CONFLICT (file) DO UPDATE SET version_id = excluded.version_id').run(file, id)
  }
}

export { variantOf }
