/**
 * Reading the audit log by what an operator asks (issue 29 item 7): who did it (actor), what
 * (action), on what (subject: a file, so a jurisdiction's name finds its files), when (from, to),
 * and any words in the entry (search). Every text filter is a case-insensitive "contains", with
 * the LIKE wildcards of the typed text escaped, on SQLite and PostgreSQL alike. Newest first.
 */
import { sql, type SelectQueryBuilder } from 'kysely'
import type { DataLayer } from '../db/data-layer'
import type { Tables } from '../db/tables'
import type { AuditEntry } from './audit'

export interface AuditFilter {
  actor?: string
  action?: string
  subject?: string
  /** Words anywhere in the entry: actor, action, subject or details. */
  search?: string
  /** Epoch ms, inclusive. */
  from?: number
  /** Epoch ms, exclusive. */
  to?: number
  /** Only entries older than this sequence number (the next page). */
  before?: number
}

/** `%text%` for LIKE, the text lower-cased and its own `%`, `_` and `\` taken literally. */
export const containsPattern = (text: string): string => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`

type Query = SelectQueryBuilder<Tables, 'audit_log', object>

function filtered(query: Query, filter: AuditFilter): Query {
  const contains = (column: string, text: string | undefined) => (q: Query) =>
    text ? q.where(sql<boolean>`lower(${sql.raw(column)}) like ${containsPattern(text)} escape '\\'`) : q
  let q = query
  q = contains('actor', filter.actor)(q)
  q = contains('action', filter.action)(q)
  q = contains('subject', filter.subject)(q)
  q = contains(`actor || ' ' || action || ' ' || subject || ' ' || details`, filter.search)(q)
  if (filter.from !== undefined) q = q.where('at', '>=', filter.from)
  if (filter.to !== undefined) q = q.where('at', '<', filter.to)
  if (filter.before !== undefined) q = q.where('seq', '<', filter.before)
  return q
}

/** The entries matching the filter, newest first, at most `limit`. */
export async function queryAudit(data: DataLayer, filter: AuditFilter, limit: number): Promise<AuditEntry[]> {
  const rows = await filtered(data.db.selectFrom('audit_log') as Query, filter)
    .selectAll()
    .orderBy('seq', 'desc')
    .limit(limit)
    .execute()
  return rows.map((r) => ({ seq: r.seq, at: r.at, actor: r.actor, action: r.action, subject: r.subject, details: JSON.parse(r.details), prevHash: r.prev_hash, hash: r.hash }))
}

/** The entries about one subject whose details name one version, oldest first (a review's thread). */
export async function auditOfVersion(data: DataLayer, subject: string, version: number, actions: readonly string[]): Promise<AuditEntry[]> {
  const rows = await data.db.selectFrom('audit_log').selectAll().where('subject', '=', subject).where('action', 'in', [...actions]).orderBy('seq').execute()
  return rows
    .map((r) => ({ seq: r.seq, at: r.at, actor: r.actor, action: r.action, subject: r.subject, details: JSON.parse(r.details) as Record<string, unknown>, prevHash: r.prev_hash, hash: r.hash }))
    .filter((e) => e.details.version === version)
}
