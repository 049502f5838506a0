/**
 * The append-only, hash-chained audit log. Each entry stores the previous entry's hash and its own
 * hash: an HMAC (under a key the database does not hold) over the previous hash and the entry's
 * canonical JSON, so changing, deleting or reordering any entry breaks the chain from that entry
 * on, and recomputing the chain needs the key. An anchor file beside the database records the
 * count and the head (see audit-anchor.ts), so a removed tail is caught too, and signed checkpoints
 * (audit-checkpoint.ts) carry the head out of reach of whoever can rewrite the database and the folder
 * together. Opening the log at start, and accepting one explicitly, is audit-open.ts. Triggers (SQLite's, and
 * a plpgsql one on PostgreSQL) refuse UPDATE and DELETE; the chain and the anchor catch whoever
 * goes around them.
 *
 * On the query layer (issue 16): "read the last hash, then append" runs inside the change's
 * transaction, serialised by the database (`serialiseOn: 'audit'`: an advisory lock on PostgreSQL,
 * BEGIN IMMEDIATE on SQLite), so instances sharing one database keep ONE chain.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto'
import { sql, type Kysely, type Transaction } from 'kysely'
import type { DataLayer } from '../db/data-layer'
import { schemaStep, sqliteHistory } from '../db/schema'
import type { Tables } from '../db/tables'
import { readAnchor, writeAnchor, type AnchorRead, type AnchorState, type DatabaseIdentity } from './audit-anchor'
import { signCheckpoint } from './audit-checkpoint'
import type { AuditLogTable, AuditRow, AuditVerification } from './audit-types'
import { databaseIdentity } from '../db/identity'

export const sqlite100AuditLog = sqliteHistory(
  '100-audit-log',
  `CREATE TABLE audit_log (
     seq INTEGER PRIMARY KEY,
     at INTEGER NOT NULL,
     actor TEXT NOT NULL,
     action TEXT NOT NULL,
     subject TEXT NOT NULL,
     details TEXT NOT NULL,
     prev_hash TEXT NOT NULL,
     hash TEXT NOT NULL
   );
   CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
   CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;`,
)

declare module '../db/tables' {
  interface Tables {
    audit_log: AuditLogTable
  }
}

const APPEND_ONLY = 'the audit log is append-only'

export const q030AuditLog = schemaStep('q030-audit-log', async (db, engine) => {
  await db.schema
    .createTable('audit_log')
    .ifNotExists()
    .addColumn('seq', 'bigint', (c) => c.primaryKey())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('prev_hash', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .execute()
  // the append-only rule, as each engine writes a trigger (SQLite files have theirs from 100-audit-log)
  if (engine === 'postgres') {
    await sql`CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION ${sql.lit(APPEND_ONLY)}; END $$`.execute(db)
    await sql`CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`.execute(db)
  } else {
    await sql`CREATE TRIGGER IF NOT EXISTS audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, ${sql.lit(APPEND_ONLY)}); END`.execute(db)
    await sql`CREATE TRIGGER IF NOT EXISTS audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, ${sql.lit(APPEND_ONLY)}); END`.execute(db)
  }
})

export const GENESIS_HASH = '0'.repeat(64)

export interface AuditEntry {
  seq: number
  at: number
  actor: string
  action: string
  subject: string
  details: Record<string, unknown>
  prevHash: string
  hash: string
}

export type { AuditRow } from './audit-types'

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`
  return JSON.stringify(value) ?? 'null'
}

/** How the log of one database is chained and anchored. */
export interface AuditChain {
  key: Buffer
  /** Entries 1..legacyEntries predate the key: plain SHA-256 links. */
  legacyEntries: number
  /** Where the anchor lives; null for an in-memory database (tests) or a tool that keeps none: no anchor. */
  dataDir: string | null
  /** The database the anchor is kept for (null only without an anchor). */
  database: DatabaseIdentity | null
  committed: AnchorState
  settling?: Promise<void>
  settleAgain?: boolean
}

const chains = new WeakMap<DataLayer, AuditChain>()

/** One audited transaction: where its entries go, and the head they moved the chain to. */
export interface AuditScope {
  readonly tx: Transaction<Tables>
  readonly data: DataLayer
  pending: AnchorState | null
}

export class AuditLogError extends Error {
  override name = 'AuditLogError'
}

/** Entry n's hash: HMAC-SHA256 under the key, or SHA-256 for entries written before the key. */
export function entryHash(key: Buffer | null, prevHash: string, entry: { seq: number; at: number; actor: string; action: string; subject: string; details: string }): string {
  const body = canonical({ seq: entry.seq, at: entry.at, actor: entry.actor, action: entry.action, subject: entry.subject, details: entry.details })
  const mac = key ? createHmac('sha256', key) : createHash('sha256')
  return mac.update(prevHash).update('\n').update(body).digest('hex')
}

type Reader = Kysely<Tables> | Transaction<Tables>

export async function headOf(db: Reader): Promise<AnchorState> {
  const last = await db.selectFrom('audit_log').select(['seq', 'hash']).orderBy('seq', 'desc').limit(1).executeTakeFirst()
  return { entries: last?.seq ?? 0, head: last?.hash ?? GENESIS_HASH }
}

/** The chain of a data layer the server did not open with `openAuditLog` (unit tests): a random key, no anchor. */
function chainOf(data: DataLayer): AuditChain {
  let chain = chains.get(data)
  if (!chain) {
    chain = { key: randomBytes(32), legacyEntries: 0, dataDir: null, database: null, committed: { entries: 0, head: GENESIS_HASH } }
    chains.set(data, chain)
  }
  return chain
}

/** The log of this data layer is chained (and anchored) as `chain` from now on (audit-open.ts). */
export function takeOverChain(data: DataLayer, chain: AuditChain): void {
  chains.set(data, chain)
  saveAnchor(chain, null)
}

function saveAnchor(chain: AuditChain, pending: AnchorState | null): void {
  if (chain.dataDir && chain.database) writeAnchor(chain.dataDir, chain.key, { database: chain.database, committed: chain.committed, pending, legacyEntries: chain.legacyEntries })
}

/**
 * After a commit: the anchor records the head, read under the audit lock, so a late write of one
 * instance never puts an older head over a newer one another instance wrote. One settle at a time
 * per chain (a burst of writes settles once or twice, not once each: each holds a connection).
 * Until it lands, the anchor's pending state (written before the commit) covers the new head.
 */
function settle(data: DataLayer, chain: AuditChain): void {
  if (!chain.dataDir) return
  if (chain.settling) return void (chain.settleAgain = true)
  chain.settling = data
    .transaction(async (tx) => {
      const head = await headOf(tx)
      // never backwards: a log shortened under a running server is refused by its next append
      if (head.entries >= chain.committed.entries) chain.committed = head
      saveAnchor(chain, null)
    }, { serialiseOn: 'audit' })
    .catch(() => {}) // the next audited write or start-up catches the anchor up
    .finally(() => {
      chain.settling = undefined
      if (chain.settleAgain) (chain.settleAgain = false), settle(data, chain)
    })
}

/**
 * Runs `work` in one transaction whose audit appends are anchored: the anchor is written with the
 * new state pending before the commit, and with it committed after. Store changes that append
 * audit entries run through here; the transaction is serialised on 'audit' (one chain however many
 * instances write). The body awaits only the database (server/db/README.md).
 */
export async function auditedTransaction<T>(data: DataLayer, work: (audit: AuditScope) => Promise<T>, options: { serialiseOn?: string[] } = {}): Promise<T> {
  const chain = chainOf(data)
  let scope: AuditScope | undefined
  const result = await data.transaction(
    async (tx) => {
      scope = { tx, data, pending: null }
      const value = await work(scope)
      if (scope.pending) saveAnchor(chain, scope.pending)
      return value
    },
    { serialiseOn: ['audit', ...(options.serialiseOn ?? [])] },
  )
  if (scope?.pending) {
    if (scope.pending.entries > chain.committed.entries) chain.committed = scope.pending
    settle(data, chain)
  }
  return result
}

/** Appends one entry inside the transaction of the change it records (`auditedTransaction`). */
export async function appendAudit(audit: AuditScope, at: number, actor: string, action: string, subject: string, details: Record<string, unknown> = {}): Promise<AuditEntry> {
  const chain = chainOf(audit.data)
  const last = await headOf(audit.tx)
  if (last.entries < chain.committed.entries)
    throw new AuditLogError(
      `the audit log has ${last.entries} entries but this server anchored ${chain.committed.entries}: entries ${last.entries + 1}–${chain.committed.entries} were removed while it ran; it appends nothing more (a restart verifies the log and refuses it)`,
    )
  // the head before this transaction may be another instance's entry: the anchor's committed state is it
  if (!audit.pending) chain.committed = last
  const seq = last.entries + 1
  const prevHash = last.head
  const detailText = canonical(details)
  const hash = entryHash(chain.key, prevHash, { seq, at, actor, action, subject, details: detailText })
  await audit.tx.insertInto('audit_log').values({ seq, at, actor, action, subject, details: detailText, prev_hash: prevHash, hash }).execute()
  audit.pending = { entries: seq, head: hash }
  return { seq, at, actor, action, subject, details, prevHash, hash }
}

/** One entry in a transaction of its own (a refusal, a record with no change beside it). */
export function audit(data: DataLayer, at: number, actor: string, action: string, subject: string, details: Record<string, unknown> = {}): Promise<AuditEntry> {
  return auditedTransaction(data, (scope) => appendAudit(scope, at, actor, action, subject, details))
}

export async function listAudit(data: DataLayer, options: { limit?: number; before?: number } = {}): Promise<AuditEntry[]> {
  const rows = await data.db
    .selectFrom('audit_log')
    .selectAll()
    .where('seq', '<', options.before ?? Number.MAX_SAFE_INTEGER)
    .orderBy('seq', 'desc')
    .limit(Math.min(options.limit ?? 100, 500))
    .execute()
  return rows.map((r) => ({ seq: r.seq, at: r.at, actor: r.actor, action: r.action, subject: r.subject, details: JSON.parse(r.details), prevHash: r.prev_hash, hash: r.hash }))
}

/** Every entry's details of one action, oldest first (e.g. the fingerprints compliance approved). */
export async function auditDetailsOf(data: DataLayer, action: string): Promise<string[]> {
  const rows = await data.db.selectFrom('audit_log').select('details').where('action', '=', action).orderBy('seq').execute()
  return rows.map((r) => r.details)
}

/** The whole log, oldest first, read in pages (the walk below checks it entry by entry). */
export async function auditRows(db: Reader): Promise<AuditRow[]> {
  const rows: AuditRow[] = []
  for (;;) {
    const page = await db.selectFrom('audit_log').selectAll().where('seq', '>', rows.at(-1)?.seq ?? 0).orderBy('seq').limit(5_000).execute()
    rows.push(...page)
    if (page.length < 5_000) return rows
  }
}

export type { AuditVerification } from './audit-types'

/**
 * Walks the chain from the first entry; names the first entry whose link or hash is wrong.
 * `anchoredEntries`: also keeps the head after that many entries (`headAt`), so a check against an
 * anchor of that length needs no second pass over the rows.
 */
export function walkChain(rows: Iterable<AuditRow>, key: Buffer, legacyEntries: number, anchoredEntries = 0): AuditVerification & { headAt?: string } {
  let prev = GENESIS_HASH
  let expectedSeq = 1
  let count = 0
  let headAt: string | undefined
  for (const row of rows) {
    count++
    if (row.seq !== expectedSeq) return { ok: false, entries: count, firstBadSeq: row.seq, reason: `entry ${expectedSeq} is missing (next is ${row.seq})` }
    if (row.prev_hash !== prev) return { ok: false, entries: count, firstBadSeq: row.seq, reason: 'does not link to the previous entry' }
    const hash = entryHash(row.seq <= legacyEntries ? null : key, prev, row)
    if (hash !== row.hash) return { ok: false, entries: count, firstBadSeq: row.seq, reason: 'content does not match its hash (rewritten, or chained without the audit key)' }
    prev = row.hash
    if (row.seq === anchoredEntries) headAt = prev
    expectedSeq++
  }
  return { ok: true, entries: count, head: prev, anchored: false, headAt }
}

/**
 * The chain (its rows, oldest first) checked entry by entry, then its end checked against the anchor
 * (null: no anchor kept). `shared`: the log lives in a database several instances write (PostgreSQL),
 * so entries past this folder's anchor are another instance's — accepted when every one of them
 * carries the audit key's hash; a log shorter than the anchor, or another head at its length, still fails.
 */
export function verifyAuditChain(rows: Iterable<AuditRow>, key: Buffer, anchor: AnchorRead | null, options: { shared?: boolean } = {}): AuditVerification {
  if (anchor?.status === 'altered') return { ok: false, entries: 0, firstBadSeq: 0, reason: anchor.reason }
  const anchored = anchor?.status === 'ok' ? anchor.record : undefined
  const { headAt, ...walked } = walkChain(rows, key, anchored?.legacyEntries ?? 0, anchored?.committed.entries)
  if (!walked.ok || anchor === null) return walked
  const { entries, head } = walked
  if (anchor.status === 'missing')
    return entries === 0 ? { ...walked, anchored: true } : { ok: false, entries, firstBadSeq: 0, reason: 'this database has no audit anchor in the data folder: the end of the log cannot be checked' }
  const states = [anchor.record.committed, ...(anchor.record.pending ? [anchor.record.pending] : [])]
  if (states.some((s) => s.entries === entries && s.head === head)) return { ...walked, anchored: true }
  const fewest = Math.min(...states.map((s) => s.entries))
  const most = Math.max(...states.map((s) => s.entries))
  if (entries < fewest)
    return { ok: false, entries, firstBadSeq: entries + 1, reason: `the log ends at entry ${entries} but the anchor records ${fewest}: entries ${entries + 1}–${fewest} were removed` }
  if (entries > most && options.shared && anchoredPrefixHolds(anchor.record.committed, most, headAt)) return { ...walked, anchored: true }
  if (entries > most) return { ok: false, entries, firstBadSeq: most + 1, reason: `entries ${most + 1}–${entries} are not covered by the anchor (written around the server)` }
  return { ok: false, entries, firstBadSeq: entries, reason: `the last entry's hash is not the head the anchor records` }
}

/**
 * On a shared log: the entry at the anchored length still has the anchored head (nothing this
 * instance anchored was rewritten). `headAt`: that entry's hash, kept by the walk.
 */
function anchoredPrefixHolds(committed: AnchorState, most: number, headAt: string | undefined): boolean {
  if (committed.entries !== most) return true // a pending state was the longest: its entries were walked above
  return committed.entries === 0 || headAt === committed.head
}

/** Several instances share the log only on PostgreSQL (SQLite: one file, one writer's anchor). */
export const sharedLog = (data: DataLayer) => data.engine === 'postgres'

/** The log of a data layer the server opened (or of a test's in-memory one). */
export async function verifyAudit(data: DataLayer): Promise<AuditVerification> {
  const chain = chainOf(data)
  const anchor = chain.dataDir && chain.database ? readAnchor(chain.dataDir, chain.key, chain.database) : null
  return verifyAuditChain(await auditRows(data.db), chain.key, anchor, { shared: sharedLog(data) })
}

/** The log's head now, signed with the audit key: what an admin session shows and downloads. */
export async function currentCheckpoint(data: DataLayer, now: number): Promise<Record<string, unknown>> {
  const chain = chainOf(data)
  const head = await headOf(data.db)
  const database = chain.database ?? (await databaseIdentity(data))
  return signCheckpoint(chain.key, { database, ...head, at: now })
}
