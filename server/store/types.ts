/**
 * The document store's shared shapes: a version, a publish event, a store result, the release
 * table, where statements run, and what the release and rollback books need of the store
 * (BookStore, which DocumentStore implements). Their own file so store.ts and the books it makes
 * (releases.ts, rollbacks.ts, waivers.ts) import them without importing each other.
 */
import type { Generated, Kysely, Transaction } from 'kysely'
import type { DataLayer } from '../db/data-layer'
import type { Tables } from '../db/tables'
import type { DiffFinding } from '../../tools/schema-lint'
import type { AuditScope } from './audit'
import type { GateFinding } from './lint-gate'

export const RELEASE_ORIGINS = ['operator', 'rollback'] as const
export const RELEASE_STATES = ['draft', 'in_review', 'approved', 'rejected', 'published', 'withdrawn'] as const

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
  /** The draft's revision (1 when made; each save adds one): a save names it. */
  revision: number
}

/** Versions that went live together by a publish (a version, or a release's). */
export interface PublishEvent {
  /** `version/<id>` or `release/<id>`: what the watch rolls back. */
  subject: string
  versions: DocumentVersion[]
  author: string
  approvedBy: string | null
  at: number
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
  | 'DRAFT_CONFLICT'

export interface ReleaseTable {
  id: Generated<number>
  title: string
  origin: (typeof RELEASE_ORIGINS)[number]
  state: (typeof RELEASE_STATES)[number]
  author: string
  created_at: number
  updated_at: number
  reviewed_by: string | null
  reviewed_at: number | null
  review_comment: string | null
  scheduled_at: number | null
  schedule_zone: string | null
  schedule_local: string | null
  scheduled_by: string | null
  published_by: string | null
  published_at: number | null
  rollback_of: number | null
  rolled_back_by: number | null
  lint: string | null
}

/** Work done in the transaction that puts a version live (its id, the moment). */
export type Alongside = (audit: AuditScope, versionId: number, at: number) => Promise<void>

/** Where a store's statements run: the layer's database, or the transaction they belong to. */
export type Executor = Kysely<Tables> | Transaction<Tables>

/** What the release and rollback books call on the document store (DocumentStore implements it). */
export interface BookStore {
  readonly data: DataLayer
  version(id: number, tx?: Executor): Promise<DocumentVersion | undefined>
  publishedVersionOf(file: string, tx?: Executor): Promise<DocumentVersion | undefined>
  diff(version: DocumentVersion, tx?: Executor): Promise<DiffFinding[]>
  announce(event: PublishEvent): void
  rollback(actor: string, file: string, toVersionId: number, alongside?: Alongside): Promise<StoreResult<DocumentVersion>>
  audit(actor: string, action: string, subject: string, details?: Record<string, unknown>): Promise<void>
  releaseHolding(versionId: number, states?: ReleaseTable['state'][], tx?: Executor): Promise<number | undefined>
  checkTogether(versions: DocumentVersion[]): Promise<GateFinding[]>
  insertRestoringVersion(tx: Executor, actor: string, file: string, content: string, deleted: boolean, base: number | null): Promise<number>
  goLiveTogether(actor: string, versions: DocumentVersion[], audit: Record<string, unknown>, inside: (scope: AuditScope) => Promise<void>, within?: AuditScope): Promise<StoreResult<DocumentVersion[]>>
  setStates(tx: Executor, ids: number[], state: VersionState, review?: { by: string; comment: string }): Promise<void>
}
