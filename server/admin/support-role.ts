/**
 * The support-staff role (issue 18): support reads what the services recorded of punters —
 * analytics events, reported errors, recognitions and session replays — and the contact-us
 * messages punters sent, to answer a punter's question, and nothing else. Deny by default: a route support may use is listed here, so a route
 * added later is closed to support until someone decides otherwise. Every services read is audited
 * (server/services/admin.ts). Support never edits, submits, approves, publishes or rolls back.
 */
import type { NextFunction, Request, Response } from 'express'
import { sendError } from '../http/envelope'
import type { AdminSession } from './accounts'

/** Routes under /admin/api support may call (method, path relative to /admin/api). */
const SUPPORT_ROUTES: ReadonlyArray<{ method: string; path: RegExp }> = [
  { method: 'GET', path: /^\/session$/ },
  { method: 'POST', path: /^\/logout$/ },
  // their own account (issue 30): password, recovery codes, and the audit checkpoint every session shows
  { method: 'GET', path: /^\/account$/ },
  { method: 'POST', path: /^\/account\/(password|recovery-codes)$/ },
  { method: 'GET', path: /^\/audit\/checkpoint$/ },
  { method: 'GET', path: /^\/services\/(events|errors|recognitions|replays|clicks)$/ },
  { method: 'GET', path: /^\/services\/replays\/[^/]+\/[^/]+$/ },
  // the contact-us messages punters sent (issue 34): support answers them
  { method: 'GET', path: /^\/contact-messages$/ },
]

export function supportMay(method: string, path: string): boolean {
  const verb = method === 'HEAD' ? 'GET' : method
  return SUPPORT_ROUTES.some((route) => route.method === verb && route.path.test(path))
}

/** Mounted on /admin/api after authentication: support is refused any route not listed above. */
export function limitSupport(req: Request & { admin?: AdminSession }, res: Response, next: NextFunction): void {
  if (req.admin?.user.role !== 'support' || supportMay(req.method, req.path)) return next()
  sendError(res, 403, 'FORBIDDEN_FOR_ROLE', { needs: ['operator', 'compliance'] })
}
