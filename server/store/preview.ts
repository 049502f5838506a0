/**
 * Preview tokens: a short-lived, unguessable token bound to one store version, so the real engine
 * can render a draft inside the admin page without the draft ever being served to punters.
 *
 * Two small hooks make the engine render a preview (owned elsewhere, not edited here):
 * - `server/documents/router.ts`, in `GET /api/documents/:kind/:id` before `deps.documents.resolve`:
 *     `if (typeof req.query.preview === 'string') {`
 *     `  const record = resolvePreview(req.query.preview, kind, id, siteContext(req, deps))`
 *     `  if (record) { res.setHeader('Cache-Control', 'no-store'); return void res.json(record.served) } }`
 *   (an unknown or expired token falls through to the published document).
 * - `engine/core/documents.ts`: a `preview?: () => string | null` option (read once from the page
 *   URL's `?preview=` and kept in sessionStorage for in-app navigation); `documentUrl` appends
 *   `&preview=<token>`, and `keyOf` includes the token so previews never enter the punter cache.
 * Until then `/admin/preview/<token>/documents/<kind>/<id>` serves the same JSON.
 */
import { randomBytes } from 'node:crypto'
import type { DocumentRecord } from '../documents/loader'
import { resolutionScore, type SiteRequest } from '../documents/service'

interface PreviewSet {
  versionId: number
  records: DocumentRecord[]
  expiresAt: number
}

const previews = new Map<string, PreviewSet>()
const TTL_MS = 30 * 60 * 1000
const MAX_PREVIEWS = 200

export function createPreview(versionId: number, records: DocumentRecord[], now: number): string {
  for (const [token, set] of previews) if (set.expiresAt <= now) previews.delete(token)
  while (previews.size >= MAX_PREVIEWS) previews.delete(previews.keys().next().value!)
  const token = randomBytes(24).toString('base64url')
  previews.set(token, { versionId, records, expiresAt: now + TTL_MS })
  return token
}

/** The document a preview shows for a site, or undefined for an unknown or expired token. */
export function resolvePreview(token: string, kind: string, id: string, request: SiteRequest, now = Date.now()): DocumentRecord | undefined {
  const set = previews.get(token)
  if (!set || set.expiresAt <= now) return undefined
  let best: DocumentRecord | undefined
  let bestScore = -1
  for (const record of set.records) {
    if (record.kind !== kind || record.id !== id) continue
    const s = resolutionScore(record, request)
    if (s > bestScore) [best, bestScore] = [record, s]
  }
  return best
}

export function previewVersion(token: string, now = Date.now()): number | undefined {
  const set = previews.get(token)
  return set && set.expiresAt > now ? set.versionId : undefined
}
