/**
 * The append-only, hash-chained audit log. Each entry stores the previous entry's hash and its own
 * hash: an HMAC (under a key the database does not hold) over the previous hash and the entry's
 * canonical JSON, so changing, deleting or reordering any entry breaks the chain from that entry
 * on, and recomputing the chain needs the key. An anchor file beside the database records the
 * count and the head (see audit-anchor.ts), so a removed tail is caught too. SQLite triggers
 * refuse UPDATE and DELETE; the chain and the anchor catch whoever goes around them.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto'
import { registerMigration, type Db } from '../db/database'
import { AUDIT_ANCHOR_FILE, loadAuditKey, readAnchor, writeAnchor, type AnchorRead, type AnchorState, type AuditKey } from './audit-anchor'

registerMigration(
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

interface AuditRow {
  seq: number
  at: number
  actor: string
  action: string
  subject: string
  details: string
  prev_hash: string
  hash: string
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`
  return JSON.stringify(value) ?? 'null'
}

/** How the log of one database is chained and anchored. */
interface AuditChain {
  key: Buffer
  /** Entries 1..legacyEntries predate the key: plain SHA-256 links. */
  legacyEntries: number
  /** Where the anchor lives; null for an in-memory database (tests): no anchor. */
  dataDir: string | null
  committed: AnchorState
  pending: AnchorState | null
  /** Audited transactions open on this connection (nested ones anchor with the outermost). */
  depth: number
}

const chains = new WeakMap<Db, AuditChain>()

export class AuditLogError extends Error {
  override name = 'AuditLogError'
}

/** Entry n's hash: HMAC-SHA256 under the key, or SHA-256 for entries written before the key. */
export function entryHash(key: Buffer | null, prevHash: string, entry: { seq: number; at: number; actor: string; action: string; subject: string; details: string }): string {
  const body = canonical({ seq: entry.seq, at: entry.at, actor: entry.actor, action: entry.action, subject: entry.subject, details: entry.details })
  const mac = key ? createHmac('sha256', key) : createHash('sha256')
  return mac.update(prevHash).update('\n').update(body).digest('hex')
}

function headOf(db: Db): AnchorState {
  const last = db.prepare('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1').get() as { seq: number; hash: string } | undefined
  return { entries: last?.seq ?? 0, head: last?.hash ?? GENESIS_HASH }
}

/** The chain of a database the server did not open with `openAuditLog` (unit tests): a random key, no anchor. */
function chainOf(db: Db): AuditChain {
  let chain = chains.get(db)
  if (!chain) {
    chain = { key: randomBytes(32), legacyEntries: 0, dataDir: null, committed: headOf(db), pending: null, depth: 0 }
    chains.set(db, chain)
  }
  return chain
}

function saveAnchor(chain: AuditChain): void {
  if (chain.dataDir) writeAnchor(chain.dataDir, chain.key, { committed: chain.committed, pending: chain.pending, legacyEntries: chain.legacyEntries })
}

/** After the commit: the pending state is the committed one (checked against the database when the
 * transaction was not ours to commit). */
function settle(db: Db, chain: AuditChain, checked: boolean): void {
  if (!chain.pending) return
  const head = checked ? headOf(db) : chain.pending
  if (head.entries === chain.pending.entries && head.head === chain.pending.head) chain.committed = chain.pending
  chain.pending = null
  saveAnchorLocked(db, chain)
}

/**
 * Another process may share the database (issue 16): the anchor is written holding the write lock,
 * with the head read under it, so a late write of one process never puts an older head over a
 * newer one another process wrote.
 */
function saveAnchorLocked(db: Db, chain: AuditChain): void {
  if (!chain.dataDir || !db.open) return
  db.transaction(() => {
    const head = headOf(db)
    if (head.entries !== chain.committed.entries) chain.committed = head
    saveAnchor(chain)
  })()
}

/**
 * Runs `fn` in a transaction whose audit appends are anchored: the anchor is written with the new
 * state pending before the commit, and with it committed after. Store changes that append audit
 * entries run through here.
 */
export function auditedTransaction<T>(db: Db, fn: () => T): T {
  const chain = chainOf(db)
  if (chain.depth > 0) return fn()
  const foreign = db.inTransaction
  chain.depth++
  let result: T
  try {
    result = db.transaction(() => {
      const value = fn()
      if (chain.pending) saveAnchor(chain)
      return value
    })()
  } catch (error) {
    chain.pending = null
    throw error
  } finally {
    chain.depth--
  }
  // Inside someone else's transaction the commit comes later: settle once it has happened.
  if (foreign) process.nextTick(() => db.open && settle(db, chain, true))
  else settle(db, chain, false)
  return result
}

/** Appends one entry; call inside the transaction of the change it records (`auditedTransaction`). */
export function appendAudit(db: Db, at: number, actor: string, action: string, subject: string, details: Record<string, unknown> = {}): AuditEntry {
  const chain = chainOf(db)
  if (chain.depth === 0) return auditedTransaction(db, () => appendAudit(db, at, actor, action, subject, details))
  const last = headOf(db)
  // the head before this transaction may be another process's entry: the anchor's committed state is it
  if (!chain.pending) chain.committed = last
  const seq = last.entries + 1
  const prevHash = last.head
  const detailText = canonical(details)
  const hash = entryHash(chain.key, prevHash, { seq, at, actor, action, subject, details: detailText })
  db.prepare('INSERT INTO audit_log (seq, at, actor, action, subject, details, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
    seq,
    at,
    actor,
    action,
    subject,
    detailText,
    prevHash,
    hash,
  )
  chain.pending = { entries: seq, head: hash }
  return { seq, at, actor, action, subject, details, prevHash, hash }
}

export function listAudit(db: Db, options: { limit?: number; before?: number } = {}): AuditEntry[] {
  const rows = db
    .prepare('SELECT * FROM audit_log WHERE seq < ? ORDER BY seq DESC LIMIT ?')
    .all(options.before ?? Number.MAX_SAFE_INTEGER, Math.min(options.limit ?? 100, 500)) as AuditRow[]
  return rows.map((r) => ({ seq: r.seq, at: r.at, actor: r.actor, action: r.action, subject: r.subject, details: JSON.parse(r.details), prevHash: r.prev_hash, hash: r.hash }))
}

export type AuditVerification =
  | { ok: true; entries: number; head: string; anchored: boolean }
  | { ok: false; entries: number; firstBadSeq: number; reason: string }

/** Walks the chain from the first entry; names the first entry whose link or hash is wrong. */
function walkChain(db: Db, key: Buffer, legacyEntries: number): AuditVerification {
  const rows = db.prepare('SELECT * FROM audit_log ORDER BY seq ASC').iterate() as IterableIterator<AuditRow>
  let prev = GENESIS_HASH
  let expectedSeq = 1
  let count = 0
  for (const row of rows) {
    count++
    if (row.seq !== expectedSeq) return { ok: false, entries: count, firstBadSeq: row.seq, reason: `entry ${expectedSeq} is missing (next is ${row.seq})` }
    if (row.prev_hash !== prev) return { ok: false, entries: count, firstBadSeq: row.seq, reason: 'does not link to the previous entry' }
    const hash = entryHash(row.seq <= legacyEntries ? null : key, prev, row)
    if (hash !== row.hash) return { ok: false, entries: count, firstBadSeq: row.seq, reason: 'content does not match its hash (rewritten, or chained without the audit key)' }
    prev = row.hash
    expectedSeq++
  }
  return { ok: true, entries: count, head: prev, anchored: false }
}

/** The chain checked entry by entry, then its end checked against the anchor (null: no anchor kept). */
export function verifyAuditChain(db: Db, key: Buffer, anchor: AnchorRead | null): AuditVerification {
  if (anchor?.status === 'altered') return { ok: false, entries: 0, firstBadSeq: 0, reason: anchor.reason }
  const walked = walkChain(db, key, anchor?.status === 'ok' ? anchor.record.legacyEntries : 0)
  if (!walked.ok || anchor === null) return walked
  const { entries, head } = walked
  if (anchor.status === 'missing')
    return entries === 0 ? { ...walked, anchored: true } : { ok: false, entries, firstBadSeq: 0, reason: `${AUDIT_ANCHOR_FILE} is missing: the end of the log cannot be checked` }
  const states = [anchor.record.committed, ...(anchor.record.pending ? [anchor.record.pending] : [])]
  if (states.some((s) => s.entries === entries && s.head === head)) return { ...walked, anchored: true }
  const fewest = Math.min(...states.map((s) => s.entries))
  const most = Math.max(...states.map((s) => s.entries))
  if (entries < fewest)
    return { ok: false, entries, firstBadSeq: entries + 1, reason: `the log ends at entry ${entries} but the anchor records ${fewest}: entries ${entries + 1}–${fewest} were removed` }
  if (entries > most) return { ok: false, entries, firstBadSeq: most + 1, reason: `entries ${most + 1}–${entries} are not covered by the anchor (written around the server)` }
  return { ok: false, entries, firstBadSeq: entries, reason: `the last entry's hash is not the head the anchor records` }
}

/** The log of a database the server opened (or of a test's in-memory one). */
export function verifyAudit(db: Db): AuditVerification {
  const chain = chainOf(db)
  return verifyAuditChain(db, chain.key, chain.dataDir ? readAnchor(chain.dataDir, chain.key) : null)
}

/**
 * At start: loads (or creates) the key, checks the log against the anchor and takes the chain
 * over. A crash between a commit and its anchor write is accepted (the anchor's pending state) and
 * the anchor caught up. A log that fails is refused: the server never appends to, and so never
 * re-anchors, a log it cannot vouch for. A log from before anchors existed is adopted once, on the
 * start that creates the key, if its plain hash chain is intact.
 */
export function openAuditLog(db: Db, dataDir: string): { key: AuditKey; adopted: number } {
  if (dataDir === ':memory:') return { key: { key: chainOf(db).key, source: 'file', created: true, narrowed: false }, adopted: 0 }
  const key = loadAuditKey(dataDir, { create: true })
  // under the write lock: another instance on the same database does not append meanwhile
  const adopted = db.transaction((): number => {
    const head = headOf(db)
    const chain: AuditChain = { key: key.key, legacyEntries: 0, dataDir, committed: head, pending: null, depth: 0 }
    const anchor = readAnchor(dataDir, key.key)
    let adopted = 0
    if (anchor.status === 'missing' && head.entries > 0) {
      const legacy = walkChain(db, key.key, head.entries)
      if (!key.created || !legacy.ok)
        throw new AuditLogError(`the audit log has ${head.entries} entries but ${AUDIT_ANCHOR_FILE} is missing${legacy.ok ? '' : ` and entry #${legacy.firstBadSeq} ${legacy.reason}`}`)
      chain.legacyEntries = adopted = head.entries
    } else {
      const verified = verifyAuditChain(db, key.key, anchor)
      if (!verified.ok) throw new AuditLogError(`the audit log fails verification at entry #${verified.firstBadSeq}: ${verified.reason}`)
      if (anchor.status === 'ok') chain.legacyEntries = anchor.record.legacyEntries
    }
    chains.set(db, chain)
    saveAnchorLocked(db, chain)
    return adopted
  })()
  return { key, adopted }
}
