/**
 * What the admin router's parts share: the request with its staff session, the cookie and id
 * readers, a version's summary as the API answers it, and the HTML frame of the sign-in and account
 * pages. Split from ./router.ts so each part (./pages.ts, ./version-routes.ts …) reads them from one place.
 */
import type { Request } from 'express'
import { join } from 'node:path'
import type { DocumentVersion } from '../store/store'
import { documentLabel } from '../../tools/schema-lint'
import { snapshotOf } from '../../tools/schema-lint'
import type { AdminSession } from './accounts'

export const PUBLIC_DIR = join(import.meta.dirname, 'public')

// Maps, not object literals: a key a request names ("constructor", "__proto__") is never found on a prototype.
export const STATIC_TYPES = new Map([
  ['admin-account.js', 'text/javascript'],
  ['admin.css', 'text/css'],
])

export function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=')
    if (k === name) return v.join('=')
  }
  return undefined
}

export interface AdminRequest extends Request {
  admin?: AdminSession
}

export const idParam = (req: Request): number | undefined => {
  const id = String(req.params.id ?? '')
  return /^[1-9][0-9]{0,9}$/.test(id) ? Number(id) : undefined
}

export const versionSummary = (v: DocumentVersion) => {
  const snapshot = snapshotOf(v.file, v.content)
  return {
    id: v.id,
    file: v.file,
    label: snapshot ? documentLabel(snapshot) : v.file,
    origin: v.origin,
    state: v.state,
    author: v.author,
    baseVersion: v.baseVersion,
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
    reviewedBy: v.reviewedBy,
    reviewedAt: v.reviewedAt,
    reviewComment: v.reviewComment,
    publishedBy: v.publishedBy,
    publishedAt: v.publishedAt,
    deleted: v.deleted,
    revision: v.revision,
  }
}

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/admin/static/admin.css">
<script type="module" src="/admin/static/admin-account.js"></script>
</head>
<body>
${body}
</body>
</html>
`
}
