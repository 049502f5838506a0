/**
 * Roles scoped to jurisdictions (issue 29 item 7). A staff account may be limited to a set of
 * jurisdictions (`npm run admin -- scope <e-mail> spain,italy`): it may draft, save, submit,
 * approve, reject, withdraw, publish and roll back only documents under `jurisdictions/<id>/` of
 * those; a shared document (anything else) needs an unscoped account. A refusal is 403
 * OUT_OF_SCOPE and one audit entry (actor, action, subject, reason).
 */
import type { NextFunction, Request, Response } from 'express'
import { sendError } from '../http/envelope'
import type { AdminSession } from './accounts'

type AdminRequest = Request & { admin?: AdminSession }
type Audit = (actor: string, action: string, subject: string, details: Record<string, unknown>) => Promise<void>

/** Why this account may not change this document (a file path or a release subject), or undefined. */
export function outOfScope(jurisdictions: readonly string[] | null | undefined, file: string): string | undefined {
  if (!jurisdictions) return undefined
  const own = /^jurisdictions\/([a-z0-9-]+)\//.exec(file)
  if (!own) return `a shared document needs an account not limited to ${jurisdictions.join(', ')}`
  return jurisdictions.includes(own[1]!) ? undefined : `the account is limited to ${jurisdictions.join(', ')}, not ${own[1]}`
}

/** A guard for one route: `fileOf` names the document(s) the request changes (undefined: let the route answer). */
export function scopeGuard(audit: Audit, fileOf: (req: Request) => Promise<string | string[] | undefined> | string | string[] | undefined) {
  return async (req: AdminRequest, res: Response, next: NextFunction) => {
    const user = req.admin?.user
    const named = user?.jurisdictions ? await fileOf(req) : undefined
    const file = typeof named === 'string' ? named : named?.find((f) => outOfScope(user!.jurisdictions, f))
    const reason = file === undefined ? undefined : outOfScope(user!.jurisdictions, file)
    if (!reason) return next()
    await audit(user!.email, 'admin.scope-refused', file!, { route: `${req.method} ${req.path}`, jurisdictions: user!.jurisdictions, reason })
    sendError(res, 403, 'OUT_OF_SCOPE', { file, jurisdictions: user!.jurisdictions })
  }
}
