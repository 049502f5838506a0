/**
 * The operator studio's handlers (routes and what they do in ./studio.ts), each a named function of
 * the studio options it needs, so createStudioRouter stays a list of routes (issue 32: no function
 * over 80 lines).
 */
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DOCUMENT_KINDS } from '../../kernel/documents/kinds'
import { HEADERS } from '../../kernel/core/contracts'
import type { ServerDeps } from '../deps'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { cspHeader, cspNonce } from '../http/csp'
import { createPreview, PREVIEW_TTL_MS, previewCookies, previewJurisdiction, previewKeyFor } from '../store/preview'
import type { DocumentStore, DocumentVersion } from '../store/store'
import { FILE_PATTERN } from '../store/store'
import { documentLabel } from '../../tools/schema-lint'
import { snapshotOf } from '../../tools/schema-lint'
import type { AdminSession } from './accounts'
import { STUDIO_DIR } from './studio-build'
import { adminSessionOpen, SESSION_MS } from './accounts'
import { demoPunters } from '../punters/demo'
import { resolvedTexts, siteResults } from './site-results'

const KINDS_DIR = join(import.meta.dirname, '..', '..', 'schemas', 'kinds')
const MAX_HITS = 60

interface StudioRequest extends Request {
  admin?: AdminSession
}

export interface StudioOptions {
  deps: ServerDeps
  store: DocumentStore
  /** The admin session of a page request (the page itself is not under /admin/api). */
  sessionOf: (req: Request) => Promise<AdminSession | undefined>
  sessionToken: (req: Request) => string | undefined
}

/** A version that exists only for this request: the text an operator is typing. */
function unsavedVersion(file: string, content: string, published: DocumentVersion | undefined): DocumentVersion {
  return {
    id: 0,
    file,
    content,
    contentHash: '',
    origin: 'operator',
    state: 'draft',
    author: '',
    baseVersion: published?.id ?? null,
    createdAt: 0,
    updatedAt: 0,
    reviewedBy: null,
    reviewedAt: null,
    reviewComment: null,
    publishedBy: null,
    publishedAt: null,
    lint: null,
    deleted: false,
    revision: 0,
  }
}

/** The studio page with this answer's nonce where the build wrote its placeholder (vite's
 * `html.cspNonce`, named in the page's `csp-nonce` meta element). */
export function withNonce(html: string, nonce: string): string {
  const placeholder = /<meta property="csp-nonce" nonce="([^"]+)"/.exec(html)?.[1]
  return placeholder ? html.replaceAll(`nonce="${placeholder}"`, `nonce="${nonce}"`) : html
}

/** One line of text around the first match, so a search hit says where it matched. */
function snippet(text: string, at: number, length: number): string {
  const start = Math.max(0, at - 40)
  return text.slice(start, at + length + 40).replace(/\s+/g, ' ').trim()
}

/** The demo punters that exist in this database (never a real account: only the seeded demo list),
 * read in one query from the punters store's table. */
export async function previewPunters(deps: Pick<ServerDeps, 'data' | 'now'>): Promise<{ id: number; accountNumber: string; nickname: string | null; jurisdiction: string; state: string; shows: string }[]> {
  const demos = demoPunters(deps.now())
  const rows = await deps.data.db.selectFrom('punters').select(['id', 'account_number', 'jurisdiction', 'state']).where('account_number', 'in', demos.map((d) => d.accountNumber)).execute()
  return demos.flatMap((demo) => {
    const row = rows.find((r) => r.account_number === demo.accountNumber && r.jurisdiction === demo.jurisdiction)
    return row ? [{ id: row.id, accountNumber: demo.accountNumber, nickname: demo.nickname ?? null, jurisdiction: demo.jurisdiction, state: row.state, shows: demo.shows }] : []
  })
}

export const studioDir = (deps: ServerDeps) => join(deps.config.distDir, STUDIO_DIR)

/** A site page asked with a live preview token renders as the token's site (see ./studio.ts). */
export function previewSiteTarget(deps: ServerDeps): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    const token = req.query.preview
    if (req.method === 'GET' && typeof token === 'string' && token.length <= 64 && !req.path.startsWith('/admin') && !req.header(HEADERS.target)) {
      const jurisdiction = previewJurisdiction(token, deps.now())
      const site = jurisdiction ? deps.documents.sites().find((s) => s.jurisdiction === jurisdiction) : undefined
      if (site) req.headers[HEADERS.target.toLowerCase()] = site.id
    }
    next()
  }
}

export function studioPage({ deps, sessionOf }: StudioOptions): RequestHandler {
  return async (req, res) => {
    const session = await sessionOf(req)
    if (!session) return res.redirect(302, '/admin')
    // support staff work in the services views only (server/admin/support-role.ts)
    if (session.user.role === 'support') return res.redirect(303, '/admin/services')
    const index = join(studioDir(deps), 'index.html')
    if (!existsSync(index)) return sendError(res, 503, 'STUDIO_NOT_BUILT', { build: 'npm run build (or delete the dist folder and restart)' })
    // The code editor's styles are style elements: allowed by this answer's nonce only (docs/adr/0004).
    const nonce = cspNonce()
    res.setHeader('Content-Security-Policy', cspHeader({ styleSrc: ["'self'", `'nonce-${nonce}'`] }))
    res.type('html').send(withNonce(readFileSync(index, 'utf8'), nonce))
  }
}

/** The build's hashed files, served as the site's are (express.static: ETag, ranges, no path escapes). */
export const studioAssets = (deps: ServerDeps) =>
  express.static(join(studioDir(deps), 'assets'), {
    index: false,
    dotfiles: 'ignore',
    setHeaders: (res) => res.setHeader('Cache-Control', 'private, max-age=31536000, immutable'),
  })

/** The emitted kind schemas change only with `npm run schemas:emit` (then a restart): each read once. */
export function kindSchemaAnswer(): RequestHandler {
  const kindSchemas = new Map<string, unknown>()
  const kindSchema = (kind: string): unknown => {
    if (!kindSchemas.has(kind)) {
      const path = join(KINDS_DIR, `${kind}.schema.json`)
      kindSchemas.set(kind, existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined)
    }
    return kindSchemas.get(kind)
  }
  return (req, res) => {
    const kind = String(req.params.kind)
    if (!(DOCUMENT_KINDS as readonly string[]).includes(kind)) return sendError(res, 404, HTTP_ERRORS.notFound)
    const schema = kindSchema(kind)
    if (schema === undefined) return sendError(res, 404, HTTP_ERRORS.notFound)
    res.setHeader('Cache-Control', 'private, max-age=60')
    sendOk(res, schema)
  }
}

export const studioSites =
  ({ deps }: StudioOptions): RequestHandler =>
  (_req, res) =>
    sendOk(res, deps.documents.sites().map((s) => ({ id: s.id, name: s.name, jurisdiction: s.jurisdiction, isDefault: s.isDefault, defaultLocale: s.defaultLocale, locales: s.locales })))

export function studioSearch({ store }: StudioOptions): RequestHandler {
  return async (req, res) => {
    const q = typeof req.query.q === 'string' ? req.query.q.trim().toLowerCase() : ''
    if (q.length < 1 || q.length > 100) return sendError(res, 400, HTTP_ERRORS.validation, { field: 'q', code: 'length' })
    const hits = []
    const published = await store.published()
    // an overlay is found by what its site is served (shared ⊕ overlay), not only by its patch
    for (const [file, text] of resolvedTexts(new Map([...published].map(([f, v]) => [f, v.content])))) {
      const snapshot = snapshotOf(file, text)
      const label = snapshot ? documentLabel(snapshot) : file
      const inName = file.includes(q) || label.toLowerCase().includes(q)
      const at = text.toLowerCase().indexOf(q)
      if (!inName && at < 0) continue
      hits.push({ file, label, version: published.get(file)!.id, match: at >= 0 ? snippet(text, at, q.length) : null })
      if (hits.length >= MAX_HITS) break
    }
    sendOk(res, hits)
  }
}

export function studioLint({ store }: StudioOptions): RequestHandler {
  return async (req, res) => {
    const { file, content } = req.body as { file: string; content: string }
    if (!FILE_PATTERN.test(file)) return sendError(res, 400, 'INVALID_FILE')
    sendOk(res, await store.check(unsavedVersion(file, content, await store.publishedVersionOf(file))))
  }
}

export const studioPunters =
  ({ deps }: StudioOptions): RequestHandler =>
  async (_req, res) =>
    sendOk(res, await previewPunters(deps))

export function studioPreview({ deps, store, sessionToken }: StudioOptions): RequestHandler {
  return async (req: StudioRequest, res) => {
    const { file, content, site, punter: account } = req.body as { file: string; content: string; site: string; punter?: string }
    if (!FILE_PATTERN.test(file)) return sendError(res, 400, 'INVALID_FILE')
    const target = deps.documents.site(site)
    if (!target) return sendError(res, 400, HTTP_ERRORS.validation, { field: 'site', code: 'enum' })
    // as a demo punter of this site's jurisdiction only (a punter's restrictions are their site's)
    const punter = account === undefined ? undefined : (await previewPunters(deps)).find((p) => p.accountNumber === account && p.jurisdiction === target.jurisdiction)
    if (account !== undefined && !punter) return sendError(res, 400, HTTP_ERRORS.validation, { field: 'punter', code: 'enum' })
    const published = await store.publishedVersionOf(file)
    const after = await store.recordsWith(unsavedVersion(file, content, published))
    if (after.problems.length > 0) return sendError(res, 422, 'LINT_FAILED', after.problems)
    const viewerKey = previewKeyFor(sessionToken(req)!)
    const tokenHash = req.admin!.tokenHash
    const token = createPreview({
      versionId: 0,
      file,
      records: after.records,
      jurisdiction: target.jurisdiction,
      viewerKey,
      sessionOpen: () => adminSessionOpen(deps.data, tokenHash, deps.now()),
      now: deps.now(),
      punter: punter && { id: punter.id, accountNumber: punter.accountNumber },
    })
    if (punter) await store.audit(req.admin!.user.email, 'studio.preview-as-punter', file, { site: target.id, punter: punter.accountNumber, nickname: punter.nickname })
    // The documents API, the flows' validator modules (a draft's field labels and rules) and the APIs built from documents all check the viewer.
    res.setHeader('Set-Cookie', previewCookies(viewerKey, SESSION_MS / 1000, req.secure))
    sendOk(res, { token, site, ...(punter ? { punter: punter.accountNumber } : {}), expiresInSeconds: PREVIEW_TTL_MS / 1000 })
  }
}

export function studioOverlay({ deps, store }: StudioOptions): RequestHandler {
  return async (req, res) => {
    const file = typeof req.query.file === 'string' ? req.query.file : ''
    if (!FILE_PATTERN.test(file)) return sendError(res, 400, 'INVALID_FILE')
    const results = await siteResults(store, deps.documents.sites(), file)
    if (!results) return sendError(res, 404, HTTP_ERRORS.notFound)
    sendOk(res, results)
  }
}

export function studioWhereUsed({ store }: StudioOptions): RequestHandler {
  return async (req, res) => {
    const popup = typeof req.query.popup === 'string' ? req.query.popup : undefined
    const key = typeof req.query.key === 'string' ? req.query.key : undefined
    const name = popup ?? key
    if (!name || (popup && key) || !/^[A-Za-z0-9._-]{1,120}$/.test(name)) return sendError(res, 400, HTTP_ERRORS.validation, { field: popup ? 'popup' : 'key', code: 'pattern' })
    const quoted = JSON.stringify(name)
    const users = []
    for (const [file, text] of resolvedTexts(new Map([...(await store.published())].map(([f, v]) => [f, v.content])))) {
      if (popup && /(^|\/)popups\/[^/]+$/.test(file) && file.endsWith(`/${popup}.json`)) continue
      if (key && file.startsWith('i18n/')) continue
      const at = text.indexOf(quoted)
      if (at < 0) continue
      const snapshot = snapshotOf(file, text)
      users.push({ file, label: snapshot ? documentLabel(snapshot) : file, match: snippet(text, at, quoted.length) })
    }
    sendOk(res, { name, users })
  }
}
