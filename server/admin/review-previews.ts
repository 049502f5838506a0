/**
 * Both sides of a change rendered by the real engine on every site it reaches (issue 29 item 2),
 * for a version's review and a release's alike: one pair of preview tokens per site — the
 * published set, and the set with the change in place — each shown only to the admin session that
 * asked (server/store/preview.ts). The sites are the change's own (./review.ts: a Spain document
 * renders as Spain), never the admin's host; the host's site only comes first when the change
 * reaches it. With `{site, punter}` the pair of that one site shows one of its demo punters
 * (read-only preview session, audited), as the studio's live preview does.
 *
 *   answer: { path, files: FileReach[], previews: [{site, jurisdiction, name, locales, before, after, punter?}],
 *             before, after, site (the first pair's, as the single-site answer was), expiresInSeconds }
 */
import type { Request, Response } from 'express'
import type { ServerDeps } from '../deps'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { siteContext } from '../http/site'
import type { Site } from '../documents/service'
import { createPreview, PREVIEW_TTL_MS, previewCookies, previewKeyFor } from '../store/preview'
import type { DocumentStore } from '../store/store'
import { adminSessionOpen, SESSION_MS, type AdminSession } from './accounts'
import { orderSites, reachOf, type ChangeSets, type FileReach } from './review'
import { previewPunters } from './studio'

/** The body of a review's preview request: nothing (every site), or one site, optionally as a punter. */
export const REVIEW_PREVIEW_SCHEMA = {
  type: 'object',
  properties: { site: { type: 'string', pattern: '^[a-z0-9-]{1,40}$' }, punter: { type: 'string', pattern: '^[0-9]{1,20}$' } },
  additionalProperties: false,
}

export interface ChangeToPreview {
  /** What the audit entry names (a file, or `release #id`). */
  subject: string
  files: string[]
  /** The version shown on the "after" side (0 for a release) and on the "before" side. */
  versionId: number
  publishedId: number
  sets: ChangeSets
}

interface Asked {
  sites: Site[]
  punter?: { id: number; accountNumber: string; nickname: string | null }
}

/** The sites to render and the punter to show, or the 400 that refuses the request. */
async function askedFor(deps: ServerDeps, req: Request, reaches: FileReach[], sets: ChangeSets): Promise<Asked | { field: string; code: string }> {
  const { site: siteId, punter: account } = (req.body ?? {}) as { site?: string; punter?: string }
  const site = siteId === undefined ? undefined : deps.documents.site(siteId)
  if (siteId !== undefined && !site) return { field: 'site', code: 'enum' }
  if (account !== undefined && !site) return { field: 'site', code: 'required' }
  // a punter's restrictions are their own site's: only that site's demo punters
  const punter = site && account !== undefined ? (await previewPunters(deps)).find((p) => p.accountNumber === account && p.jurisdiction === site.jurisdiction) : undefined
  if (account !== undefined && !punter) return { field: 'punter', code: 'enum' }
  const reached = orderSites(sets.sites, siteContext(req, deps).site.id).filter((s) => reaches.some((r) => r.sites.some((x) => x.site === s.id)))
  return { sites: site ? [site] : reached, punter }
}

/** The locales a site shows the change in (every locale of a site the reviewer asked for beyond its reach). */
const localesOf = (site: Site, reaches: FileReach[]) => {
  const reached = new Set(reaches.flatMap((r) => r.sites.filter((s) => s.site === site.id).flatMap((s) => s.locales)))
  return reached.size > 0 ? site.locales.filter((l) => reached.has(l)) : site.locales
}

export async function answerReviewPreviews(deps: ServerDeps, store: DocumentStore, req: Request & { admin?: AdminSession }, res: Response, sessionToken: string, change: ChangeToPreview): Promise<void> {
  const reaches = change.files.map((file) => reachOf(file, change.sets))
  const asked = await askedFor(deps, req, reaches, change.sets)
  if (!('sites' in asked)) return sendError(res, 400, HTTP_ERRORS.validation, asked)
  const viewerKey = previewKeyFor(sessionToken)
  const { tokenHash, user } = req.admin!
  const grant = (site: Site) => ({
    file: change.files[0] ?? '',
    files: change.files,
    jurisdiction: site.jurisdiction,
    viewerKey,
    sessionOpen: () => adminSessionOpen(deps.data, tokenHash, deps.now()),
    now: deps.now(),
    punter: asked.punter && { id: asked.punter.id, accountNumber: asked.punter.accountNumber },
  })
  const previews = asked.sites.map((site) => ({
    site: site.id,
    jurisdiction: site.jurisdiction,
    name: site.name,
    locales: localesOf(site, reaches),
    before: createPreview({ ...grant(site), versionId: change.publishedId, records: [...change.sets.before] }),
    after: createPreview({ ...grant(site), versionId: change.versionId, records: [...change.sets.after] }),
    ...(asked.punter ? { punter: asked.punter.accountNumber } : {}),
  }))
  if (asked.punter) await store.audit(user.email, 'review.preview-as-punter', change.subject, { site: asked.sites[0].id, punter: asked.punter.accountNumber, nickname: asked.punter.nickname })
  res.setHeader('Set-Cookie', previewCookies(viewerKey, SESSION_MS / 1000, req.secure))
  const first = previews[0]
  sendOk(res, { path: reaches[0]?.path ?? '/', files: reaches, previews, ...(first ? { before: first.before, after: first.after, site: first.site } : {}), expiresInSeconds: PREVIEW_TTL_MS / 1000 })
}
