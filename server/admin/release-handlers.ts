/**
 * The releases API's handlers (routes and rules in ./releases.ts), each a named function of the
 * release kit it needs, so createReleasesRouter stays a list of routes (issue 32: no function over
 * 80 lines).
 */
import { ADMIN_STATUS } from './status'
import type { Request, RequestHandler, Response } from 'express'
import type { ServerDeps } from '../deps'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { check } from '../http/validate'
import { releaseBookOf, type Release } from '../store/releases'
import type { DocumentStore, DocumentVersion, StoreResult } from '../store/store'
import { documentLabel } from '../../tools/schema-lint'
import { summaryOf } from '../../tools/schema-lint'
import { snapshotOf } from '../../tools/schema-lint'
import type { AdminSession } from './accounts'
import { reachOf, withPunterWords } from './review'
import { answerReviewPreviews } from './review-previews'
import { refusedWithoutReason } from './rollbacks'

export interface AdminRequest extends Request {
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

function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=')
    if (k === name) return v.join('=')
  }
  return undefined
}

const who = (req: Request) => (req as AdminRequest).admin!.user.email

/** Runs `act` on the release named in the path; 404 for a malformed id. */
const withId =
  (act: (req: AdminRequest, res: Response, id: number) => unknown): RequestHandler =>
  (req: AdminRequest, res: Response) => {
    const id = idParam(req)
    if (id === undefined) return sendError(res, 404, HTTP_ERRORS.notFound)
    return act(req, res, id)
  }

/** What every release handler shares: the book, the store, and how a release is answered. */
export type ReleaseKit = ReturnType<typeof releaseKit>

export function releaseKit(deps: ServerDeps, store: DocumentStore) {
  const book = releaseBookOf(store, deps.now)
  const answer = async <T>(res: Response, pending: StoreResult<T> | Promise<StoreResult<T>>, map: (value: T) => unknown, status = 200) => {
    const result = await pending
    if (result.ok) return sendOk(res, await map(result.value), status)
    sendError(res, STATUS.get(result.code) ?? 400, result.code, result.details)
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
  return { deps, store, book, answer, itemSummary, changeSetsOf, summary }
}

export function listReleases({ book, summary }: ReleaseKit): RequestHandler {
  return async (req, res) => {
    const query = { ...(req.query as Record<string, unknown>) }
    const problem = check({ type: 'object', properties: { state: { enum: ['draft', 'in_review', 'approved', 'rejected', 'published', 'withdrawn'] } }, additionalProperties: false }, query)
    if (problem) return sendError(res, 400, HTTP_ERRORS.validation, problem)
    sendOk(res, await Promise.all((await book.releases({ state: query.state as Release['state'] | undefined })).map(summary)))
  }
}

/** What waits for this admin: releases and single versions in review written by someone else. */
export function pendingReviews({ book, store, summary, itemSummary }: ReleaseKit): RequestHandler {
  return async (req: AdminRequest, res) => {
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
  }
}

export function releaseDetail({ book, store, itemSummary, changeSetsOf }: ReleaseKit): RequestHandler {
  return withId(async (_req, res, id) => {
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
  })
}

export function createRelease({ book, answer, summary }: ReleaseKit): RequestHandler {
  return async (req: AdminRequest, res) => {
    const { title, versions } = req.body as { title: string; versions: number[] }
    await answer(res, book.create(who(req), title.trim(), versions), summary, 201)
  }
}

export function editRelease({ book, answer, summary }: ReleaseKit): RequestHandler {
  return withId(async (req, res, id) => {
    const { title, add, remove } = req.body as { title?: string; add?: number[]; remove?: number[] }
    await answer(res, await book.edit(who(req), id, { title: title?.trim(), add, remove }), summary)
  })
}

export const submitRelease = ({ book, answer, summary }: ReleaseKit) => withId(async (req, res, id) => answer(res, await book.submit(who(req), id), summary))
export const approveRelease = ({ book, answer, summary }: ReleaseKit) =>
  withId(async (req, res, id) => answer(res, await book.approve(who(req), id, (req.body as { comment?: string }).comment ?? ''), summary))
export const rejectRelease = ({ book, answer, summary }: ReleaseKit) => withId(async (req, res, id) => answer(res, book.reject(who(req), id, (req.body as { comment: string }).comment), summary))
export const withdrawRelease = ({ book, answer, summary }: ReleaseKit) => withId(async (req, res, id) => answer(res, book.withdraw(who(req), id), summary))
export const publishRelease = ({ book, answer, summary }: ReleaseKit) => withId(async (req, res, id) => answer(res, await book.publish(who(req), id), summary))

export function scheduleRelease({ book, answer, summary }: ReleaseKit): RequestHandler {
  return withId(async (req, res, id) => {
    const { at, zone } = req.body as { at: string | null; zone?: string }
    if (at !== null && !zone) return sendError(res, 400, HTTP_ERRORS.validation, { field: 'zone', code: 'required' })
    await answer(res, book.schedule(who(req), id, at, at === null ? null : zone!), summary)
  })
}

/** Four-eyes like a document's rollback (./rollbacks.ts): one person asks, or rolls back in an emergency with a reason. */
export function rollbackRelease({ store, answer, summary }: ReleaseKit): RequestHandler {
  return withId(async (req, res, id) => {
    const { emergency, reason = '' } = req.body as { emergency?: boolean; reason?: string }
    const why = reason.trim()
    if (!emergency) return answer(res, store.rollbackBook.request(who(req), `release/${id}`, null, why), (item) => item, 202)
    if (refusedWithoutReason(res, why)) return
    await answer(res, store.rollbackBook.emergency(who(req), `release/${id}`, null, why), async ({ item, release }) => ({ ...(await summary(release!)), rollback: item }), 201)
  })
}

export function commentRelease({ book, answer }: ReleaseKit): RequestHandler {
  return withId(async (req, res, id) => {
    const { version, location, text } = req.body as { version: number; location: string; text: string }
    await answer(res, book.comment(who(req), id, version, location, text.trim()), (c) => c, 201)
  })
}

/** Both sides of the whole release on every site it reaches (./review-previews.ts): the published
 * set, and the set with every version in place; `{site, punter}` for one site as a demo punter. */
export function previewRelease({ deps, store, book, changeSetsOf }: ReleaseKit): RequestHandler {
  return withId(async (req, res, id) => {
    const release = await book.release(id)
    if (!release) return sendError(res, 404, HTTP_ERRORS.notFound)
    const versions = await book.versionsOf(release)
    const sets = await changeSetsOf(versions)
    if (sets.problems.length > 0) return sendError(res, 422, 'LINT_FAILED', sets.problems)
    await answerReviewPreviews(deps, store, req, res, readCookie(req, 'parlay_admin')!, { subject: `release #${id}`, files: versions.map((v) => v.file), versionId: 0, publishedId: 0, sets })
  })
}
