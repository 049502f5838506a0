/**
 * The audit log's shapes: its table, a stored entry, the result of a chain check. Their own file so
 * audit.ts (which writes and checks the chain) and audit-checkpoint.ts (which signs its head) both
 * import them without importing each other.
 */
import type { Selectable } from 'kysely'

export interface AuditLogTable {
  seq: number
  at: number
  actor: string
  action: string
  subject: string
  details: string
  prev_hash: string
  hash: string
}

/** An entry as stored: the table's own row type, so a column added to the table is a column here. */
export type AuditRow = Selectable<AuditLogTable>

export type AuditVerification =
  | { ok: true; entries: number; head: string; anchored: boolean }
  | { ok: false; entries: number; firstBadSeq: number; reason: string }
