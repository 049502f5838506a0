/**
 * Review previews in the admin API: both sides of a version rendered by the real engine on every
 * site it reaches (./review-previews.ts), and the preview document route a previewing page reads.
 * A preview shows its draft only to the session that made it, on its site, for this one document
 * (server/store/preview.ts).
 */
import type { Router } from 'express'
import { DOCUMENT_KINDS, type DocumentKind } from '../../kernel/documents/kinds'
import type { ServerDeps } from '../deps'
import { HTTP_ERRORS, sendError } from '../http/envelope'
import { siteContext } from '../http/site'
import { validateBody } from '../http/validate'
import { resolvePreview } from '../store/preview'
import type { DocumentStore } from '../store/store'
import { idParam, readCookie, type AdminRequest } from './admin-http'
import type { AdminGuards } from './guards'
import { answerReviewPreviews, REVIEW_PREVIEW_SCHEMA } from './review-previews'
import { ADMIN_COOKIE as COOKIE } from './sign-in'

export function mountPreviewRoutes(router: Router, deps: ServerDeps, store: DocumentStore, { optionalBody }: AdminGuards): void {
  // Both sides on every site the version reaches (./review-previews.ts); a preview shows its draft
  // only to the session that made it, on its site, for this one document (server/store/preview.ts).
  router.post('/admin/api/versions/:id/preview', optionalBody, validateBody(REVIEW_PREVIEW_SCHEMA), async (req: AdminRequest, res) => {
    const id = idParam(req)
    const version = id === undefined ? undefined : await store.version(id)
    if (!version) return sendError(res, 404, HTTP_ERRORS.notFound)
    const after = await store.recordsWith(version)
    if (after.problems.length > 0) return sendError(res, 422, 'LINT_FAILED', after.problems)
    const published = await store.publishedVersionOf(version.file)
    const sets = { before: (await store.publishedRecords()).records, after: after.records, sites: deps.documents.sites() }
    await answerReviewPreviews(deps, store, req, res, readCookie(req, COOKIE)!, { subject: version.file, files: [version.file], versionId: version.id, publishedId: published?.id ?? 0, sets })
  })

  router.get('/admin/preview/:token/documents/:kind/:id', async (req, res) => {
    const { token, kind, id } = req.params
    if (!(DOCUMENT_KINDS as readonly string[]).includes(kind) || !/^[a-z0-9][a-z0-9-]{0,79}$/.test(id) || token.length > 64)
      return sendError(res, 400, HTTP_ERRORS.validation)
    const answer = await resolvePreview(token, kind, id, siteContext(req, deps), deps.now(), req.headers.cookie)
    if (answer.status === 'refused') return sendError(res, 403, 'PREVIEW_REFUSED', { reason: answer.reason })
    const record = answer.status === 'draft' ? answer.record : deps.documents.resolve(kind as DocumentKind, id, siteContext(req, deps))
    if (!record) return sendError(res, 404, HTTP_ERRORS.notFound)
    res.json(record.served)
  })
}
