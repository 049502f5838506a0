/**
 * The waivers API (issue 29 item 6), mounted behind the admin session and CSRF checks of
 * ./router.ts. A waiver names one rule (a regulatory rule id, or a regulatory class of the review's
 * diff), one jurisdiction, one document file, a reason and an end; the store's WaiverBook
 * (server/store/waivers.ts) enforces four-eyes on grant and on revocation and audits each step.
 *
 *   GET  /admin/api/waivers                               every waiver with its status; the rules
 *   POST /admin/api/waivers                               ask {jurisdiction, rule, document, reason, expiresAt}
 *   POST /admin/api/waivers/:id/approve | /reject         compliance, never the one who asked
 *   POST /admin/api/waivers/:id/revoke                    ask to revoke {reason} (stays active meanwhile)
 *   POST /admin/api/waivers/:id/revocation/approve | /reject   compliance, never the one who asked
 */
import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express'
import type { ServerDeps } from '../deps'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { validateBody } from '../http/validate'
import { FILE_PATTERN, type DocumentStore, type StoreResult } from '../store/store'
import { MAX_WAIVER_DAYS } from '../store/waivers'
import { REGULATORY_RULES } from '../../tools/schema-lint'
import { COMPLIANCE_CLASSES, IMPACT_LABELS } from '../../tools/schema-lint'
import { ADMIN_STATUS } from './status'
import type { AdminRole, AdminSession } from './accounts'

type AdminRequest = Request & { admin?: AdminSession }

/** Every rule id a waiver may name: the regulatory rules, then the diff's regulatory classes. */
export const WAIVABLE_RULES = [
  ...REGULATORY_RULES.map((r) => ({ id: r.id, kind: 'rule' as const, description: r.description, jurisdictions: r.jurisdictions ?? null, impact: r.impact })),
  ...[...COMPLIANCE_CLASSES].map((c) => ({ id: c, kind: 'diff-class' as const, description: `A regulatory ERROR of the review's diff in ${IMPACT_LABELS[c]}.`, jurisdictions: null, impact: c })),
]

const reasonSchema = { type: 'string', minLength: 10, maxLength: 2000, pattern: '\\S' }
const requestSchema = {
  type: 'object',
  required: ['jurisdiction', 'rule', 'document', 'reason', 'expiresAt'],
  properties: {
    jurisdiction: { type: 'string', pattern: '^[a-z]+$', maxLength: 40 },
    rule: { enum: WAIVABLE_RULES.map((r) => r.id) },
    document: { type: 'string', minLength: 1, maxLength: 200 },
    reason: reasonSchema,
    expiresAt: { type: 'string', format: 'date-time', description: `When the waiver ends (ISO 8601); at most ${MAX_WAIVER_DAYS} days ahead.` },
  },
  additionalProperties: false,
}
const revokeSchema = { type: 'object', required: ['reason'], properties: { reason: reasonSchema }, additionalProperties: false }
const emptySchema = { type: 'object', properties: {}, additionalProperties: false }
const optionalBody = (req: Request, _res: Response, next: NextFunction) => {
  if (req.body === undefined) req.body = {}
  next()
}

/** A document of another jurisdiction's folder cannot be waived for this one. */
function documentProblem(jurisdiction: string, document: string): string | undefined {
  if (!FILE_PATTERN.test(document)) return 'pattern'
  const own = /^jurisdictions\/([a-z0-9-]+)\//.exec(document)
  return own && own[1] !== jurisdiction ? 'jurisdiction' : undefined
}

export function createWaiversRouter(deps: ServerDeps, store: DocumentStore, role: (...roles: AdminRole[]) => RequestHandler): Router {
  const router = Router()
  const book = store.waiverBook
  const who = (req: Request) => (req as AdminRequest).admin!.user.email
  const idOf = (req: Request) => (/^[1-9][0-9]{0,9}$/.test(String(req.params.id)) ? Number(req.params.id) : undefined)
  const answer = async <T>(res: Response, pending: Promise<StoreResult<T>>, status = 200) => {
    const result = await pending
    if (result.ok) return sendOk(res, result.value, status)
    sendError(res, ADMIN_STATUS.get(result.code) ?? 400, result.code, result.details)
  }
  const withId = (work: (req: Request, res: Response, id: number) => Promise<void>) => async (req: Request, res: Response) => {
    const id = idOf(req)
    if (id === undefined) return sendError(res, 404, HTTP_ERRORS.notFound)
    await work(req, res, id)
  }

  router.get('/admin/api/waivers', async (_req, res) => sendOk(res, { waivers: await book.list(), rules: WAIVABLE_RULES, maxDays: MAX_WAIVER_DAYS }))

  router.post('/admin/api/waivers', role('operator', 'compliance'), validateBody(requestSchema), async (req, res) => {
    const body = req.body as { jurisdiction: string; rule: string; document: string; reason: string; expiresAt: string }
    if (!deps.documents.site(body.jurisdiction)) return sendError(res, 400, HTTP_ERRORS.validation, { field: 'jurisdiction', code: 'enum' })
    const problem = documentProblem(body.jurisdiction, body.document)
    if (problem) return sendError(res, 400, HTTP_ERRORS.validation, { field: 'document', code: problem })
    await answer(res, book.request(who(req), { ...body, reason: body.reason.trim(), expiresAt: Date.parse(body.expiresAt) }), 201)
  })

  for (const decision of ['approve', 'reject'] as const) {
    const state = decision === 'approve' ? 'approved' : 'rejected'
    router.post(`/admin/api/waivers/:id/${decision}`, role('compliance'), optionalBody, validateBody(emptySchema), withId((req, res, id) => answer(res, book.review(who(req), id, state))))
    router.post(`/admin/api/waivers/:id/revocation/${decision}`, role('compliance'), optionalBody, validateBody(emptySchema), withId((req, res, id) => answer(res, book.reviewRevocation(who(req), id, state))))
  }
  router.post('/admin/api/waivers/:id/revoke', role('operator', 'compliance'), validateBody(revokeSchema), withId((req, res, id) => answer(res, book.requestRevocation(who(req), id, (req.body as { reason: string }).reason.trim()))))
  return router
}
