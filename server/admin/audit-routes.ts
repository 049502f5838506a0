/**
 * The audit log for operators and compliance (issue 29 item 7), behind the admin session of
 * ./router.ts:
 *
 *   GET /admin/api/audit?actor=&action=&subject=&search=&from=&to=&before=&limit=   newest first
 *   GET /admin/api/audit/export?…the same filter…   the matching entries as CSV (./audit-csv.ts)
 *   GET /admin/api/audit/verify                      the hash chain walked from the first entry
 *
 * Text filters are "contains", case-insensitive; from/to are epoch ms (to exclusive). An export
 * is itself audited (who, which filter, how many rows) before the file is sent.
 */
import { Router, type Request, type Response } from 'express'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { check } from '../http/validate'
import type { ServerDeps } from '../deps'
import { verifyAudit } from '../store/audit'
import { queryAudit, type AuditFilter } from '../store/audit-query'
import { auditCsv } from './audit-csv'

const text = { type: 'string', maxLength: 200 }
const integer = { type: 'string', pattern: '^[0-9]{1,15}$' }
export const AUDIT_QUERY_SCHEMA = {
  type: 'object',
  properties: { actor: text, action: text, subject: text, search: text, from: integer, to: integer, before: integer, limit: { type: 'string', pattern: '^[1-9][0-9]{0,3}$' } },
  additionalProperties: false,
}
/** The most rows one page answers, and one export holds. */
export const AUDIT_PAGE_MAX = 500
export const AUDIT_EXPORT_MAX = 10_000

type Parsed = { ok: true; filter: AuditFilter; limit?: number } | { ok: false; problem: unknown }

function parseQuery(req: Request): Parsed {
  const query = { ...(req.query as Record<string, unknown>) }
  if (Object.values(query).some((v) => typeof v !== 'string')) return { ok: false, problem: { field: '', code: 'type' } }
  const problem = check(AUDIT_QUERY_SCHEMA, query)
  if (problem) return { ok: false, problem }
  const q = query as Record<string, string | undefined>
  const number = (v: string | undefined) => (v === undefined ? undefined : Number(v))
  const words = (v: string | undefined) => (v?.trim() ? v.trim() : undefined)
  const filter: AuditFilter = { actor: words(q.actor), action: words(q.action), subject: words(q.subject), search: words(q.search), from: number(q.from), to: number(q.to), before: number(q.before) }
  return { ok: true, filter, limit: number(q.limit) }
}

export function createAuditRouter(deps: ServerDeps, audit: (req: Request, action: string, details: Record<string, unknown>) => Promise<void>): Router {
  const router = Router()
  router.get('/admin/api/audit', async (req, res) => {
    const parsed = parseQuery(req)
    if (!parsed.ok) return sendError(res, 400, HTTP_ERRORS.validation, parsed.problem)
    sendOk(res, await queryAudit(deps.data, parsed.filter, Math.min(parsed.limit ?? 100, AUDIT_PAGE_MAX)))
  })
  router.get('/admin/api/audit/export', async (req: Request, res: Response) => {
    const parsed = parseQuery(req)
    if (!parsed.ok) return sendError(res, 400, HTTP_ERRORS.validation, parsed.problem)
    const limit = Math.min(parsed.limit ?? AUDIT_EXPORT_MAX, AUDIT_EXPORT_MAX)
    const entries = await queryAudit(deps.data, parsed.filter, limit)
    await audit(req, 'admin.audit-exported', { filter: parsed.filter, rows: entries.length, newest: entries[0]?.seq ?? null })
    const day = new Date(deps.now()).toISOString().slice(0, 10)
    res.setHeader('Content-Disposition', `attachment; filename="parlay-audit-${day}.csv"`)
    res.type('text/csv; charset=utf-8').send(auditCsv(entries))
  })
  router.get('/admin/api/audit/verify', async (_req, res) => sendOk(res, await verifyAudit(deps.data)))
  return router
}
