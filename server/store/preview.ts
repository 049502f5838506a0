/**
 * Preview tokens: the real engine renders a draft inside the admin page without the draft ever
 * being served to punters. A token is not a bearer capability: it shows its draft only
 *
 * - to the admin session that made it: the request must carry that session's preview cookie
 *   (`parlay_preview`, HttpOnly, SameSite=Strict, Path=/api/documents, derived one-way from the
 *   session token; the admin cookie itself stays on /admin), and the session must still be open;
 * - on the site it was made for;
 * - for the one document (file) under review: every other document falls through to the
 *   published one;
 * - for 10 minutes (the reviewer renders again for a fresh pair).
 *
 * Anything else is refused (403 `PREVIEW_REFUSED`), never answered with the draft.
 *
 * Previewing as a demo punter: a token made "as" a punter also holds a preview punter session —
 * a session hash and access token that exist only in this process's memory (no `auth_sessions`
 * row, no login, nothing written on the account). `authenticate` (server/auth/sessions.ts) answers
 * it as that punter, so the heartbeat and every read show the punter's state; any other request
 * carrying it is refused (server/admin/preview-punter.ts: 403 `PREVIEW_READ_ONLY`). It ends with
 * the token (10 minutes) or the admin session (asked of the session store on every use, so a
 * sign-out on another instance ends it too), and is handed only to the admin session's page. The hook in
 * `server/documents/router.ts` (`GET /api/documents/:kind/:id?preview=`) and the admin route
 * `/admin/preview/<token>/documents/<kind>/<id>` both go through `resolvePreview`.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { DocumentRecord } from '../../tools/schema-lint'
import { resolveIn, type SiteRequest } from '../documents/service'

export const PREVIEW_COOKIE = 'parlay_preview'
export const PREVIEW_TTL_MS = 10 * 60 * 1000
const ADMIN_COOKIE = 'parlay_admin'
const MAX_PREVIEWS = 200

/** The read-only punter session of a preview made "as" a demo punter (see the file comment). */
export interface PreviewPunter {
  id: number
  accountNumber: string
  sessionHash: string
  accessToken: string
}

/** A message an operator is writing, shown first in a preview page's inbox or notifications (server/messages/preview.ts). */
export interface PreviewMessage {
  kind: 'INBOX' | 'EXTERNAL'
  source: 'web' | 'club' | 'global'
  texts: Record<string, string>
}

interface PreviewSet {
  punter?: PreviewPunter
  message?: PreviewMessage
  versionId: number
  /** The one document this token may show in its draft state. */
  file: string
  /** A release's preview: every document of the release shows in its draft state. */
  files?: string[]
  /** The published set with the version in place: resolution sees what the site would. */
  records: DocumentRecord[]
  jurisdiction: string
  viewerHash: Buffer
  sessionOpen: () => Promise<boolean>
  expiresAt: number
}

const previews = new Map<string, PreviewSet>()
/** sha256(preview session hash) → its token. */
const punterSessions = new Map<string, string>()
/** Every preview punter session hash starts so: a write carrying one is refused without a look-up. */
export const PREVIEW_SESSION_PREFIX = 'preview-'

const sha256 = (text: string) => createHash('sha256').update(text).digest()

/** The preview cookie's value for an admin session token (one-way: it does not reveal the token). */
export function previewKeyFor(sessionToken: string): string {
  return sha256(`parlay-preview\n${sessionToken}`).toString('base64url')
}

function cookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=')
    if (k === name) return v.join('=')
  }
  return undefined
}

/** The viewer keys a request carries: its preview cookie, or one derived from its admin cookie. */
function viewerKeys(cookieHeader: string | undefined): string[] {
  const admin = cookie(cookieHeader, ADMIN_COOKIE)
  return [cookie(cookieHeader, PREVIEW_COOKIE), admin && admin.length <= 100 ? previewKeyFor(admin) : undefined].filter((k): k is string => !!k && k.length <= 100)
}

export interface PreviewGrant {
  versionId: number
  file: string
  /** A release: the documents (beside `file`) this token shows in their draft state. */
  files?: string[]
  records: DocumentRecord[]
  jurisdiction: string
  /** `previewKeyFor(the session token)`. */
  viewerKey: string
  /** Whether the session that made the preview is still open (logout and expiry end its previews): one read of the session store. */
  sessionOpen: () => Promise<boolean>
  now: number
  /** Preview as this demo punter (read-only punter session; see the file comment). */
  punter?: { id: number; accountNumber: string }
  /** A message being written, which the preview's punter sees first. */
  message?: PreviewMessage
}

function forget(token: string): void {
  const set = previews.get(token)
  if (set?.punter) punterSessions.delete(sha256(set.punter.sessionHash).toString('hex'))
  previews.delete(token)
}

export function createPreview(grant: PreviewGrant): string {
  for (const [token, set] of previews) if (set.expiresAt <= grant.now) forget(token)
  while (previews.size >= MAX_PREVIEWS) forget(previews.keys().next().value!)
  const token = randomBytes(24).toString('base64url')
  const punter = grant.punter && {
    ...grant.punter,
    sessionHash: `${PREVIEW_SESSION_PREFIX}${randomBytes(24).toString('base64url')}`,
    accessToken: randomBytes(24).toString('base64url'),
  }
  if (punter) punterSessions.set(sha256(punter.sessionHash).toString('hex'), token)
  previews.set(token, {
    punter,
    message: grant.message,
    versionId: grant.versionId,
    file: grant.file,
    files: grant.files,
    records: grant.records,
    jurisdiction: grant.jurisdiction,
    viewerHash: sha256(grant.viewerKey),
    sessionOpen: grant.sessionOpen,
    expiresAt: grant.now + PREVIEW_TTL_MS,
  })
  return token
}

export type PreviewAnswer =
  | { status: 'draft'; record: DocumentRecord }
  /** A valid token, but the document asked is not the one under review: serve the published one. */
  | { status: 'published' }
  | { status: 'refused'; reason: 'unknown' | 'expired' | 'viewer' | 'site' }

/** The session store is asked only for a live token and its viewer (a storage fault rejects: 503). */
async function refusal(set: PreviewSet | undefined, request: SiteRequest, now: number, cookieHeader: string | undefined): Promise<PreviewAnswer | undefined> {
  if (!set) return { status: 'refused', reason: 'unknown' }
  if (set.expiresAt <= now) return { status: 'refused', reason: 'expired' }
  const viewer = viewerKeys(cookieHeader).some((key) => timingSafeEqual(sha256(key), set.viewerHash))
  if (!viewer || !(await set.sessionOpen())) return { status: 'refused', reason: 'viewer' }
  if (request.jurisdiction !== set.jurisdiction) return { status: 'refused', reason: 'site' }
  return undefined
}

/** What a preview request is answered with (see the file comment for the rules). */
export async function resolvePreview(token: string, kind: string, id: string, request: SiteRequest, now: number, cookieHeader: string | undefined): Promise<PreviewAnswer> {
  const set = previews.get(token)
  const refused = await refusal(set, request, now, cookieHeader)
  if (refused || !set) return refused ?? { status: 'refused', reason: 'unknown' }
  const best = resolveIn(set.records, kind, id, request)
  return best && (best.file === set.file || !!set.files?.includes(best.file)) ? { status: 'draft', record: best } : { status: 'published' }
}

/**
 * Where the browser sends the preview cookie: the documents, flows, validator modules and
 * translations a preview page loads, and the APIs that build a page from documents (promotions,
 * the quiz and the punter's messages, read with the page's preview header: `previewDocuments`).
 */
export const PREVIEW_COOKIE_PATHS = ['/api/documents', '/api/flows', '/api/validators', '/api/preview', '/api/i18n', '/api/promotions', '/mobile-gate/api/v1/bonus', '/mobile-gate/api/v1/punter/message']

/** The Set-Cookie values that let an admin session's browser show its previews for `maxAgeS`
 * seconds (the session's life), or, with no key, forget them. */
export function previewCookies(viewerKey: string | null, maxAgeS: number, secure: boolean): string[] {
  return PREVIEW_COOKIE_PATHS.map((path) => `${PREVIEW_COOKIE}=${viewerKey ?? ''}; Path=${path}; HttpOnly; SameSite=Strict; Max-Age=${viewerKey === null ? 0 : maxAgeS}${secure ? '; Secure' : ''}`)
}

/** The whole set of documents a preview renders (published, with its drafts in place), for the
 * admin session that made it and on its own site; anything else is refused. */
export async function previewRecords(token: string, request: SiteRequest, now: number, cookieHeader: string | undefined): Promise<{ status: 'ok'; records: DocumentRecord[]; message?: PreviewMessage } | { status: 'refused' }> {
  const set = previews.get(token)
  const refused = await refusal(set, request, now, cookieHeader)
  return refused || !set ? { status: 'refused' } : { status: 'ok', records: set.records, ...(set.message ? { message: set.message } : {}) }
}

export function previewVersion(token: string, now = Date.now()): number | undefined {
  const set = previews.get(token)
  return set && set.expiresAt > now ? set.versionId : undefined
}

/** The site a live preview token was made for (a studio preview renders its page as that site). */
export function previewJurisdiction(token: string, now = Date.now()): string | undefined {
  const set = previews.get(token)
  return set && set.expiresAt > now ? set.jurisdiction : undefined
}

/** A preview punter session, as `authenticate` sees it: the punter while the preview lives. */
export async function previewPunterSession(sessionHash: string, accessToken: string | undefined, now: number): Promise<{ punterId: number; expiresAt: number } | undefined> {
  if (!sessionHash.startsWith(PREVIEW_SESSION_PREFIX)) return undefined
  const token = punterSessions.get(sha256(sessionHash).toString('hex'))
  const set = token === undefined ? undefined : previews.get(token)
  if (!set?.punter || set.expiresAt <= now) return undefined
  if (accessToken !== undefined && accessToken !== set.punter.accessToken) return undefined
  if (!(await set.sessionOpen())) return undefined
  return { punterId: set.punter.id, expiresAt: set.expiresAt }
}

/** The preview punter session of a token, for the page of the admin session that made it. */
export async function previewSessionFor(token: string, now: number, cookieHeader: string | undefined): Promise<{ punter: PreviewPunter | null; expiresAt: number } | undefined> {
  const set = previews.get(token)
  if (!set || set.expiresAt <= now) return undefined
  if (!viewerKeys(cookieHeader).some((key) => timingSafeEqual(sha256(key), set.viewerHash))) return undefined
  if (!(await set.sessionOpen())) return undefined
  return { punter: set.punter ?? null, expiresAt: set.expiresAt }
}
