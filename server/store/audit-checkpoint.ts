/**
 * Signed audit checkpoints (issue 30): the head of the log — its entry count and last hash, for one
 * database — MAC'd with the audit key, handed OUT of the system: every admin session shows the
 * latest one and can download it (`GET /admin/api/audit/checkpoint`). Whoever can rewrite the
 * database and the data folder together (delete recent entries, put back an older anchor) still
 * cannot make a log that contains a checkpoint it no longer holds; nor can they make a new
 * checkpoint without the key. `npm run audit:verify -- <dir> --checkpoint <file>` and a start with
 * `PARLAY_AUDIT_CHECKPOINT=<file>` compare the log with it and name the rollback.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { AuditRow, AuditVerification } from './audit-types'
import type { AnchorState, DatabaseIdentity } from './audit-anchor'

const FORMAT = 'parlay-audit-checkpoint/1'

export interface AuditCheckpoint extends AnchorState {
  database: DatabaseIdentity
  /** When it was signed (ms since the epoch, the server's clock). */
  at: number
}

const macOf = (key: Buffer, c: AuditCheckpoint) => createHmac('sha256', key).update(JSON.stringify([FORMAT, c.database.id, c.database.engine, c.entries, c.head, c.at])).digest('hex')

/** The file an admin downloads: the checkpoint, its time in words, and its MAC. */
export function signCheckpoint(key: Buffer, checkpoint: AuditCheckpoint): Record<string, unknown> {
  const { database, entries, head, at } = checkpoint
  return { format: FORMAT, database: database.id, engine: database.engine, entries, head, at, signedAt: new Date(at).toISOString(), mac: macOf(key, checkpoint) }
}

export type CheckpointRead = { status: 'ok'; checkpoint: AuditCheckpoint } | { status: 'altered'; reason: string }

/** A checkpoint file's text, checked against the key. */
export function readCheckpoint(text: string, key: Buffer): CheckpointRead {
  let parsed: Record<string, unknown>
  try {
    parsed = JSON.parse(text) as Record<string, unknown>
  } catch {
    return { status: 'altered', reason: 'the checkpoint is not valid JSON' }
  }
  const { format, database, engine, entries, head, at, mac } = parsed
  if (format !== FORMAT || typeof database !== 'string' || (engine !== 'sqlite' && engine !== 'postgres') || !Number.isSafeInteger(entries) || typeof head !== 'string' || !Number.isSafeInteger(at) || typeof mac !== 'string')
    return { status: 'altered', reason: 'the file is not an audit checkpoint' }
  const checkpoint: AuditCheckpoint = { database: { id: database, engine }, entries: entries as number, head, at: at as number }
  const expected = Buffer.from(macOf(key, checkpoint), 'hex')
  const given = Buffer.from(mac, 'hex')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { status: 'altered', reason: 'the checkpoint does not carry a valid MAC (edited, or signed under another key)' }
  return { status: 'ok', checkpoint }
}

const when = (at: number) => new Date(at).toISOString().replace('T', ' ').slice(0, 19) + ' UTC'

/**
 * Does the log (its rows, oldest first; the chain already walked) still hold the checkpoint? Null
 * when it does; else the failure that names what happened.
 */
export function compareWithCheckpoint(rows: readonly AuditRow[], database: DatabaseIdentity, checkpoint: AuditCheckpoint): (AuditVerification & { ok: false }) | null {
  const of = `the checkpoint of ${when(checkpoint.at)}`
  const entries = rows.length
  if (checkpoint.database.id !== database.id)
    return { ok: false, entries, firstBadSeq: 0, reason: `${of} belongs to another database (${checkpoint.database.id}, ${checkpoint.database.engine}), not this one (${database.id}, ${database.engine})` }
  if (entries < checkpoint.entries)
    return { ok: false, entries, firstBadSeq: entries + 1, reason: `the log has ${entries} entries but ${of} says ${checkpoint.entries}: entries after ${entries} were removed` }
  const signed = checkpoint.entries === 0 ? undefined : rows[checkpoint.entries - 1]
  if (signed && signed.hash !== checkpoint.head)
    return { ok: false, entries, firstBadSeq: checkpoint.entries, reason: `entry ${checkpoint.entries} is not the one ${of} signed: the log was rolled back to before it and written again` }
  return null
}
