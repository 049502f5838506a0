/**
 * The operator studio (issue 19): its page at `/admin/studio`, its built files, and the few calls
 * the studio needs beyond today's admin API. Why a separate file: the studio's calls work on text
 * an operator has NOT saved yet (lint as they type, a live preview), so they take `{file, content}`
 * instead of a stored version id — and they never write: nothing here creates a version, and a
 * preview is shown only to the admin session that asked (server/store/preview.ts).
 *
 *   GET  /admin/studio                    the React studio (built by vite.studio.config.ts), with a
 *                                         per-answer style nonce for its code editor (docs/adr/0004)
 *   GET  /admin/studio/assets/:file       its hashed files
 *   GET  /admin/api/studio/schema/:kind   the kind's JSON Schema (what the editor completes from)
 *   GET  /admin/api/studio/sites          the sites and their locales (preview per site and locale)
 *   GET  /admin/api/studio/search?q=      search across every published document (file, label, text)
 *   POST /admin/api/studio/lint           schema-lint of unsaved text, against the published set
 *   POST /admin/api/studio/preview        a preview token for unsaved text, per site; with `punter` (a
 *                                         demo punter's account number) the page shows that punter's
 *                                         state through a read-only preview session (audited)
 *   GET  /admin/api/studio/punters        the demo punters a preview can show, per jurisdiction
 *   GET  /admin/api/studio/overlay?file=  for each site: the file that serves this document there (its
 *                                         overlay, a whole copy, the shared one, or none), the resolved
 *                                         result and what the site's version changes (site-results.ts)
 *   GET  /admin/api/studio/where-used?popup=|key=   the documents that use a popup or a text key
 *
 * A page load with `?preview=<token>` renders as the token's site (the token names it), so one
 * studio on one host previews every jurisdiction: the page's boot data then targets that site and
 * the documents API still checks the viewer's preview cookie for the draft itself.
 */
import { Router, type Request, type Response } from 'express'
import { HTTP_ERRORS, sendError } from '../http/envelope'
import { validateBody } from '../http/validate'
import * as handle from './studio-handlers'
import type { StudioOptions } from './studio-handlers'

export { previewPunters, withNonce, type StudioOptions } from './studio-handlers'

const contentSchema = {
  type: 'object',
  required: ['file', 'content'],
  properties: { file: { type: 'string', minLength: 1, maxLength: 200 }, content: { type: 'string', minLength: 2, maxLength: 60000 } },
  additionalProperties: false,
}
const previewSchema = {
  ...contentSchema,
  required: ['file', 'content', 'site'],
  properties: { ...contentSchema.properties, site: { type: 'string', pattern: '^[a-z0-9-]{1,40}$' }, punter: { type: 'string', pattern: '^[0-9]{1,20}$' } },
}

export function createStudioRouter(options: StudioOptions): Router {
  const router = Router()
  const { deps } = options
  // A site page asked with a live preview token renders as the token's site (see the file comment).
  router.use(handle.previewSiteTarget(deps))
  router.get(['/admin/studio', '/admin/studio/'], handle.studioPage(options))
  // the build's hashed files, served as the site's are (express.static: ETag, ranges, no path
  // escapes; the app's compression applies); anything else under assets is the envelope's 404
  router.use('/admin/studio/assets', handle.studioAssets(deps), (_req: Request, res: Response) => sendError(res, 404, HTTP_ERRORS.notFound))
  router.get('/admin/api/studio/schema/:kind', handle.kindSchemaAnswer())
  router.get('/admin/api/studio/sites', handle.studioSites(options))
  router.get('/admin/api/studio/search', handle.studioSearch(options))
  router.post('/admin/api/studio/lint', validateBody(contentSchema), handle.studioLint(options))
  router.get('/admin/api/studio/punters', handle.studioPunters(options))
  router.post('/admin/api/studio/preview', validateBody(previewSchema), handle.studioPreview(options))
  router.get('/admin/api/studio/overlay', handle.studioOverlay(options))
  router.get('/admin/api/studio/where-used', handle.studioWhereUsed(options))
  return router
}
