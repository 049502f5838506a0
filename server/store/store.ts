/**
 * The versioned document store: draft → lint gate → review → publish → rollback, on the query
 * layer (issue 16: SQLite or PostgreSQL, the same queries).
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
 * - every change writes an audit entry in the same transaction (serialised on 'audit': a check
 *   then write, e.g. "the file still has the version this draft was built on", never races
 *   another instance).
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Generated, Kysely, Transaction } from 'kysely'
import { isStorageUnavailable } from '../db/database'
import type { DataLayer } from '../db/data-layer'
import { oneOf, schemaStep, sqliteHistory, surrogateKey, surrogateKeyType } from '../db/schema'
import type { Tables } from '../db/tables'
import { listDocumentFiles, readDocument, readDocumentSet, variantOf, type DocumentProblem, type DocumentRecord } from '../../tools/schema-lint'
import { isBaseFile, resolveOverlaySet, type ResolvedSet } from '../../kernel/documents/overlay-set'
import { appendAudit, audit, auditDetailsOf, auditedTransaction, type AuditScope } from './audit'
import { findingsOf, lintReleaseGate, type GateFinding } from './lint-gate'
import { overlayEffects, textsWith } from './overlay-gate'
import { diffDocumentSets, unparseableFinding, type DiffFinding, type DocumentSnapshot } from '../../tools/schema-lint'
import { overlayConflictFindings } from '../../tools/schema-lint'
import { overlayStatusFindings } from '../../tools/schema-lint'
import { readSnapshot, snapshotOf, snapshotsOfTexts } from '../../tools/schema-lint'
import type { Waiver } from '../../tools/schema-lint'
import { WaiverBook } from './waivers'
import { RollbackBook } from './rollbacks'
import { publishChecks, type PublishCheckInput } from './publish-check'
import type { PageCheck } from './page-check'
export type { WaiverRecord } from './waivers'
import { RELEASE_ORIGINS, RELEASE_STATES, type Alongside, type BookStore, type DocumentVersion, type Executor, type PublishEvent, type ReleaseTable, type StoreErrorCode, type StoreResult, type VersionState } from './types'
export type { Alongside, BookStore, DocumentVersion, Executor, PublishEvent, ReleaseTable, StoreErrorCode, StoreResult, VersionState } from './types'

export const sqlite101DocumentStore = sqliteHistory(
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
export const sqlite103StoreDeletions = sqliteHistory('103-store-deletions', 'ALTER TABLE store_versions ADD COLUMN deleted INTEGER NOT NULL DEFAULT 0')

// Releases (server/store/releases.ts): versions of several files reviewed and published together.
export const sqlite150StoreReleases = sqliteHistory(
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


const VERSION_ORIGINS = ['seed', 'operator', 'rollback'] as const
const VERSION_STATES = ['draft', 'in_review', 'approved', 'rejected', 'published', 'superseded', 'withdrawn'] as const
const WAIVER_STATES = ['requested', 'approved', 'rejected', 'revoked'] as const

interface VersionTable {
  id: Generated<number>
  file: string
  content: string
  content_hash: string
  origin: (typeof VERSION_ORIGINS)[number]
  state: (typeof VERSION_STATES)[number]
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
  deleted: Generated<number>
  /** The draft's revision: 1 when made, one more at each save (q094). */
  revision: Generated<number>
}

interface WaiverTable {
  id: Generated<number>
  jurisdiction: string
  rule: string
  reason: string
  author: string
  state: (typeof WAIVER_STATES)[number]
  reviewed_by: string | null
  reviewed_at: number | null
  created_at: number
  // q082-store-waiver-scope (./waivers.ts): one document, an end, a four-eyes revocation
  document: string | null
  expires_at: number | null
  revoke_requested_by: string | null
  revoke_requested_at: number | null
  revoke_reason: string | null
  revoked_by: string | null
  revoked_at: number | null
}


declare module '../db/tables' {
  interface Tables {
    store_versions: VersionTable
    store_published: { file: string; version_id: number }
    store_seeds: { file: string; content_hash: string }
    store_waivers: WaiverTable
    store_releases: ReleaseTable
    store_release_items: { release_id: number; version_id: number }
    store_release_comments: { id: Generated<number>; release_id: number; version_id: number; location: string; author: string; body: string; created_at: number }
  }
}

/** q031's releases part: releases, their items and their review comments. */
const createReleaseTables: Parameters<typeof schemaStep>[1] = async (db, engine) => {
  const key = surrogateKeyType(engine)
  await db.schema
    .createTable('store_releases')
    .ifNotExists()
    .addColumn('id', key, surrogateKey(engine))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull().check(oneOf('origin', RELEASE_ORIGINS)))
    .addColumn('state', 'text', (c) => c.notNull().check(oneOf('state', RELEASE_STATES)))
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('reviewed_by', 'text')
    .addColumn('reviewed_at', 'bigint')
    .addColumn('review_comment', 'text')
    .addColumn('scheduled_at', 'bigint')
    .addColumn('schedule_zone', 'text')
    .addColumn('schedule_local', 'text')
    .addColumn('scheduled_by', 'text')
    .addColumn('published_by', 'text')
    .addColumn('published_at', 'bigint')
    .addColumn('rollback_of', key, (c) => c.references('store_releases.id'))
    .addColumn('rolled_back_by', key, (c) => c.references('store_releases.id'))
    .addColumn('lint', 'text')
    .execute()
  await db.schema
    .createTable('store_release_items')
    .ifNotExists()
    .addColumn('release_id', key, (c) => c.notNull().references('store_releases.id'))
    .addColumn('version_id', key, (c) => c.notNull().references('store_versions.id'))
    .addPrimaryKeyConstraint('store_release_items_pk', ['release_id', 'version_id'])
    .execute()
  await db.schema.createIndex('store_release_items_version').ifNotExists().on('store_release_items').column('version_id').execute()
  await db.schema
    .createTable('store_release_comments')
    .ifNotExists()
    .addColumn('id', key, surrogateKey(engine))
    .addColumn('release_id', key, (c) => c.notNull().references('store_releases.id'))
    .addColumn('version_id', key, (c) => c.notNull().references('store_versions.id'))
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()
}

// The tables above in their current shape (101, 103 and 150 are the history of SQLite files).
export const q031DocumentStore = schemaStep('q031-document-store', async (db, engine) => {
  const key = surrogateKeyType(engine)
  await db.schema
    .createTable('store_versions')
    .ifNotExists()
    .addColumn('id', key, surrogateKey(engine))
    .addColumn('file', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull().check(oneOf('origin', VERSION_ORIGINS)))
    .addColumn('state', 'text', (c) => c.notNull().check(oneOf('state', VERSION_STATES)))
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('base_version', key)
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('reviewed_by', 'text')
    .addColumn('reviewed_at', 'bigint')
    .addColumn('review_comment', 'text')
    .addColumn('published_by', 'text')
    .addColumn('published_at', 'bigint')
    .addColumn('lint', 'text')
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema.createIndex('store_versions_file').ifNotExists().on('store_versions').columns(['file', 'id']).execute()
  await db.schema
    .createTable('store_published')
    .ifNotExists()
    .addColumn('file', 'text', (c) => c.primaryKey())
    .addColumn('version_id', key, (c) => c.notNull().references('store_versions.id'))
    .execute()
  await db.schema.createTable('store_seeds').ifNotExists().addColumn('file', 'text', (c) => c.primaryKey()).addColumn('content_hash', 'text', (c) => c.notNull()).execute()
  await db.schema
    .createTable('store_waivers')
    .ifNotExists()
    .addColumn('id', key, surrogateKey(engine))
    .addColumn('jurisdiction', 'text', (c) => c.notNull())
    .addColumn('rule', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(oneOf('state', WAIVER_STATES)))
    .addColumn('reviewed_by', 'text')
    .addColumn('reviewed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute()
  await createReleaseTables(db, engine)
})

// Waivers scoped to one document, with an end and a four-eyes revocation (./waivers.ts); after
// q031, which makes the table on PostgreSQL.
export const q082StoreWaiverScope = schemaStep('q082-store-waiver-scope', async (db) => {
  for (const [column, type] of [
    ['document', 'text'],
    ['expires_at', 'bigint'],
    ['revoke_requested_by', 'text'],
    ['revoke_requested_at', 'bigint'],
    ['revoke_reason', 'text'],
    ['revoked_by', 'text'],
    ['revoked_at', 'bigint'],
  ] as const)
    await db.schema.alterTable('store_waivers').addColumn(column, type).execute()
})

/** Drafts carry a revision: a save names the one it edits, and a stale save is refused (updateDraft).
 * The same step scopes staff accounts to jurisdictions (admin_users.jurisdictions, server/admin/scope.ts):
 * both are issue 29 item 7's publish-path safety, and q094 is the one id left for it. */
export const q094StoreDraftRevision = schemaStep('q094-store-draft-revision-staff-scope', async (db) => {
  await db.schema.alterTable('store_versions').addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1)).execute()
  await db.schema.alterTable('admin_users').addColumn('jurisdictions', 'text').execute()
})


type VersionRow = Omit<VersionTable, 'id' | 'deleted' | 'revision'> & { id: number; deleted: number; revision: number }

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
  revision: Number(r.revision),
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
  data: DataLayer
  now: () => number
  /** Installs a new served set; throws (e.g. DocumentLoadError) to refuse it. `generation`: the
   * publish generation the set is (read in the transaction that published it). */
  install: (records: DocumentRecord[], generation?: number) => void
  /** The publish generation as `tx` sees it (server/bus/documents-sync.ts); absent: not tracked. */
  generation?: (tx: Executor) => Promise<number>
}

export class DocumentStore implements BookStore {
  readonly data: DataLayer
  private readonly now: () => number
  private readonly install: (records: DocumentRecord[], generation?: number) => void
  private readonly generation?: (tx: Executor) => Promise<number>

  constructor(options: DocumentStoreOptions) {
    this.data = options.data
    this.now = options.now
    this.generation = options.generation
    this.install = (records, generation) => options.install(records, generation)
  }

  /** Serves a set of records (the published set after seeding). */
  serve(records: DocumentRecord[]): void {
    this.install(records)
  }

  /** Installs the published set as `tx` sees it, inside the transaction that changed it. */
  private async installFrom(tx: Executor): Promise<void> {
    const records = (await this.publishedRecords(undefined, tx)).records
    this.install(records, await this.generation?.(tx))
  }

  // ---- reading -------------------------------------------------------------------------------

  async version(id: number, tx: Executor = this.data.db): Promise<DocumentVersion | undefined> {
    if (!Number.isSafeInteger(id)) return undefined
    const row = await tx.selectFrom('store_versions').selectAll().where('id', '=', id).executeTakeFirst()
    return row && toVersion(row)
  }

  async versions(filter: { file?: string; state?: VersionState; limit?: number } = {}): Promise<DocumentVersion[]> {
    const rows = await this.data.db
      .selectFrom('store_versions')
      .selectAll()
      .$if(!!filter.file, (q) => q.where('file', '=', filter.file!))
      .$if(!!filter.state, (q) => q.where('state', '=', filter.state!))
      .orderBy('id', 'desc')
      .limit(Math.min(filter.limit ?? 200, 1000))
      .execute()
    return rows.map(toVersion)
  }

  /** file → published version. */
  async published(tx: Executor = this.data.db): Promise<Map<string, DocumentVersion>> {
    const rows = await tx.selectFrom('store_published as p').innerJoin('store_versions as v', 'v.id', 'p.version_id').selectAll('v').orderBy('p.file').execute()
    return new Map(rows.map((r) => [r.file, toVersion(r)]))
  }

  async publishedVersionOf(file: string, tx: Executor = this.data.db): Promise<DocumentVersion | undefined> {
    const row = await tx.selectFrom('store_published as p').innerJoin('store_versions as v', 'v.id', 'p.version_id').selectAll('v').where('p.file', '=', file).executeTakeFirst()
    return row && toVersion(row)
  }

  /** The served records of the published set (every published version parses: the gate saw it). */
  async publishedRecords(replacing?: { file: string; content: string }, tx: Executor = this.data.db): Promise<{ records: DocumentRecord[]; problems: DocumentProblem[] }> {
    const texts = new Map([...(await this.published(tx))].map(([file, v]) => [file, v.content]))
    if (replacing) texts.set(replacing.file, replacing.content)
    return this.recordsOf(texts)
  }

  /** Snapshots for the differ: the published set, optionally with one version in place of its file
   * (a version that does not parse leaves the published one in place: see `diff`; a deletion
   * version takes the file out). */
  async snapshots(withVersion?: DocumentVersion, tx: Executor = this.data.db): Promise<DocumentSnapshot[]> {
    return this.snapshotsOf(await this.published(tx), withVersion)
  }

  private snapshotsOf(published: Map<string, DocumentVersion>, withVersion?: DocumentVersion): DocumentSnapshot[] {
    return snapshotsOfTexts(this.textsOf(published, withVersion))
  }

  /** The published texts, with a version in place (one that does not parse leaves the published text). */
  private textsOf(published: Map<string, DocumentVersion>, withVersion?: DocumentVersion): Map<string, string> {
    const texts = new Map([...published].map(([file, v]) => [file, v.content]))
    if (withVersion?.deleted) texts.delete(withVersion.file)
    else if (withVersion && snapshotOf(withVersion.file, withVersion.content)) texts.set(withVersion.file, withVersion.content)
    return texts
  }

  /** The served records the published set would have with this version live. */
  async recordsWith(version: DocumentVersion): Promise<{ records: DocumentRecord[]; problems: DocumentProblem[] }> {
    if (!version.deleted) return this.publishedRecords({ file: version.file, content: version.content })
    const { records, problems } = await this.publishedRecords()
    return { records: records.filter((r) => r.file !== version.file), problems }
  }

  /** What a version changes against the published set, in the product's language. A version that
   * does not parse is one error finding that says so, never "no semantic changes". */
  async diff(version: DocumentVersion, tx: Executor = this.data.db): Promise<DiffFinding[]> {
    const published = await this.published(tx)
    const read = readSnapshot(version.file, version.content)
    const current = published.get(version.file)
    const previous = current ? (snapshotOf(current.file, current.content) ?? undefined) : undefined
    if (!version.deleted && 'problem' in read) return [unparseableFinding(version.file, read.problem, previous)]
    const [before, after] = [this.textsOf(published), this.textsOf(published, version)]
    // an overlay that does not resolve is compared with nothing, like a draft that does not parse
    const unresolved = resolveOverlaySet(after).problems.find((p) => p.file === version.file)
    if (unresolved) return [unparseableFinding(version.file, `${unresolved.pointer || '/'}: ${unresolved.message}`, previous)]
    // the differ's findings, an overlay becoming a copy (or back) and the conflicts with overlays, most severe first (a stable sort)
    const rank = { error: 0, warning: 1, note: 2 }
    const overlays = [...overlayStatusFindings(version.file, before.get(version.file), after.get(version.file)), ...overlayConflictFindings(before, after)]
    return [...diffDocumentSets(snapshotsOfTexts(before), snapshotsOfTexts(after)), ...overlays].sort((a, b) => rank[a.severity] - rank[b.severity])
  }

  /** The waivers of regulatory findings (./waivers.ts): scoped, ending, revocable, four-eyes. */
  get waiverBook(): WaiverBook {
    return (this.waiverBookCache ??= new WaiverBook(this.data, this.now))
  }
  private waiverBookCache?: WaiverBook

  /** Rollbacks: four-eyes requests, emergency and automatic ones reviewed after (./rollbacks.ts). */
  get rollbackBook(): RollbackBook {
    return (this.rollbackBookCache ??= new RollbackBook(this, this.data, this.now))
  }
  private rollbackBookCache?: RollbackBook

  // ---- seeding from the files in git ----------------------------------------------------------

  /**
   * Publishes a "seed" version of every file whose content differs from the last one seeded. A
   * seeded file that is no longer in the folder is not dropped silently, nor kept silently: its
   * deletion is proposed as a version in review (diff: "document removed"), and the document stays
   * served until compliance approves it and it is published. A file that comes back withdraws the
   * proposal. Files that never came from the folder (operators' new documents) are not touched.
   * The files are read before the transaction (its body awaits only the database).
   */
  async seed(root: string): Promise<{ seeded: string[]; removed: string[]; problems: DocumentProblem[] }> {
    const seeded: string[] = []
    const problems: DocumentProblem[] = []
    const files = listDocumentFiles(root)
    const texts = new Map(files.map((file) => [file, readFileSync(join(root, file), 'utf8')]))
    const resolved = resolveOverlaySet(texts)
    const at = this.now()
    const removed = await auditedTransaction(this.data, async (audit) => {
      const tx = audit.tx
      // read under the audit lock: two instances starting at once seed a file once
      const known = new Map((await tx.selectFrom('store_seeds').select(['file', 'content_hash']).execute()).map((r) => [r.file, r.content_hash]))
      for (const [file, text] of texts) {
        const hash = contentHash(text)
        if (known.get(file) === hash) continue
        // A file that does not load is not seeded: the store keeps serving its last good version.
        if (!this.loadsIn(file, text, resolved, problems)) continue
        if (known.get(file) === REMOVED_FROM_FILES) await this.withdrawDeletion(audit, file, at)
        const current = await this.publishedVersionOf(file, tx)
        if (current?.contentHash !== hash) {
          const id = await this.insertVersion(tx, file, text, 'seed', 'published', 'seed', current?.id ?? null, at)
          await tx.updateTable('store_versions').set({ published_by: 'seed', published_at: at }).where('id', '=', id).execute()
          await this.point(tx, file, id, current)
          await appendAudit(audit, at, 'seed', 'document.seeded', file, { version: id, contentHash: hash, previous: current?.id ?? null })
          seeded.push(file)
        }
        await this.markSeed(tx, file, hash)
      }
      return this.proposeDeletions(audit, known, new Set(files), at)
    })
    return { seeded, removed, problems }
  }

  /** Seeded files gone from the folder and still published: each becomes a deletion in review. */
  private async proposeDeletions(audit: AuditScope, known: Map<string, string>, present: Set<string>, at: number): Promise<string[]> {
    const removed: string[] = []
    for (const [file, hash] of known) {
      if (present.has(file) || hash === REMOVED_FROM_FILES) continue
      await this.markSeed(audit.tx, file, REMOVED_FROM_FILES)
      const current = await this.publishedVersionOf(file, audit.tx)
      if (!current) continue
      const id = await this.insertVersion(audit.tx, file, '', 'seed', 'in_review', 'seed', current.id, at, true)
      await appendAudit(audit, at, 'seed', 'document.deletion-proposed', file, { version: id, previous: current.id })
      removed.push(file)
    }
    return removed
  }

  /** The file is back in the folder: an open proposal to delete it no longer stands. */
  private async withdrawDeletion(audit: AuditScope, file: string, at: number): Promise<void> {
    const open = await audit.tx
      .selectFrom('store_versions')
      .select('id')
      .where('file', '=', file)
      .where('deleted', '=', 1)
      .where('state', 'in', ['draft', 'in_review', 'approved'])
      .execute()
    for (const { id } of open) {
      await audit.tx.updateTable('store_versions').set({ state: 'withdrawn', updated_at: at }).where('id', '=', id).execute()
      await appendAudit(audit, at, 'seed', 'document.deletion-withdrawn', file, { version: id, reason: 'the file is back in the documents folder' })
    }
  }

  private async markSeed(tx: Executor, file: string, hash: string): Promise<void> {
    await tx
      .insertInto('store_seeds')
      .values({ file, content_hash: hash })
      .onConflict((oc) => oc.column('file').doUpdateSet((eb) => ({ content_hash: eb.ref('excluded.content_hash') })))
      .execute()
  }

  // ---- the review workflow --------------------------------------------------------------------

  async createDraft(actor: string, file: unknown, content: unknown): Promise<StoreResult<DocumentVersion>> {
    if (!validFile(file)) return { ok: false, code: 'INVALID_FILE' }
    if (typeof content !== 'string') return { ok: false, code: 'INVALID_STATE' }
    const at = this.now()
    const base = await this.publishedVersionOf(file)
    if (base && sameDocument(base.content, content)) return { ok: false, code: 'NOTHING_CHANGED' }
    const id = await auditedTransaction(this.data, async (audit) => {
      const id = await this.insertVersion(audit.tx, file, content, 'operator', 'draft', actor, base?.id ?? null, at)
      await appendAudit(audit, at, actor, 'draft.created', file, { version: id, base: base?.id ?? null, contentHash: contentHash(content) })
      return id
    })
    return { ok: true, value: (await this.version(id))! }
  }

  /** A draft that removes a published document: reviewed, approved and published like any change (issue 29 item 7). */
  async createDeletionDraft(actor: string, file: unknown): Promise<StoreResult<DocumentVersion>> {
    if (!validFile(file)) return { ok: false, code: 'INVALID_FILE' }
    const base = await this.publishedVersionOf(file)
    if (!base) return { ok: false, code: 'NOT_FOUND' }
    const at = this.now()
    const id = await auditedTransaction(this.data, async (audit) => {
      const id = await this.insertVersion(audit.tx, file, '', 'operator', 'draft', actor, base.id, at, true)
      await appendAudit(audit, at, actor, 'draft.created', file, { version: id, base: base.id, deleted: true })
      return id
    })
    return { ok: true, value: (await this.version(id))! }
  }

  /**
   * Saves a draft's text. `revision` is the draft revision the save edits: when the draft was saved
   * since (another tab, another device), the save is refused (DRAFT_CONFLICT, audited) with the
   * saved text, who saved it and its revision, so the editor can show it and save again on top.
   */
  async updateDraft(actor: string, id: number, content: string, revision: number): Promise<StoreResult<DocumentVersion>> {
    const version = await this.version(id)
    if (!version) return { ok: false, code: 'NOT_FOUND' }
    if (await this.releaseHolding(id, ['in_review', 'approved'])) return { ok: false, code: 'IN_RELEASE', details: { release: await this.releaseHolding(id) } }
    if (!same(version.author, actor)) return { ok: false, code: 'NOT_AUTHOR' }
    if (version.state !== 'draft' && version.state !== 'rejected') return { ok: false, code: 'INVALID_STATE', details: { state: version.state } }
    const at = this.now()
    const saved = await auditedTransaction(this.data, async (audit) => {
      // A rejected draft that is edited is a draft again; the rejection stays in the audit log.
      const updated = await audit.tx
        .updateTable('store_versions')
        .set({ content, content_hash: contentHash(content), state: 'draft', updated_at: at, reviewed_by: null, reviewed_at: null, lint: null, revision: revision + 1 })
        .where('id', '=', id)
        .where('revision', '=', revision)
        .where('state', 'in', ['draft', 'rejected'])
        .executeTakeFirst()
      if (Number(updated.numUpdatedRows) === 1) {
        await appendAudit(audit, at, actor, 'draft.updated', version.file, { version: id, revision: revision + 1, contentHash: contentHash(content) })
        return undefined
      }
      const current = (await this.version(id, audit.tx))!
      await appendAudit(audit, at, actor, 'draft.save-refused', version.file, { version: id, code: 'DRAFT_CONFLICT', yourRevision: revision, revision: current.revision, reason: 'the draft was saved since the revision this save edits' })
      return current
    })
    if (saved) return { ok: false, code: 'DRAFT_CONFLICT', details: { yourRevision: revision, revision: saved.revision, content: saved.content, savedBy: saved.author, savedAt: saved.updatedAt, state: saved.state } }
    return { ok: true, value: (await this.version(id))! }
  }

  /** Runs the gate against the current published set: the lint, then (when it passes) the
   * server's own checks of the set with the version in place and the render of every page it
   * touches (./publish-check.ts). */
  async check(version: DocumentVersion): Promise<GateFinding[]> {
    return this.checkTogether([version])
  }

  /** The publish checks after the lint (with a lint error, only their regulatory part: nothing is
   * compiled or rendered until the lint passes). */
  private async afterLint(lint: GateFinding[], versions: PublishCheckInput['versions'], gate: { baseline: DocumentRecord[]; waivers: Waiver[] }): Promise<GateFinding[]> {
    const lintFailed = lint.some((f) => f.severity === 'error')
    return [...lint, ...(await publishChecks({ versions, baseline: gate.baseline, waivers: gate.waivers, pages: this.pageCheck, lintFailed }))]
  }

  /** The render of touched pages this server runs in the gate (set once it listens: server/main.ts). */
  usePageCheck(check: PageCheck | undefined): void {
    this.pageCheck = check
  }
  private pageCheck?: PageCheck

  async submit(actor: string, id: number): Promise<StoreResult<DocumentVersion>> {
    const version = await this.version(id)
    if (!version) return { ok: false, code: 'NOT_FOUND' }
    if (await this.releaseHolding(id)) return { ok: false, code: 'IN_RELEASE', details: { release: await this.releaseHolding(id) } }
    if (!same(version.author, actor)) return { ok: false, code: 'NOT_AUTHOR' }
    if (version.state !== 'draft') return { ok: false, code: 'INVALID_STATE', details: { state: version.state } }
    const findings = await this.check(version)
    const errors = findings.filter((f) => f.severity === 'error')
    const at = this.now()
    await auditedTransaction(this.data, async (audit) => {
      if (errors.length > 0) {
        await audit.tx.updateTable('store_versions').set({ lint: JSON.stringify(findings), updated_at: at }).where('id', '=', id).execute()
        await appendAudit(audit, at, actor, 'draft.lint-refused', version.file, { version: id, errors: errors.length, rules: [...new Set(errors.map((e) => e.rule))] })
      } else {
        await audit.tx.updateTable('store_versions').set({ state: 'in_review', lint: JSON.stringify(findings), updated_at: at }).where('id', '=', id).execute()
        await appendAudit(audit, at, actor, 'draft.submitted', version.file, { version: id, warnings: findings.length })
      }
    })
    if (errors.length > 0) return { ok: false, code: 'LINT_FAILED', details: errors }
    return { ok: true, value: (await this.version(id))! }
  }

  async approve(reviewer: string, id: number, comment = ''): Promise<StoreResult<DocumentVersion>> {
    const version = await this.version(id)
    if (!version) return { ok: false, code: 'NOT_FOUND' }
    if (await this.releaseHolding(id)) return { ok: false, code: 'IN_RELEASE', details: { release: await this.releaseHolding(id) } }
    if (same(version.author, reviewer)) {
      await this.audit(reviewer, 'review.self-approval-refused', version.file, { version: id, reason: 'the author cannot approve their own version' })
      return { ok: false, code: 'SELF_APPROVAL' }
    }
    if (version.state !== 'in_review') return { ok: false, code: 'INVALID_STATE', details: { state: version.state } }
    // The published set may have moved since the submit: the gate runs again.
    const errors = (await this.check(version)).filter((f) => f.severity === 'error')
    if (errors.length > 0) return { ok: false, code: 'LINT_FAILED', details: errors }
    const at = this.now()
    const approved = await auditedTransaction(this.data, async (audit) => {
      // A parallel approval or a withdrawal won the race while the gate ran.
      if ((await this.version(id, audit.tx))?.state !== 'in_review') return false
      await audit.tx.updateTable('store_versions').set({ state: 'approved', reviewed_by: reviewer, reviewed_at: at, review_comment: comment, updated_at: at }).where('id', '=', id).execute()
      // The approved findings' fingerprints: `schema-lint diff --approved` accepts them on later commits.
      const fingerprints = (await this.diff(version, audit.tx)).map((f) => f.fingerprint)
      await appendAudit(audit, at, reviewer, 'review.approved', version.file, { version: id, author: version.author, comment, fingerprints })
      return true
    })
    if (!approved) return { ok: false, code: 'INVALID_STATE', details: { state: (await this.version(id))?.state } }
    return { ok: true, value: (await this.version(id))! }
  }

  async reject(reviewer: string, id: number, comment: string): Promise<StoreResult<DocumentVersion>> {
    const version = await this.version(id)
    if (!version) return { ok: false, code: 'NOT_FOUND' }
    if (await this.releaseHolding(id)) return { ok: false, code: 'IN_RELEASE', details: { release: await this.releaseHolding(id) } }
    if (same(version.author, reviewer)) {
      await this.audit(reviewer, 'review.self-rejection-refused', version.file, { version: id, reason: 'the author cannot review their own version' })
      return { ok: false, code: 'SELF_APPROVAL' }
    }
    if (version.state !== 'in_review' && version.state !== 'approved') return { ok: false, code: 'INVALID_STATE', details: { state: version.state } }
    const at = this.now()
    await auditedTransaction(this.data, async (audit) => {
      await audit.tx.updateTable('store_versions').set({ state: 'rejected', reviewed_by: reviewer, reviewed_at: at, review_comment: comment, updated_at: at }).where('id', '=', id).execute()
      await appendAudit(audit, at, reviewer, 'review.rejected', version.file, { version: id, author: version.author, comment })
    })
    return { ok: true, value: (await this.version(id))! }
  }

  async withdraw(actor: string, id: number): Promise<StoreResult<DocumentVersion>> {
    const version = await this.version(id)
    if (!version) return { ok: false, code: 'NOT_FOUND' }
    if (await this.releaseHolding(id)) return { ok: false, code: 'IN_RELEASE', details: { release: await this.releaseHolding(id) } }
    if (!same(version.author, actor)) return { ok: false, code: 'NOT_AUTHOR' }
    if (!['draft', 'in_review', 'approved', 'rejected'].includes(version.state)) return { ok: false, code: 'INVALID_STATE', details: { state: version.state } }
    const at = this.now()
    await auditedTransaction(this.data, async (audit) => {
      await audit.tx.updateTable('store_versions').set({ state: 'withdrawn', updated_at: at }).where('id', '=', id).execute()
      await appendAudit(audit, at, actor, 'draft.withdrawn', version.file, { version: id })
    })
    return { ok: true, value: (await this.version(id))! }
  }

  async publish(actor: string, id: number): Promise<StoreResult<DocumentVersion>> {
    const version = await this.version(id)
    if (!version) return { ok: false, code: 'NOT_FOUND' }
    if (await this.releaseHolding(id)) return { ok: false, code: 'IN_RELEASE', details: { release: await this.releaseHolding(id) } }
    const refuse = async (code: StoreErrorCode, reason: string, details: Record<string, unknown>): Promise<StoreResult<DocumentVersion>> => {
      await this.audit(actor, 'publish.refused', version.file, { version: id, code, reason, ...details })
      return { ok: false, code, details }
    }
    if (version.state !== 'approved') return refuse('NOT_APPROVED', 'the version is not approved', { state: version.state })
    // Four-eyes, again at the last step: the approval must come from someone other than the author.
    if (!version.reviewedBy || same(version.reviewedBy, version.author)) return refuse('SELF_APPROVAL', 'not approved by a second person', {})
    const current = await this.publishedVersionOf(version.file)
    if ((current?.id ?? null) !== version.baseVersion) return refuse('STALE_DRAFT', 'the published document moved on since the draft was made', { base: version.baseVersion, published: current?.id ?? null })
    const result = await this.goLive(actor, version, current, 'document.published', version.id)
    if (result.ok) this.announce({ subject: `version/${id}`, versions: [result.value], author: version.author, approvedBy: version.reviewedBy, at: this.now() })
    return result
  }

  /** Tells the publish watch (./publish-watch.ts) that versions went live by a publish (never a
   * rollback or a seed). Its work runs after the answer; a failure there is logged, not thrown. */
  announce(event: PublishEvent): void {
    for (const listener of this.publishListeners) listener(event)
  }
  onPublished(listener: (event: PublishEvent) => void): () => void {
    this.publishListeners.add(listener)
    return () => this.publishListeners.delete(listener)
  }
  private readonly publishListeners = new Set<(event: PublishEvent) => void>()

  /**
   * Puts back what a published version replaced: its base version, or no document when it added
   * the file. Refused (STALE_DRAFT) when the file has moved on since; the gate applies.
   */
  async undo(actor: string, versionId: number): Promise<StoreResult<DocumentVersion>> {
    const version = await this.version(versionId)
    if (!version || version.publishedAt === null) return { ok: false, code: 'NOT_FOUND' }
    const current = await this.publishedVersionOf(version.file)
    if ((current?.id ?? null) !== (version.deleted ? null : version.id)) return { ok: false, code: 'STALE_DRAFT', details: { file: version.file, published: current?.id ?? null } }
    if (version.baseVersion !== null) return this.rollback(actor, version.file, version.baseVersion)
    const id = await this.insertVersion(this.data.db, version.file, '', 'rollback', 'approved', actor, current?.id ?? null, this.now(), true)
    const result = await this.goLive(actor, (await this.version(id))!, current, 'document.rolled-back', id, { to: null })
    if (!result.ok) await this.data.db.updateTable('store_versions').set({ state: 'withdrawn' }).where('id', '=', id).execute()
    return result
  }

  /** Puts an earlier published version of a file live again, as a new version (lint gate applies).
   * `alongside` runs in the transaction that makes it live (a rollback's own record: ./rollbacks.ts). */
  async rollback(actor: string, file: string, toVersionId: number, alongside?: Alongside): Promise<StoreResult<DocumentVersion>> {
    const target = await this.version(toVersionId)
    if (!target || target.file !== file || target.publishedAt === null) return { ok: false, code: 'NOT_FOUND' }
    const current = await this.publishedVersionOf(file)
    if (current && !target.deleted && current.contentHash === target.contentHash) return { ok: false, code: 'NOTHING_CHANGED' }
    if (!current && target.deleted) return { ok: false, code: 'NOTHING_CHANGED' }
    const at = this.now()
    const id = await this.insertVersion(this.data.db, file, target.content, 'rollback', 'approved', actor, current?.id ?? null, at, target.deleted)
    const result = await this.goLive(actor, (await this.version(id))!, current, 'document.rolled-back', id, { to: toVersionId }, alongside)
    if (!result.ok) await this.data.db.updateTable('store_versions').set({ state: 'withdrawn' }).where('id', '=', id).execute()
    return result
  }

  private async goLive(actor: string, version: DocumentVersion, current: DocumentVersion | undefined, action: string, id: number, extra: Record<string, unknown> = {}, alongside?: Alongside): Promise<StoreResult<DocumentVersion>> {
    const findings = await this.check(version)
    const errors = findings.filter((f) => f.severity === 'error')
    if (errors.length > 0) {
      await this.audit(actor, `${action}.lint-refused`, version.file, { version: id, rules: [...new Set(errors.map((e) => e.rule))] })
      return { ok: false, code: 'LINT_FAILED', details: errors }
    }
    const at = this.now()
    try {
      await auditedTransaction(this.data, async (audit) => {
        const tx = audit.tx
        // The gate ran asynchronously: refuse if another publish moved the file meanwhile.
        if (((await this.publishedVersionOf(version.file, tx))?.id ?? null) !== (current?.id ?? null) || (await this.version(id, tx))?.state !== 'approved')
          throw Object.assign(new Error('stale'), { stale: true })
        await tx.updateTable('store_versions').set({ state: 'published', published_by: actor, published_at: at, updated_at: at }).where('id', '=', id).execute()
        await this.point(tx, version.file, id, current, version.deleted)
        await appendAudit(audit, at, actor, action, version.file, { version: id, previous: current?.id ?? null, author: version.author, approvedBy: version.reviewedBy, ...(version.deleted ? { deleted: true } : {}), ...extra })
        await alongside?.(audit, id, at)
        // Served inside the transaction: if the server refuses the set, nothing is recorded.
        await this.installFrom(tx)
      })
    } catch (error) {
      if ((error as { stale?: boolean }).stale) return { ok: false, code: 'STALE_DRAFT' }
      if (isStorageUnavailable(error)) throw error
      return { ok: false, code: 'SET_INVALID', details: (error as { problems?: unknown }).problems ?? String(error) }
    }
    return { ok: true, value: (await this.version(id))! }
  }

  /** Every fingerprint compliance approved (from the audit log), for `schema-lint diff --approved`. */
  async approvedFingerprints(): Promise<string[]> {
    const out = new Set<string>()
    for (const details of await auditDetailsOf(this.data, 'review.approved')) for (const f of (JSON.parse(details) as { fingerprints?: string[] }).fingerprints ?? []) out.add(f)
    return [...out]
  }

  async audit(actor: string, action: string, subject: string, details: Record<string, unknown> = {}): Promise<void> {
    await audit(this.data, this.now(), actor, action, subject, details)
  }

  // ---- releases (server/store/releases.ts): several versions go live together ----------------

  /** The open release (draft, in review or approved) a version belongs to, if any. */
  async releaseHolding(versionId: number, states: ReleaseTable['state'][] = ['draft', 'in_review', 'approved'], tx: Executor = this.data.db): Promise<number | undefined> {
    const row = await tx
      .selectFrom('store_release_items as i')
      .innerJoin('store_releases as r', 'r.id', 'i.release_id')
      .select('r.id')
      .where('i.version_id', '=', versionId)
      .where('r.state', 'in', states)
      .executeTakeFirst()
    return row?.id
  }

  /** The served records the published set would have with every one of these versions live. */
  async recordsWithAll(versions: DocumentVersion[]): Promise<{ records: DocumentRecord[]; problems: DocumentProblem[] }> {
    return this.recordsOf(textsWith(new Map([...(await this.published())].map(([file, v]) => [file, v.content])), versions))
  }

  /** The served records of a set of texts: overlays resolved, bases left out (kernel/documents/overlay-set.ts). */
  private recordsOf(texts: Map<string, string>): { records: DocumentRecord[]; problems: DocumentProblem[] } {
    return readDocumentSet(new Map([...texts].sort(([a], [b]) => a.localeCompare(b))))
  }

  /** The lint gate of a release: the published set with every one of these versions in place
   * (a flow may use a popup the same release adds). Overlays resolved first (overlay-gate.ts): the
   * gate sees each site's resolved documents the change touches, and the conflicts come after. */
  async checkTogether(versions: DocumentVersion[]): Promise<GateFinding[]> {
    const published = new Map([...(await this.published())].map(([file, v]) => [file, v.content]))
    const effects = overlayEffects(published, versions)
    if (effects.problems.length > 0) return effects.problems
    const gate = await this.gateBaseline()
    const lint = await lintReleaseGate({ versions: effects.versions, ...gate })
    // the served documents the change makes (overlays resolved), still a rollback when every version is one
    const origin = versions.every((v) => v.origin === 'rollback') ? 'rollback' : undefined
    const served = effects.versions.map((v) => ({ ...v, origin }))
    return [...(await this.afterLint(lint, served, gate)), ...effects.conflicts]
  }

  /**
   * What every gate compares against: the published set, the approved waivers and the set's own
   * findings. The findings change only when the set (or a waiver) does, so they are one lint run
   * per published state, not one per gate (the version lint route ran two full lints a call).
   */
  private async gateBaseline(): Promise<{ baseline: DocumentRecord[]; waivers: Waiver[]; baselineFindings: Promise<GateFinding[]> }> {
    const published = await this.published()
    const baseline = this.recordsOf(new Map([...published].map(([file, v]) => [file, v.content]))).records
    const waivers = await this.waiverBook.active()
    const key = `${[...published.values()].map((v) => v.id).join(',')}|${JSON.stringify(waivers)}`
    if (this.baselineFindings?.key !== key) {
      const findings = findingsOf(baseline, waivers)
      this.baselineFindings = { key, findings }
      findings.catch(() => {
        if (this.baselineFindings?.findings === findings) this.baselineFindings = undefined
      })
    }
    return { baseline, waivers, baselineFindings: this.baselineFindings.findings }
  }
  private baselineFindings?: { key: string; findings: Promise<GateFinding[]> }

  /** A new version that restores earlier content (a release's rollback); approved, not yet live. */
  insertRestoringVersion(tx: Executor, actor: string, file: string, content: string, deleted: boolean, base: number | null): Promise<number> {
    return this.insertVersion(tx, file, content, 'rollback', 'approved', actor, base, this.now(), deleted)
  }

  /**
   * Puts several approved versions live in ONE transaction with ONE install of the served set:
   * each file must still have the published version it was built on (else STALE_DRAFT), and if
   * the server refuses the set nothing is recorded. `inside` runs in the same transaction (the
   * release's own row and audit entry). Inside a caller's audited transaction (`within`), a refusal
   * throws, with the result, so the caller's transaction rolls back whole.
   */
  async goLiveTogether(actor: string, versions: DocumentVersion[], audit: Record<string, unknown>, inside: (scope: AuditScope) => Promise<void>, within?: AuditScope): Promise<StoreResult<DocumentVersion[]>> {
    const at = this.now()
    const body = async (scope: AuditScope) => {
      const tx = scope.tx
      const stale: string[] = []
      for (const v of versions) if (((await this.publishedVersionOf(v.file, tx))?.id ?? null) !== v.baseVersion) stale.push(v.file)
      if (stale.length > 0) throw Object.assign(new Error('stale'), { stale })
      for (const version of versions) {
        const current = await this.publishedVersionOf(version.file, tx)
        await tx.updateTable('store_versions').set({ state: 'published', published_by: actor, published_at: at, updated_at: at }).where('id', '=', version.id).execute()
        await this.point(tx, version.file, version.id, current, version.deleted)
        await appendAudit(scope, at, actor, 'document.published', version.file, { version: version.id, previous: current?.id ?? null, author: version.author, ...(version.deleted ? { deleted: true } : {}), ...audit })
      }
      await inside(scope)
      await this.installFrom(tx)
    }
    try {
      if (within) await body(within)
      else await auditedTransaction(this.data, body)
    } catch (error) {
      const result = refusalOf(error)
      if (!result) throw error
      if (within) throw Object.assign(new Error('refused'), { result })
      return result
    }
    // inside the caller's transaction its reads go through it (on SQLite the layer's one connection is the transaction's)
    return { ok: true, value: await Promise.all(versions.map(async (v) => (await this.version(v.id, within?.tx))!)) }
  }

  /** Sets the state of versions moving with their release (inside the release's transaction). */
  async setStates(tx: Executor, ids: number[], state: VersionState, review?: { by: string; comment: string }): Promise<void> {
    const at = this.now()
    for (const id of ids) {
      if (review) await tx.updateTable('store_versions').set({ state, reviewed_by: review.by, reviewed_at: at, review_comment: review.comment, updated_at: at }).where('id', '=', id).execute()
      else await tx.updateTable('store_versions').set({ state, updated_at: at }).where('id', '=', id).execute()
    }
  }

  // ---- internals ------------------------------------------------------------------------------

  private read(file: string, text: string, problems: DocumentProblem[]): DocumentRecord | null {
    return readDocument(file, text, problems) // parsed once per file and text (the loader remembers)
  }

  /** Whether a file of the documents folder loads: an overlay resolved, a base only parsed (it is not served by itself). */
  private loadsIn(file: string, text: string, resolved: ResolvedSet, problems: DocumentProblem[]): boolean {
    const failed = resolved.problems.filter((p) => p.file === file)
    problems.push(...failed)
    if (failed.length > 0) return false
    return isBaseFile(file) || !!this.read(file, resolved.texts.get(file) ?? text, problems)
  }

  private async insertVersion(tx: Executor, file: string, content: string, origin: DocumentVersion['origin'], state: VersionState, author: string, base: number | null, at: number, deleted = false): Promise<number> {
    const row = await tx
      .insertInto('store_versions')
      .values({ file, content, content_hash: contentHash(content), origin, state, author, base_version: base, created_at: at, updated_at: at, deleted: deleted ? 1 : 0 })
      .returning('id')
      .executeTakeFirstOrThrow()
    return row.id
  }

  private async point(tx: Executor, file: string, id: number, previous: DocumentVersion | undefined, deleted = false): Promise<void> {
    if (previous) await tx.updateTable('store_versions').set({ state: 'superseded' }).where('id', '=', previous.id).execute()
    if (deleted) return void (await tx.deleteFrom('store_published').where('file', '=', file).execute())
    await tx
      .insertInto('store_published')
      .values({ file, version_id: id })
      .onConflict((oc) => oc.column('file').doUpdateSet((eb) => ({ version_id: eb.ref('excluded.version_id') })))
      .execute()
  }
}

/** A go-live refused (a file moved meanwhile, or the server refused the set) as a store result; undefined for a storage outage (503). */
function refusalOf(error: unknown): StoreResult<never> | undefined {
  const e = error as { stale?: string[]; problems?: unknown; result?: StoreResult<never> } | null
  if (e?.result) return e.result
  if (e?.stale) return { ok: false, code: 'STALE_DRAFT', details: { files: e.stale } }
  if (isStorageUnavailable(error)) return undefined
  return { ok: false, code: 'SET_INVALID', details: e?.problems ?? String(error) }
}

export { variantOf }
