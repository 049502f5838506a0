/**
 * Staff accounts' jurisdiction scopes, from the studio (issue 29 item 7) — what
 * `npm run admin -- scope <e-mail> spain,italy` does, behind the admin session:
 *
 *   GET /admin/api/staff                 the accounts (e-mail, name, role, state, scope), compliance only
 *   PUT /admin/api/staff/:id/scope       {jurisdictions: [<jurisdiction id>, …] | null}   compliance only
 *
 * Rules (./scope.ts reads the scope on every change of a document): the ids are jurisdictions the
 * site has; an account limited to some jurisdictions hands out only those (never an unlimited
 * scope), so no one widens their own reach, directly or through a colleague; nobody widens their
 * own scope. A change is one audit entry `admin.scope-changed` (as the CLI's); a refusal is 403
 * SCOPE_CHANGE_REFUSED and one audit entry `admin.scope-change-refused` with the reason.
 */
import { Router, type Request, type RequestHandler, type Response } from 'express'
import type { ServerDeps } from '../deps'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { validateBody } from '../http/validate'
import type { AdminRole, AdminSession } from './accounts'
import { normalizeScope, setStaffScope } from './staff'

type AdminRequest = Request & { admin?: AdminSession }
type Audit = (actor: string, action: string, subject: string, details: Record<string, unknown>) => Promise<void>

const scopeSchema = {
  type: 'object',
  required: ['jurisdictions'],
  properties: { jurisdictions: { oneOf: [{ type: 'null' }, { type: 'array', maxItems: 50, items: { type: 'string', pattern: '^[a-z][a-z0-9-]{0,39}$' } }] } },
  additionalProperties: false,
}

/** Why `actor` may not give `target` this scope, or undefined (null: every jurisdiction). */
export function scopeChangeRefusal(actor: { id: number; jurisdictions?: string[] | null }, target: { id: number; jurisdictions: string[] | null }, next: string[] | null): string | undefined {
  const own = actor.jurisdictions ?? null
  const within = (outer: string[] | null, inner: string[] | null) => outer === null || (inner !== null && inner.every((j) => outer.includes(j)))
  if (actor.id === target.id && !within(target.jurisdictions, next)) return 'an account cannot widen its own scope'
  if (!within(own, next)) return `an account limited to ${own!.join(', ')} can hand out only those jurisdictions`
  return undefined
}

type StaffRow = { id: number; email: string; name: string; role: string; disabled_at: number | null; jurisdictions: string | null }
const toStaff = (r: StaffRow) => ({ id: Number(r.id), email: r.email, name: r.name, role: r.role, disabled: r.disabled_at !== null, jurisdictions: r.jurisdictions === null ? null : r.jurisdictions.split(',').filter(Boolean) })

export function createStaffScopesRouter(deps: ServerDeps, audit: Audit, role: (...roles: AdminRole[]) => RequestHandler): Router {
  const router = Router()
  const staff = async (id?: number) =>
    (await deps.data.db.selectFrom('admin_users').select(['id', 'email', 'name', 'role', 'disabled_at', 'jurisdictions']).$if(id !== undefined, (q) => q.where('id', '=', id!)).orderBy('id').execute()).map(toStaff)

  router.get('/admin/api/staff', role('compliance'), async (_req, res) => {
    sendOk(res, { staff: await staff(), jurisdictions: known(deps) })
  })

  router.put('/admin/api/staff/:id/scope', role('compliance'), validateBody(scopeSchema), async (req: AdminRequest, res: Response) => {
    const id = /^[1-9][0-9]{0,9}$/.test(String(req.params.id)) ? Number(req.params.id) : undefined
    const [target] = id === undefined ? [] : await staff(id)
    if (!target) return sendError(res, 404, HTTP_ERRORS.notFound)
    const asked = (req.body as { jurisdictions: string[] | null }).jurisdictions
    const next = normalizeScope(asked ?? [])
    const unknown = (next ?? []).filter((j) => !known(deps).includes(j))
    if (unknown.length > 0) return sendError(res, 400, 'UNKNOWN_JURISDICTION', { field: 'jurisdictions', unknown })
    const actor = req.admin!.user
    const reason = scopeChangeRefusal(actor, target, next)
    if (reason) {
      await audit(actor.email, 'admin.scope-change-refused', 'admin', { email: target.email, asked: next, jurisdictions: actor.jurisdictions ?? null, reason })
      return sendError(res, 403, 'SCOPE_CHANGE_REFUSED', { reason })
    }
    await setStaffScope(deps.data, target.id, next)
    await audit(actor.email, 'admin.scope-changed', 'admin', { email: target.email, jurisdictions: next, before: target.jurisdictions, via: 'studio' })
    sendOk(res, (await staff(target.id))[0])
  })
  return router
}

/** The jurisdictions the site serves (one per site), sorted. */
function known(deps: ServerDeps): string[] {
  return [...new Set(deps.documents.sites().map((s) => s.jurisdiction))].sort()
}
