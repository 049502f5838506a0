/**
 * The append-only, hash-chained audit log. Each entry stores the previous entry's hash and its own
 * hash over (previous hash + the entry's canonical JSON), so changing, deleting or reordering any
 * entry breaks the chain from that entry on. SQLite triggers refuse UPDATE and DELETE; the chain
 * catches whoever goes around them (a raw file edit, a dropped trigger).
 */
import { createHash } from 'node:crypto'
import { registerMigration, type Db } from '../db/database'

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

export function entryHash(prevHash: string, entry: { seq: number; at: number; actor: string; action: string; subject: string; details: string }): string {
  const body = canonical({ seq: entry.seq, at: entry.at, actor: entry.actor, action: entry.action, subject: entry.subject, details: entry.details })
  return createHash('sha256').update(prevHash).update('\n').update(body).digest('hex')
}

/** Appends one entry; call inside the transaction of the change it records. */
export function appendAudit(db: Db, at: number, actor: string, action: string, subject: string, details: Record<string, unknown> = {}): AuditEntry {
  const last = db.prepare('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1').get() as { seq: number; hash: string } | undefined
  const seq = (last?.seq ?? 0) + 1
  const prevHash = last?.hash ?? GENESIS_HASH
  const detailText = canonical(details)
  const hash = entryHash(prevHash, { seq, at, actor, action, subject, details: detailText })
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
  return { seq, at, actor, action, subject, details, prevHash, hash }
}

export function listAudit(db: Db, options: { limit?: number; before?: number } = {}): AuditEntry[] {
  const rows = db
    .prepare('SELECT * FROM audit_log WHERE seq < ? ORDER BY seq DESC LIMIT ?')
    .all(options.before ?? Number.MAX_SAFE_INTEGER, Math.min(options.limit ?? 100, 500)) as AuditRow[]
  return rows.map((r) => ({ seq: r.seq, at: r.at, actor: r.actor, action: r.action, subject: r.subject, details: JSON.parse(r.details), prevHash: r.prev_hash, hash: r.hash }))
}

export type AuditVerification = { ok: true; entries: number; head: string } | { ok: false; entries: number; firstBadSeq: number; reason: string }

/** Walks the chain from the first entry; names the first entry whose link or hash is wrong. */
export function verifyAudit(db: Db): AuditVerification {
  const rows = db.prepare('SELECT * FROM audit_log ORDER BY seq ASC').iterate() as IterableIterator<AuditRow>
  let prev = GENESIS_HASH
  let expectedSeq = 1
  let count = 0
  for (const row of rows) {
    count++
    if (row.seq !== expectedSeq) return { ok: false, entries: count, firstBadSeq: row.seq, reason: `entry ${expectedSeq} is missing (next is ${row.seq})` }
    if (row.prev_hash !== prev) return { ok: false, entries: count, firstBadSeq: row.seq, reason: 'does not link to the previous entry' }
    const hash = entryHash(prev, row)
    if (hash !== row.hash) return { ok: false, entries: count, firstBadSeq: row.seq, reason: 'content does not match its hash' }
    prev = row.hash
    expectedSeq++
  }
  return { ok: true, entries: count, head: prev }
}
