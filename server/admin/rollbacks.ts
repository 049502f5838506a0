/**
 * The rollback API (issue 29 item 7), behind the admin session and CSRF checks of ./router.ts.
 * A rollback is four-eyes (server/store/rollbacks.ts enforces it and audits every step):
 *
 *   POST /admin/api/rollback {file, version, reason?}        asks; nothing changes until approved (202)
 *   POST /admin/api/rollback {file, version, emergency: true, reason}   live at once; reviewed after
 *   GET  /admin/api/rollbacks[?pending=true]                 the items; pending: waiting for a second person
 *   POST /admin/api/rollbacks/:id/approve                    a second person: the rollback goes live
 *   POST /admin/api/rollbacks/:id/review {comment?}          a second person acknowledges an emergency or automatic one
 */
import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { validateBody } from '../http/validate'
import type { RolledBack } from '../store/rollbacks'
import type { DocumentStore, DocumentVersion, StoreResult } from '../store/store'
import { ADMIN_STATUS } from './status'
import type { AdminRole, AdminSession } from './accounts'

type AdminRequest = Request & { admin?: AdminSession }

const reason = { type: 'string', maxLength: 2000 }
const rollbackSchema = {
  type: 'object',
  required: ['file', 'version'],
  properties: { file: { type: 'string', maxLength: 200 }, version: { type: 'integer', minimum: 1 }, emergency: { type: 'boolean' }, reason },
  additionalProperties: false,
}
const reviewSchema = { type: 'object', properties: { comment: reason }, additionalProperties: false }
/** An emergency says why, in words (at least this many characters that are not blanks). */
export const EMERGENCY_REASON_MIN = 10
/** Answers 400 ROLLBACK_REASON_REQUIRED when an emergency's reason is too short; true when it did. */
export function refusedWithoutReason(res: Response, why: string): boolean {
  if (why.replace(/\s/g, '').length >= EMERGENCY_REASON_MIN) return false
  sendError(res, 400, 'ROLLBACK_REASON_REQUIRED', { field: 'reason', minLength: EMERGENCY_REASON_MIN })
  return true
}

type Scope = (fileOf: (req: Request) => Promise<string | string[] | undefined> | string | undefined) => RequestHandler

export function createRollbacksRouter(store: DocumentStore, role: (...roles: AdminRole[]) => RequestHandler, summary: (v: DocumentVersion) => object, scope: Scope): Router {
  const router = Router()
  const book = store.rollbackBook
  const staff = role('operator', 'compliance')
  const who = (req: Request) => (req as AdminRequest).admin!.user.email
  const answer = async <T>(res: Response, pending: Promise<StoreResult<T>>, map: (value: T) => unknown, status = 200) => {
    const result = await pending
    if (result.ok) return sendOk(res, map(result.value), status)
    sendError(res, ADMIN_STATUS.get(result.code) ?? 400, result.code, result.details)
  }
  const optionalBody = (req: Request, _res: Response, next: NextFunction) => {
    if (req.body === undefined) req.body = {}
    next()
  }
  const idOf = (req: Request) => (/^[1-9][0-9]{0,9}$/.test(String(req.params.id)) ? Number(req.params.id) : undefined)
  const itemSubject = async (req: Request) => {
    const id = idOf(req)
    const subject = id === undefined ? undefined : (await book.item(id))?.subject
    return subject === undefined ? undefined : book.filesOf(subject)
  }
  // what went live: the document's new version, or a release's rollback release
  const live = (value: RolledBack) => ({ ...(value.version ? summary(value.version) : value.release), rollback: value.item })

  router.post('/admin/api/rollback', staff, validateBody(rollbackSchema), scope((req) => (req.body as { file: string }).file), async (req, res) => {
    const body = req.body as { file: string; version: number; emergency?: boolean; reason?: string }
    const why = (body.reason ?? '').trim()
    if (!body.emergency) return answer(res, book.request(who(req), body.file, body.version, why), (item) => item, 202)
    if (refusedWithoutReason(res, why)) return
    await answer(res, book.emergency(who(req), body.file, body.version, why), live)
  })

  router.get('/admin/api/rollbacks', staff, async (req, res) => {
    const pending = req.query.pending
    if (pending !== undefined && pending !== 'true' && pending !== 'false') return sendError(res, 400, HTTP_ERRORS.validation, { field: 'pending', code: 'enum' })
    sendOk(res, await book.list({ pending: pending === 'true' }))
  })

  router.post('/admin/api/rollbacks/:id/approve', staff, scope(itemSubject), async (req, res) => {
    const id = idOf(req)
    if (id === undefined) return sendError(res, 404, HTTP_ERRORS.notFound)
    await answer(res, book.approve(who(req), id), live)
  })

  router.post('/admin/api/rollbacks/:id/review', staff, optionalBody, validateBody(reviewSchema), scope(itemSubject), async (req, res) => {
    const id = idOf(req)
    if (id === undefined) return sendError(res, 404, HTTP_ERRORS.notFound)
    await answer(res, book.acknowledge(who(req), id, ((req.body as { comment?: string }).comment ?? '').trim()), (item) => item)
  })

  return router
}
