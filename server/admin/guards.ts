/**
 * The admin router's guards and answer helpers, made once per router: the session check (with the
 * CSRF token on writes), the role check (a refusal audited before the 403), the jurisdiction scope
 * check, the store result → envelope answer and the audited read. Split from ./router.ts so the
 * route files (./version-routes.ts, ./preview-routes.ts) take them as one value.
 */
import type { NextFunction, Request, Response } from 'express'
import type { ServerDeps } from '../deps'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import type { DocumentStore, StoreResult } from '../store/store'
import { csrfMatches, sessionFor, type AdminRole } from './accounts'
import { idParam, readCookie, type AdminRequest } from './admin-http'
import { ADMIN_COOKIE as COOKIE } from './sign-in'
import { outOfScope, scopeGuard } from './scope'
import { releaseBookOf } from '../store/releases'
import { ADMIN_STATUS } from './status'

export function adminGuards(deps: ServerDeps, store: DocumentStore) {
  const authenticate = async (req: AdminRequest, res: Response, next: NextFunction) => {
    const session = await sessionFor(deps.data, readCookie(req, COOKIE), deps.now())
    if (!session) return sendError(res, 401, HTTP_ERRORS.unauthorized)
    if (req.method !== 'GET' && req.method !== 'HEAD' && !csrfMatches(session, req.header('x-csrf-token')))
      return sendError(res, 403, 'CSRF_TOKEN_INVALID')
    req.admin = session
    next()
  }
  // A refusal for the role is audited (who, what, on which path, why) before the 403.
  const role =
    (...roles: AdminRole[]) =>
    async (req: AdminRequest, res: Response, next: NextFunction) => {
      if (req.admin && roles.includes(req.admin.user.role)) return next()
      if (req.admin) await store.audit(req.admin.user.email, 'admin.role-refused', `${req.method} ${req.path}`, { role: req.admin.user.role, needs: roles, reason: `needs the role ${roles.join(' or ')}` })
      sendError(res, 403, 'FORBIDDEN_FOR_ROLE', { needs: roles })
    }

  // an account scoped to jurisdictions changes only their documents (./scope.ts): refused → 403, audited
  const scope = (fileOf: (req: Request) => Promise<string | string[] | undefined> | string | undefined) => scopeGuard((...entry) => store.audit(...entry), fileOf)
  const bodyFile = (req: Request) => (typeof (req.body as { file?: unknown } | undefined)?.file === 'string' ? (req.body as { file: string }).file : undefined)
  const versionFile = async (req: Request) => {
    const id = idParam(req)
    return id === undefined ? undefined : (await store.version(id))?.file
  }

  const answer = async <T>(res: Response, pending: StoreResult<T> | Promise<StoreResult<T>>, map: (value: T) => unknown, status = 200) => {
    const result = await pending
    if (result.ok) return sendOk(res, map(result.value), status)
    sendError(res, ADMIN_STATUS.get(result.code) ?? 400, result.code, result.details)
  }
  // A read's audit entry, written before the answer: a read that cannot be audited is not returned.
  // A failed append rejects into the error handler (503 STORAGE_UNAVAILABLE when the store is down).
  const auditRead = async (actor: string, action: string, subject: string, details: Record<string, unknown>) => {
    try {
      await store.audit(actor, action, subject, details)
    } catch (error) {
      deps.log.warn('audit.append.failed', { action, error: (error as Error).message })
      throw error
    }
  }
  const optionalBody = (req: Request, _res: Response, next: NextFunction) => {
    if (req.body === undefined) req.body = {}
    next()
  }
  return { authenticate, role, scope, bodyFile, versionFile, answer, auditRead, optionalBody }
}

export type AdminGuards = ReturnType<typeof adminGuards>

/** The scope check of a release's routes: every document of the release (and of the versions a body names) must be in the account's scope. */
export function releaseScope(deps: ServerDeps, store: DocumentStore, scope: AdminGuards['scope']) {
  const releaseFiles = async (req: AdminRequest) => {
    const release = idParam(req) === undefined ? undefined : await releaseBookOf(store, deps.now).release(idParam(req)!)
    const ids = release ? (await releaseBookOf(store, deps.now).versionsOf(release)).map((v) => v.id) : []
    const body = req.body as { versions?: unknown; add?: unknown } | undefined
    for (const list of [body?.versions, body?.add]) if (Array.isArray(list)) ids.push(...list.filter((v): v is number => Number.isSafeInteger(v)))
    const files = await Promise.all(ids.map(async (id) => (await store.version(id))?.file))
    return files.find((file): file is string => !!file && !!outOfScope(req.admin!.user.jurisdictions, file))
  }
  return scope(releaseFiles)
}
