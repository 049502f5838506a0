/**
 * The releases API (issue 19 items 5 and 6): several drafts reviewed, approved, scheduled,
 * published and rolled back together (server/store/releases.ts holds the rules), and what the
 * reviewer's view needs: what is pending, each version's semantic diff and lint findings, comments
 * on a diff line, and one preview of the whole release per site. Mounted under the admin router,
 * so the session, the CSRF token and the answers' envelope are today's.
 *
 *   GET  /admin/api/releases[?state=]          releases, newest first
 *   GET  /admin/api/reviews/pending            what waits for this admin's review (the badge)
 *   GET  /admin/api/releases/:id               a release with its versions, diffs, lint, comments
 *   POST /admin/api/releases                   {title, versions}                       operator
 *   PATCH /admin/api/releases/:id              {title?, add?, remove?}                 operator (author), until it goes live;
 *                                              an edit of a release in review or approved sends it back to review
 *   POST /admin/api/releases/:id/submit                                                operator (author)
 *   POST /admin/api/releases/:id/approve       {comment?}                              compliance, not the author
 *   POST /admin/api/releases/:id/reject        {comment}                               compliance, not the author
 *   POST /admin/api/releases/:id/withdraw                                              operator (author)
 *   POST /admin/api/releases/:id/schedule      {at: "2026-11-27T00:00", zone} | {at: null}
 *   POST /admin/api/releases/:id/publish       now                                     operator, compliance
 *   POST /admin/api/releases/:id/rollback      {reason?}: asks (202); a second person approves it in
 *                                              /admin/api/rollbacks/:item/approve, then a new release restoring
 *                                              the previous versions goes live.  {emergency: true, reason}: live
 *                                              at once (201), reviewed afterwards (server/store/rollbacks.ts)
 *   POST /admin/api/releases/:id/comments      {version, location, text}
 *   POST /admin/api/releases/:id/preview       {} | {site, punter?} → tokens of the published set and the set with
 *                                              the release, for every site it reaches (./review-previews.ts)
 */
import { Router, type NextFunction, type Request, type Response } from 'express'
import type { ServerDeps } from '../deps'
import { validateBody } from '../http/validate'
import type { DocumentStore } from '../store/store'
import type { AdminRole } from './accounts'
import { REVIEW_PREVIEW_SCHEMA } from './review-previews'
import * as handle from './release-handlers'
import type { AdminRequest } from './release-handlers'

const comment = (min: number) => ({ type: 'string', minLength: min, maxLength: 2000, ...(min > 0 ? { pattern: '\\S' } : {}) })
const SCHEMAS = {
  create: {
    type: 'object',
    required: ['title', 'versions'],
    properties: { title: { type: 'string', minLength: 3, maxLength: 200, pattern: '\\S' }, versions: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'integer', minimum: 1, maximum: 9999999999 } } },
    additionalProperties: false,
  },
  edit: {
    type: 'object',
    minProperties: 1,
    properties: {
      title: { type: 'string', minLength: 3, maxLength: 200, pattern: '\\S' },
      add: { type: 'array', maxItems: 20, items: { type: 'integer', minimum: 1, maximum: 9999999999 } },
      remove: { type: 'array', maxItems: 20, items: { type: 'integer', minimum: 1, maximum: 9999999999 } },
    },
    additionalProperties: false,
  },
  approve: { type: 'object', properties: { comment: comment(0) }, additionalProperties: false },
  reject: { type: 'object', required: ['comment'], properties: { comment: comment(3) }, additionalProperties: false },
  schedule: {
    type: 'object',
    required: ['at'],
    properties: { at: { type: ['string', 'null'], pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}$' }, zone: { type: 'string', minLength: 1, maxLength: 64 } },
    additionalProperties: false,
  },
  comment: {
    type: 'object',
    required: ['version', 'location', 'text'],
    properties: { version: { type: 'integer', minimum: 1, maximum: 9999999999 }, location: { type: 'string', minLength: 1, maxLength: 300 }, text: comment(1) },
    additionalProperties: false,
  },
  empty: { type: 'object', properties: {}, additionalProperties: false },
  rollback: { type: 'object', properties: { emergency: { type: 'boolean' }, reason: { type: 'string', maxLength: 2000 } }, additionalProperties: false },
}

const optionalBody = (req: Request, _res: Response, next: NextFunction) => {
  if (req.body === undefined) req.body = {}
  next()
}

/** `role`: the admin router's role check (a refusal is audited there). */
export function createReleasesRouter(deps: ServerDeps, store: DocumentStore, role: (...roles: AdminRole[]) => (req: AdminRequest, res: Response, next: NextFunction) => unknown): Router {
  const router = Router()
  const kit = handle.releaseKit(deps, store)
  router.get('/admin/api/releases', handle.listReleases(kit))
  router.get('/admin/api/reviews/pending', handle.pendingReviews(kit))
  router.get('/admin/api/releases/:id', handle.releaseDetail(kit))
  router.post('/admin/api/releases', role('operator'), validateBody(SCHEMAS.create), handle.createRelease(kit))
  router.patch('/admin/api/releases/:id', role('operator'), validateBody(SCHEMAS.edit), handle.editRelease(kit))
  router.post('/admin/api/releases/:id/submit', role('operator'), optionalBody, validateBody(SCHEMAS.empty), handle.submitRelease(kit))
  router.post('/admin/api/releases/:id/approve', role('compliance'), optionalBody, validateBody(SCHEMAS.approve), handle.approveRelease(kit))
  router.post('/admin/api/releases/:id/reject', role('compliance'), validateBody(SCHEMAS.reject), handle.rejectRelease(kit))
  router.post('/admin/api/releases/:id/withdraw', role('operator'), optionalBody, validateBody(SCHEMAS.empty), handle.withdrawRelease(kit))
  router.post('/admin/api/releases/:id/schedule', role('operator', 'compliance'), validateBody(SCHEMAS.schedule), handle.scheduleRelease(kit))
  router.post('/admin/api/releases/:id/publish', role('operator', 'compliance'), optionalBody, validateBody(SCHEMAS.empty), handle.publishRelease(kit))
  router.post('/admin/api/releases/:id/rollback', role('operator', 'compliance'), optionalBody, validateBody(SCHEMAS.rollback), handle.rollbackRelease(kit))
  router.post('/admin/api/releases/:id/comments', validateBody(SCHEMAS.comment), handle.commentRelease(kit))
  router.post('/admin/api/releases/:id/preview', optionalBody, validateBody(REVIEW_PREVIEW_SCHEMA), handle.previewRelease(kit))
  return router
}
