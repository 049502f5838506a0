/**
 * The audit log as CSV (RFC 4180) for an auditor's spreadsheet: every field quoted (a comma,
 * quote or line break in a comment stays in its cell), CRLF between rows, and a cell a
 * spreadsheet would run as a formula (starting with = + - @, a tab or a carriage return) is
 * prefixed with a single quote, so an actor's text can never execute in the auditor's program.
 */
import type { AuditEntry } from '../store/audit'

export const AUDIT_CSV_COLUMNS = ['seq', 'time', 'actor', 'action', 'subject', 'details', 'hash'] as const

/** One cell: formula-guarded, then quoted with its quotes doubled. */
export function csvCell(value: string | number): string {
  const text = String(value)
  const guarded = typeof value === 'string' && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text
  return `"${guarded.replace(/"/g, '""')}"`
}

export function auditCsv(entries: readonly AuditEntry[]): string {
  const rows = entries.map((e) => [e.seq, new Date(e.at).toISOString(), e.actor, e.action, e.subject, JSON.stringify(e.details), e.hash])
  return [AUDIT_CSV_COLUMNS as readonly (string | number)[], ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n'
}
