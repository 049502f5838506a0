/**
 * A version's review thread (issue 29 item 7): every comment and step of its review, kept across
 * reject → edit → resubmit (the version row holds only the latest review comment). The thread is
 * read from the audit log, which already records each step with its comment and can never be
 * changed (docs/adr/0081-review-thread-from-the-audit-log.md); a comment between steps (the author
 * answering a rejection, a reviewer's question) is one more audit entry, `review.comment`.
 *
 *   GET  /admin/api/versions/:id/thread     oldest first: {seq, at, actor, action, comment?}
 *   POST /admin/api/versions/:id/comments   {text}: operator or compliance, in the account's scope
 */
import { Router, type Request, type RequestHandler } from 'express'
import type { ServerDeps } from '../deps'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { validateBody } from '../http/validate'
import { auditOfVersion } from '../store/audit-query'
import type { DocumentStore } from '../store/store'
import type { AdminRole, AdminSession } from './accounts'

type AdminRequest = Request & { admin?: AdminSession }

/** The audit actions that belong to a version's review, in the words the thread shows. */
export const THREAD_ACTIONS: ReadonlyMap<string, string> = new Map([
  ['draft.created', 'drafted'],
  ['draft.updated', 'edited'],
  ['draft.submitted', 'submitted for review'],
  ['draft.lint-refused', 'submission refused by the gate'],
  ['review.comment', 'commented'],
  ['review.approved', 'approved'],
  ['review.rejected', 'rejected'],
  ['draft.withdrawn', 'withdrew'],
  ['document.published', 'published'],
  ['publish.refused', 'publish refused'],
])

export const COMMENT_SCHEMA = { type: 'object', required: ['text'], properties: { text: { type: 'string', minLength: 1, maxLength: 2000, pattern: '\\S' } }, additionalProperties: false }

export function createReviewThreadRouter(
  deps: ServerDeps,
  store: DocumentStore,
  role: (...roles: AdminRole[]) => RequestHandler,
  scope: (fileOf: (req: Request) => Promise<string | undefined>) => RequestHandler,
): Router {
  const router = Router()
  const versionOf = async (req: Request) => {
    const id = String(req.params.id ?? '')
    return /^[1-9][0-9]{0,9}$/.test(id) ? store.version(Number(id)) : undefined
  }
  router.get('/admin/api/versions/:id/thread', async (req, res) => {
    const version = await versionOf(req)
    if (!version) return sendError(res, 404, HTTP_ERRORS.notFound)
    const entries = await auditOfVersion(deps.data, version.file, version.id, [...THREAD_ACTIONS.keys()])
    sendOk(
      res,
      entries.map((e) => ({ seq: e.seq, at: e.at, actor: e.actor, action: e.action, said: THREAD_ACTIONS.get(e.action), ...(typeof e.details.comment === 'string' && e.details.comment ? { comment: e.details.comment } : {}) })),
    )
  })
  router.post('/admin/api/versions/:id/comments', role('operator', 'compliance'), scope(async (req) => (await versionOf(req))?.file), validateBody(COMMENT_SCHEMA), async (req: AdminRequest, res) => {
    const version = await versionOf(req)
    if (!version) return sendError(res, 404, HTTP_ERRORS.notFound)
    const text = (req.body as { text: string }).text.trim()
    await store.audit(req.admin!.user.email, 'review.comment', version.file, { version: version.id, comment: text })
    sendOk(res, { version: version.id, comment: text }, 201)
  })
  return router
}
