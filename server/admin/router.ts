/**
 * The admin API (`/admin/api/...`), the sign-in and account pages (`/admin`, `/admin/account`; signed-in staff go on to the studio or, for support, the services views) and draft previews
 * (`/admin/preview/...`). Operators edit drafts; compliance approves or rejects with a comment;
 * the store enforces four-eyes and the lint gate whoever calls it. Every state-changing request
 * needs the session cookie (HttpOnly, SameSite=Strict) and the session's CSRF token in
 * `x-csrf-token`. Answers use the gateway envelope; bad input is a 4xx, never a 500.
 */
import { ADMIN_STATUS } from './status'
import { Router, type NextFunction, type Request, type Response } from 'express'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ServerDeps } from '../deps'
import { DOCUMENT_KINDS, type DocumentKind } from '../../kernel/documents/kinds'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { check, validateBody } from '../http/validate'
import { siteContext } from '../http/site'
import { previewCookies, resolvePreview } from '../store/preview'
import type { DocumentStore, DocumentVersion, StoreResult } from '../store/store'
import { documentLabel } from '../../tools/schema-lint'
import { DIFF_FORMATS, render, summaryOf, toHtmlFragment, type DiffFormat } from '../../tools/schema-lint'
import { snapshotOf } from '../../tools/schema-lint'
import { adminContactRoute } from '../contact/routes'
import { adminOutboxRoute } from '../signup/outbox'
import { limitSupport } from './support-role'
import { createAdminMessagesRouter } from '../messages/admin'
import { createAdminServicesRouter } from '../services/admin'
import { createStudioRouter } from './studio'
import { createReleasesRouter } from './releases'
import { createMessagePreviewRouter } from './message-preview'
import { reachOf, withPunterWords, type ChangeSets } from './review'
import { answerReviewPreviews, REVIEW_PREVIEW_SCHEMA } from './review-previews'
import { closeSession, csrfMatches, sessionFor, SESSION_MS, type AdminRole, type AdminSession } from './accounts'
import { ADMIN_COOKIE as COOKIE, createSignInRouter, SIGN_IN_PATHS } from './sign-in'
import { currentCheckpoint } from '../store/audit'
import { checkpointLine } from './checkpoint-line'
import { createWaiversRouter } from './waivers'
import { createAuditRouter } from './audit-routes'
import { createReviewThreadRouter } from './review-thread'
import { createRollbacksRouter } from './rollbacks'
import { createStaffScopesRouter } from './staff-scopes'
import { createAuthoringRouter } from './authoring'
import { createStudioTextsRouter } from './studio-texts'
import { outOfScope, scopeGuard } from './scope'
import { releaseBookOf } from '../store/releases'

const PUBLIC_DIR = join(import.meta.dirname, 'public')

// Maps, not object literals: a key a request names ("constructor", "__proto__") is never found on a prototype.
const STATIC_TYPES = new Map([
  ['admin-account.js', 'text/javascript'],
  ['admin.css', 'text/css'],
])

function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=')
    if (k === name) return v.join('=')
  }
  return undefined
}

interface AdminRequest extends Request {
  admin?: AdminSession
}

const idParam = (req: Request): number | undefined => {
  const id = String(req.params.id ?? '')
  return /^[1-9][0-9]{0,9}$/.test(id) ? Number(id) : undefined
}

const versionSummary = (v: DocumentVersion) => {
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

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

function page(title: string, body: string): string {
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

export function createAdminRouter(deps: ServerDeps, store: DocumentStore, adminsReady: Promise<unknown> = Promise.resolve()): Router {
  const router = Router()
  const { signIn, account } = createSignInRouter(deps, (...args) => store.audit(...args), adminsReady)
  // Secure whenever the request came over TLS (req.secure honours X-Forwarded-Proto from a trusted proxy).
  const secure = (req: Request) => req.secure

  const noStore = (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Cache-Control', 'no-store')
    next()
  }
  router.use(['/admin', '/admin/*splat'], noStore)

  const authenticate = async (req: AdminRequest, res: Response, next: NextFunction) => {
    const session = await sessionFor(deps.data, readCookie(req, COOKIE), deps.now())
    if (!session) return sendError(res, 401, HTTP_ERRORS.unauthorized)
    if (req.method !== 'GET' && req.method !== 'HEAD' && !csrfMatches(session, req.header('x-csrf-token')))
      return sendError(res, 403, 'CSRF_TOKEN_INVALID')
    req.admin = session
    next()
  }
  // A refusal for the role is audited (who, what, on which path, why) before the 403.
  const role =
    (...roles: AdminRole[]) =>
    async (req: AdminRequest, res: Response, next: NextFunction) => {
      if (req.admin && roles.includes(req.admin.user.role)) return next()
      if (req.admin) await store.audit(req.admin.user.email, 'admin.role-refused', `${req.method} ${req.path}`, { role: req.admin.user.role, needs: roles, reason: `needs the role ${roles.join(' or ')}` })
      sendError(res, 403, 'FORBIDDEN_FOR_ROLE', { needs: roles })
    }

  // an account scoped to jurisdictions changes only their documents (./scope.ts): refused → 403, audited
  const scope = (fileOf: (req: Request) => Promise<string | string[] | undefined> | string | undefined) => scopeGuard((...entry) => store.audit(...entry), fileOf)
  const bodyFile = (req: Request) => (typeof (req.body as { file?: unknown } | undefined)?.file === 'string' ? (req.body as { file: string }).file : undefined)
  const versionFile = async (req: Request) => {
    const id = idParam(req)
    return id === undefined ? undefined : (await store.version(id))?.file
  }

  const answer = async <T>(res: Response, pending: StoreResult<T> | Promise<StoreResult<T>>, map: (value: T) => unknown, status = 200) => {
    const result = await pending
    if (result.ok) return sendOk(res, map(result.value), status)
    sendError(res, ADMIN_STATUS.get(result.code) ?? 400, result.code, result.details)
  }
  // A read's audit entry, written before the answer: a read that cannot be audited is not returned.
  // A failed append rejects into the error handler (503 STORAGE_UNAVAILABLE when the store is down).
  const auditRead = async (actor: string, action: string, subject: string, details: Record<string, unknown>) => {
    try {
      await store.audit(actor, action, subject, details)
    } catch (error) {
      deps.log.warn('audit.append.failed', { action, error: (error as Error).message })
      throw error
    }
  }

  // ---- the page and its static files ------------------------------------------------------------

  router.get('/admin/static/:file', (req, res) => {
    const file = req.params.file
    const type = STATIC_TYPES.get(file)
    if (!type) return sendError(res, 404, HTTP_ERRORS.notFound)
    res.type(type).send(readFileSync(join(PUBLIC_DIR, file), 'utf8'))
  })

  router.get(['/admin', '/admin/'], async (req, res) => {
    const session = await sessionFor(deps.data, readCookie(req, COOKIE), deps.now())
    if (!session) {
      res.type('html').send(
        page(
          'Parlay admin: sign in',
          `<main class="login" id="login">
<h1>Parlay admin</h1>
<form id="login-form" autocomplete="on">
<label>Email <input name="email" type="email" autocomplete="username" required data-testid="admin-email"></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required data-testid="admin-password"></label>
<button type="submit" data-testid="admin-login">Sign in</button>
<p class="error" id="login-error" role="alert"></p>
</form>
</main>`,
        ),
      )
      return
    }
    // staff work in one app each: support in the services views, everyone else in the studio
    res.redirect(303, session.user.role === 'support' ? '/admin/services' : '/admin/studio')
  })

  // the admin's own account, for every role (support too): password, recovery codes, the audit checkpoint
  router.get('/admin/account', async (req, res) => {
    const session = await sessionFor(deps.data, readCookie(req, COOKIE), deps.now())
    if (!session) return res.redirect(303, '/admin')
    const home = session.user.role === 'support' ? '/admin/services' : '/admin/studio'
    res.type('html').send(
      page(
        'Parlay admin: account',
        `<header class="bar"><strong>Parlay admin</strong> <span data-testid="admin-who" data-role="${session.user.role}">${escapeHtml(session.user.name)} (${session.user.role})</span>
<nav><a href="${home}">Back</a></nav>
<button id="logout" type="button">Sign out</button></header>
${checkpointLine(await currentCheckpoint(deps.data, deps.now()))}
<main id="account" data-email="${escapeHtml(session.user.email)}"><p>Loading…</p></main>`,
      ),
    )
  })

  // ---- session: sign-in in two steps, the account's own settings (./sign-in.ts) -----------------
  router.use(signIn)
  router.use('/admin/api', (req: AdminRequest, res, next) => (SIGN_IN_PATHS.has(req.path) ? next() : authenticate(req, res, next)))
  // support staff (issue 18) read the services' records only: deny by default (./support-role.ts)
  router.use('/admin/api', limitSupport)
  router.use(account((req) => (req as AdminRequest).admin))

  router.get('/admin/api/session', (req: AdminRequest, res) => sendOk(res, { user: req.admin!.user, csrf: req.admin!.csrf }))

  router.post('/admin/api/logout', async (req: AdminRequest, res) => {
    await closeSession(deps.data, req.admin!)
    await store.audit(req.admin!.user.email, 'admin.logout', 'admin', {})
    res.setHeader('Set-Cookie', [`${COOKIE}=; Path=/admin; HttpOnly; SameSite=Strict; Max-Age=0${secure(req) ? '; Secure' : ''}`, ...previewCookies(null, 0, secure(req))])
    sendOk(res, null)
  })

  // ---- documents and versions -------------------------------------------------------------------

  router.get('/admin/api/documents', async (_req, res) => {
    sendOk(
      res,
      [...(await store.published()).values()].map((v) => versionSummary(v)),
    )
  })

  router.get('/admin/api/document', async (req, res) => {
    const file = typeof req.query.file === 'string' ? req.query.file : ''
    const published = await store.publishedVersionOf(file)
    if (!published) return sendError(res, 404, HTTP_ERRORS.notFound)
    sendOk(res, { published: { ...versionSummary(published), content: published.content }, history: (await store.versions({ file, limit: 50 })).map(versionSummary) })
  })

  const listSchema = { type: 'object', properties: { state: { enum: ['draft', 'in_review', 'approved', 'rejected', 'published', 'superseded', 'withdrawn'] }, file: { type: 'string', maxLength: 200 } }, additionalProperties: false }
  router.get('/admin/api/versions', async (req, res) => {
    const query = { ...(req.query as Record<string, unknown>) }
    if (Object.values(query).some((v) => typeof v !== 'string')) return sendError(res, 400, HTTP_ERRORS.validation)
    const problem = check(listSchema, query)
    if (problem) return sendError(res, 400, HTTP_ERRORS.validation, problem)
    sendOk(res, (await store.versions({ state: query.state as DocumentVersion['state'] | undefined, file: query.file as string | undefined, limit: 200 })).filter((v) => v.origin !== 'seed' || v.deleted || query.file).map(versionSummary))
  })

  const diffFor = (version: DocumentVersion) => store.diff(version)
  /** The published set and the set with this version live: what the review reads its reach and words from. */
  const changeSetsOf = async (version: DocumentVersion): Promise<ChangeSets> => ({
    before: (await store.publishedRecords()).records,
    after: (await store.recordsWith(version)).records,
    sites: deps.documents.sites(),
  })

  router.get('/admin/api/versions/:id', async (req, res) => {
    const id = idParam(req)
    const version = id === undefined ? undefined : await store.version(id)
    if (!version) return sendError(res, 404, HTTP_ERRORS.notFound)
    const findings = await diffFor(version)
    const published = await store.publishedVersionOf(version.file)
    const sets = await changeSetsOf(version)
    const reach = reachOf(version.file, sets)
    sendOk(res, {
      ...versionSummary(version),
      content: version.content,
      publishedContent: published?.content ?? null,
      publishedVersion: published?.id ?? null,
      lint: version.lint ?? [],
      reach,
      diff: { summary: summaryOf(findings), findings: withPunterWords(findings, [reach], sets), html: toHtmlFragment(findings) },
    })
  })

  router.get('/admin/api/versions/:id/diff', async (req, res) => {
    const id = idParam(req)
    const version = id === undefined ? undefined : await store.version(id)
    if (!version) return sendError(res, 404, HTTP_ERRORS.notFound)
    const format = (typeof req.query.format === 'string' ? req.query.format : 'json') as DiffFormat
    if (!DIFF_FORMATS.includes(format)) return sendError(res, 400, HTTP_ERRORS.validation, { field: 'format', code: 'enum' })
    const output = render(format, await diffFor(version), { before: `published ${version.file}`, after: `version ${version.id}` })
    res.type(format === 'html' ? 'html' : format === 'markdown' ? 'text/markdown' : 'application/json').send(output)
  })

  router.post('/admin/api/versions/:id/lint', async (req, res) => {
    const id = idParam(req)
    const version = id === undefined ? undefined : await store.version(id)
    if (!version) return sendError(res, 404, HTTP_ERRORS.notFound)
    sendOk(res, await store.check(version))
  })

  const draftSchema = {
    type: 'object',
    required: ['file', 'content'],
    properties: { file: { type: 'string', minLength: 1, maxLength: 200 }, content: { type: 'string', minLength: 2, maxLength: 60000 } },
    additionalProperties: false,
  }
  router.post('/admin/api/drafts', role('operator'), validateBody(draftSchema), scope(bodyFile), async (req: AdminRequest, res) => {
    const { file, content } = req.body as { file: string; content: string }
    await answer(res, store.createDraft(req.admin!.user.email, file, content), versionSummary, 201)
  })

  // a save names the draft revision it edits: a stale one is refused with the saved text (DRAFT_CONFLICT)
  const updateSchema = { type: 'object', required: ['content', 'revision'], properties: { content: draftSchema.properties.content, revision: { type: 'integer', minimum: 1 } }, additionalProperties: false }
  router.put('/admin/api/versions/:id', role('operator'), validateBody(updateSchema), scope(versionFile), async (req: AdminRequest, res) => {
    const id = idParam(req)
    if (id === undefined) return sendError(res, 404, HTTP_ERRORS.notFound)
    await answer(res, store.updateDraft(req.admin!.user.email, id, (req.body as { content: string }).content, (req.body as { revision: number }).revision), versionSummary)
  })

  const emptySchema = { type: 'object', properties: {}, additionalProperties: false }
  const optionalBody = (req: Request, _res: Response, next: NextFunction) => {
    if (req.body === undefined) req.body = {}
    next()
  }

  router.post('/admin/api/versions/:id/submit', role('operator'), scope(versionFile), optionalBody, validateBody(emptySchema), async (req: AdminRequest, res) => {
    const id = idParam(req)
    if (id === undefined) return sendError(res, 404, HTTP_ERRORS.notFound)
    await answer(res, await store.submit(req.admin!.user.email, id), versionSummary)
  })

  const approveSchema = { type: 'object', properties: { comment: { type: 'string', maxLength: 2000 } }, additionalProperties: false }
  router.post('/admin/api/versions/:id/approve', role('compliance'), scope(versionFile), optionalBody, validateBody(approveSchema), async (req: AdminRequest, res) => {
    const id = idParam(req)
    if (id === undefined) return sendError(res, 404, HTTP_ERRORS.notFound)
    await answer(res, await store.approve(req.admin!.user.email, id, (req.body as { comment?: string }).comment ?? ''), versionSummary)
  })

  const rejectSchema = { type: 'object', required: ['comment'], properties: { comment: { type: 'string', minLength: 3, maxLength: 2000, pattern: '\\S' } }, additionalProperties: false }
  router.post('/admin/api/versions/:id/reject', role('compliance'), scope(versionFile), validateBody(rejectSchema), async (req: AdminRequest, res) => {
    const id = idParam(req)
    if (id === undefined) return sendError(res, 404, HTTP_ERRORS.notFound)
    await answer(res, store.reject(req.admin!.user.email, id, (req.body as { comment: string }).comment), versionSummary)
  })

  router.post('/admin/api/versions/:id/withdraw', role('operator'), scope(versionFile), async (req: AdminRequest, res) => {
    const id = idParam(req)
    if (id === undefined) return sendError(res, 404, HTTP_ERRORS.notFound)
    await answer(res, store.withdraw(req.admin!.user.email, id), versionSummary)
  })

  router.post('/admin/api/versions/:id/publish', role('operator', 'compliance'), scope(versionFile), async (req: AdminRequest, res) => {
    const id = idParam(req)
    if (id === undefined) return sendError(res, 404, HTTP_ERRORS.notFound)
    await answer(res, await store.publish(req.admin!.user.email, id), versionSummary)
  })

  // ---- a version's review thread, kept across reject and resubmit (./review-thread.ts)
  router.use(createReviewThreadRouter(deps, store, role, scope))

  // ---- rollbacks: four-eyes, or an emergency reviewed afterwards (./rollbacks.ts)
  router.use(createRollbacksRouter(store, role, versionSummary, scope))
  // ---- new documents and deletions from the studio, as drafts for review (./authoring.ts)
  router.use(createAuthoringRouter(deps, store, role, scope, versionSummary))
  router.use(createStudioTextsRouter(deps))
  // ---- staff accounts' jurisdiction scopes, set from the studio (./staff-scopes.ts)
  router.use(createStaffScopesRouter(deps, (...entry) => store.audit(...entry), role))

  // ---- previews: both sides rendered by the real engine -------------------------------------------

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

  // ---- waivers: scoped, ending, revocable, four-eyes (server/admin/waivers.ts) -----------------
  router.use(createWaiversRouter(deps, store, role))

  // ---- audit log ----------------------------------------------------------------------------------

  // filter, search, CSV export (audited) and the chain's check: ./audit-routes.ts
  router.use(createAuditRouter(deps, (req, action, details) => auditRead((req as AdminRequest).admin!.user.email, action, 'audit', details)))
  router.get('/admin/api/approved-fingerprints', async (_req, res) => res.json(await store.approvedFingerprints()))

  // ---- the operator studio (issue 19): server/admin/studio.ts
  router.use(createStudioRouter({ deps, store, sessionOf: (req) => sessionFor(deps.data, readCookie(req, COOKIE), deps.now()), sessionToken: (req) => readCookie(req, COOKIE) }))

  // ---- releases: several drafts reviewed, scheduled, published and rolled back together (server/admin/releases.ts)
  // an account scoped to jurisdictions acts only on releases whose every document is in its scope
  const releaseFiles = async (req: AdminRequest) => {
    const release = idParam(req) === undefined ? undefined : await releaseBookOf(store, deps.now).release(idParam(req)!)
    const ids = release ? (await releaseBookOf(store, deps.now).versionsOf(release)).map((v) => v.id) : []
    const body = req.body as { versions?: unknown; add?: unknown } | undefined
    for (const list of [body?.versions, body?.add]) if (Array.isArray(list)) ids.push(...list.filter((v): v is number => Number.isSafeInteger(v)))
    const files = await Promise.all(ids.map(async (id) => (await store.version(id))?.file))
    return files.find((file): file is string => !!file && !!outOfScope(req.admin!.user.jurisdictions, file))
  }
  const releaseActions = ['submit', 'approve', 'reject', 'withdraw', 'schedule', 'publish', 'rollback'].map((action) => `/admin/api/releases/:id/${action}`)
  router.post(['/admin/api/releases', ...releaseActions], scope(releaseFiles))
  router.patch('/admin/api/releases/:id', scope(releaseFiles))
  router.use(createReleasesRouter(deps, store, role))

  // ---- message outbox (simulators): SMS codes and e-mail links for a demo; every read audited --
  router.get('/admin/api/outbox', ...adminOutboxRoute(deps, (req: AdminRequest, details) => auditRead(req.admin!.user.email, 'admin.outbox-read', 'outbox', details)))

  // ---- contact-us messages (issue 34): support and compliance answer them; every read audited --
  router.get(
    '/admin/api/contact-messages',
    role('support', 'compliance'),
    ...adminContactRoute(deps, (req: AdminRequest, details) => auditRead(req.admin!.user.email, 'admin.contact-messages-read', 'contact-messages', details)),
  )

  // ---- messages to punters (issue 15): one punter at once, a segment or everyone after a second admin approves
  // … and the punter's view of one being written, live (./message-preview.ts)
  router.use(createMessagePreviewRouter(deps, store, (req) => readCookie(req, COOKIE)))
  router.use(createAdminMessagesRouter(deps, (req) => (req as AdminRequest).admin!.user))

  // ---- services (issue 18): analytics events, reported errors, recognitions; every read audited
  router.use(createAdminServicesRouter(deps, (req, action, details) => auditRead((req as AdminRequest).admin!.user.email, action, 'services', details)))

  return router
}
