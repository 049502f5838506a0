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
import { ADMIN_STATUS } from './status'
import { Router, type NextFunction, type Request, type Response } from 'express'
import type { ServerDeps } from '../deps'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { check, validateBody } from '../http/validate'
import { releaseBookOf, type Release } from '../store/releases'
import type { DocumentStore, DocumentVersion, StoreResult } from '../store/store'
import { documentLabel } from '../../tools/schema-lint'
import { summaryOf } from '../../tools/schema-lint'
import { snapshotOf } from '../../tools/schema-lint'
import type { AdminRole, AdminSession } from './accounts'
import { reachOf, withPunterWords } from './review'
import { answerReviewPreviews, REVIEW_PREVIEW_SCHEMA } from './review-previews'
import { refusedWithoutReason } from './rollbacks'

interface AdminRequest extends Request {
  admin?: AdminSession
}

const STATUS = new Map<string, number>([
  ...ADMIN_STATUS,
  ['INVALID_SCHEDULE', 400],
  ['SCHEDULE_IN_PAST', 422],
])

const idParam = (req: Request): number | undefined => {
  const id = String(req.params.id ?? '')
  return /^[1-9][0-9]{0,9}$/.test(id) ? Number(id) : undefined
}

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

function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=')
    if (k === name) return v.join('=')
  }
  return undefined
}

/** `role`: the admin router's role check (a refusal is audited there). */
export function createReleasesRouter(deps: ServerDeps, store: DocumentStore, role: (...roles: AdminRole[]) => (req: AdminRequest, res: Response, next: NextFunction) => unknown): Router {
  const router = Router()
  const book = releaseBookOf(store, deps.now)
  const who = (req: Request) => (req as AdminRequest).admin!.user.email
  const answer = async <T>(res: Response, pending: StoreResult<T> | Promise<StoreResult<T>>, map: (value: T) => unknown, status = 200) => {
    const result = await pending
    if (result.ok) return sendOk(res, await map(result.value), status)
    sendError(res, STATUS.get(result.code) ?? 400, result.code, result.details)
  }
  /** Runs `act` on the release named in the path; 404 for a malformed id. */
  const withId = (act: (req: AdminRequest, res: Response, id: number) => unknown) => (req: AdminRequest, res: Response) => {
    const id = idParam(req)
    if (id === undefined) return sendError(res, 404, HTTP_ERRORS.notFound)
    return act(req, res, id)
  }

  const itemSummary = (v: DocumentVersion) => {
    const snapshot = snapshotOf(v.file, v.content)
    return { id: v.id, file: v.file, label: snapshot ? documentLabel(snapshot) : v.file, state: v.state, deleted: v.deleted, baseVersion: v.baseVersion }
  }
  /** The published set and the set with every version of a release live (the review's reach, words and previews). */
  const changeSetsOf = async (versions: DocumentVersion[]) => {
    const after = await store.recordsWithAll(versions)
    return { before: (await store.publishedRecords()).records, after: after.records, problems: after.problems, sites: deps.documents.sites() }
  }
  const summary = async (r: Release) => ({ ...r, lint: undefined, items: (await book.versionsOf(r)).map(itemSummary) })

  router.get('/admin/api/releases', async (req, res) => {
    const query = { ...(req.query as Record<string, unknown>) }
    const problem = check({ type: 'object', properties: { state: { enum: ['draft', 'in_review', 'approved', 'rejected', 'published', 'withdrawn'] } }, additionalProperties: false }, query)
    if (problem) return sendError(res, 400, HTTP_ERRORS.validation, problem)
    sendOk(res, await Promise.all((await book.releases({ state: query.state as Release['state'] | undefined })).map(summary)))
  })

  // What waits for this admin: releases and single versions in review written by someone else.
  router.get('/admin/api/reviews/pending', async (req: AdminRequest, res) => {
    const me = who(req).toLowerCase()
    const releases = (await book.releases({ state: 'in_review' })).filter((r) => r.author.toLowerCase() !== me)
    const inReview = (await store.versions({ state: 'in_review', limit: 200 })).filter((v) => v.author.toLowerCase() !== me)
    const holding = await Promise.all(inReview.map((v) => store.releaseHolding(v.id)))
    const versions = inReview.filter((_, i) => holding[i] === undefined)
    // waivers wait for compliance too (four-eyes: never the admin who asked for one)
    const waivers = (await store.waiverBook.list()).filter(
      (w) => (w.status === 'requested' && w.author.toLowerCase() !== me) || (w.status === 'revocation-requested' && w.revocation?.requestedBy.toLowerCase() !== me),
    )
    const mine = req.admin!.user.role === 'compliance'
    // rollbacks wait for a second person of either role (server/store/rollbacks.ts)
    const rollbacks = (await store.rollbackBook.list({ pending: true })).filter((r) => r.requestedBy.toLowerCase() !== me)
    sendOk(res, { count: (mine ? releases.length + versions.length + waivers.length : 0) + rollbacks.length, rollbacks, releases: await Promise.all(releases.map(summary)), versions: versions.map(itemSummary), waivers })
  })

  router.get(
    '/admin/api/releases/:id',
    withId(async (_req, res, id) => {
      const release = await book.release(id)
      if (!release) return sendError(res, 404, HTTP_ERRORS.notFound)
      const versions = await book.versionsOf(release)
      const sets = await changeSetsOf(versions)
      const items = await Promise.all(
        versions.map(async (v) => {
          const findings = await store.diff(v)
          const base = v.baseVersion === null ? undefined : await store.version(v.baseVersion)
          const reach = reachOf(v.file, sets)
          const diff = { summary: summaryOf(findings), findings: withPunterWords(findings, [reach], sets) }
          return { ...itemSummary(v), content: v.content, baseContent: base?.content ?? null, lint: (release.lint ?? []).filter((f) => f.file === v.file), reach, diff }
        }),
      )
      sendOk(res, { ...release, items, comments: await book.comments(id) })
    }),
  )

  router.post('/admin/api/releases', role('operator'), validateBody(SCHEMAS.create), async (req: AdminRequest, res) => {
    const { title, versions } = req.body as { title: string; versions: number[] }
    await answer(res, book.create(who(req), title.trim(), versions), summary, 201)
  })

  router.patch(
    '/admin/api/releases/:id',
    role('operator'),
    validateBody(SCHEMAS.edit),
    withId(async (req, res, id) => {
      const { title, add, remove } = req.body as { title?: string; add?: number[]; remove?: number[] }
      await answer(res, await book.edit(who(req), id, { title: title?.trim(), add, remove }), summary)
    }),
  )
  router.post('/admin/api/releases/:id/submit', role('operator'), optionalBody, validateBody(SCHEMAS.empty), withId(async (req, res, id) => answer(res, await book.submit(who(req), id), summary)))
  router.post(
    '/admin/api/releases/:id/approve',
    role('compliance'),
    optionalBody,
    validateBody(SCHEMAS.approve),
    withId(async (req, res, id) => answer(res, await book.approve(who(req), id, (req.body as { comment?: string }).comment ?? ''), summary)),
  )
  router.post('/admin/api/releases/:id/reject', role('compliance'), validateBody(SCHEMAS.reject), withId(async (req, res, id) => answer(res, book.reject(who(req), id, (req.body as { comment: string }).comment), summary)))
  router.post('/admin/api/releases/:id/withdraw', role('operator'), optionalBody, validateBody(SCHEMAS.empty), withId(async (req, res, id) => answer(res, book.withdraw(who(req), id), summary)))
  router.post(
    '/admin/api/releases/:id/schedule',
    role('operator', 'compliance'),
    validateBody(SCHEMAS.schedule),
    withId(async (req, res, id) => {
      const { at, zone } = req.body as { at: string | null; zone?: string }
      if (at !== null && !zone) return sendError(res, 400, HTTP_ERRORS.validation, { field: 'zone', code: 'required' })
      await answer(res, book.schedule(who(req), id, at, at === null ? null : zone!), summary)
    }),
  )
  router.post('/admin/api/releases/:id/publish', role('operator', 'compliance'), optionalBody, validateBody(SCHEMAS.empty), withId(async (req, res, id) => answer(res, await book.publish(who(req), id), summary)))
  // four-eyes like a document's rollback (./rollbacks.ts): one person asks, or rolls back in an emergency with a reason
  router.post(
    '/admin/api/releases/:id/rollback',
    role('operator', 'compliance'),
    optionalBody,
    validateBody(SCHEMAS.rollback),
    withId(async (req, res, id) => {
      const { emergency, reason = '' } = req.body as { emergency?: boolean; reason?: string }
      const why = reason.trim()
      if (!emergency) return answer(res, store.rollbackBook.request(who(req), `release/${id}`, null, why), (item) => item, 202)
      if (refusedWithoutReason(res, why)) return
      await answer(res, store.rollbackBook.emergency(who(req), `release/${id}`, null, why), async ({ item, release }) => ({ ...(await summary(release!)), rollback: item }), 201)
    }),
  )
  router.post(
    '/admin/api/releases/:id/comments',
    validateBody(SCHEMAS.comment),
    withId(async (req, res, id) => {
      const { version, location, text } = req.body as { version: number; location: string; text: string }
      await answer(res, book.comment(who(req), id, version, location, text.trim()), (c) => c, 201)
    }),
  )

  // Both sides of the whole release on every site it reaches (./review-previews.ts): the published
  // set, and the set with every version in place; `{site, punter}` for one site as a demo punter.
  router.post(
    '/admin/api/releases/:id/preview',
    optionalBody,
    validateBody(REVIEW_PREVIEW_SCHEMA),
    withId(async (req, res, id) => {
      const release = await book.release(id)
      if (!release) return sendError(res, 404, HTTP_ERRORS.notFound)
      const versions = await book.versionsOf(release)
      const sets = await changeSetsOf(versions)
      if (sets.problems.length > 0) return sendError(res, 422, 'LINT_FAILED', sets.problems)
      await answerReviewPreviews(deps, store, req, res, readCookie(req, 'parlay_admin')!, { subject: `release #${id}`, files: versions.map((v) => v.file), versionId: 0, publishedId: 0, sets })
    }),
  )

  return router
}
