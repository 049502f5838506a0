/**
 * The admin API (`/admin/api/...`), the sign-in and account pages (`/admin`, `/admin/account`; signed-in staff go on to the studio or, for support, the services views) and draft previews
 * (`/admin/preview/...`). Operators edit drafts; compliance approves or rejects with a comment;
 * the store enforces four-eyes and the lint gate whoever calls it. Every state-changing request
 * needs the session cookie (HttpOnly, SameSite=Strict) and the session's CSRF token in
 * `x-csrf-token`. Answers use the gateway envelope; bad input is a 4xx, never a 500.
 */
import { Router, type NextFunction, type Request, type Response } from 'express'
import type { ServerDeps } from '../deps'
import type { DocumentStore } from '../store/store'
import { adminContactRoute } from '../contact/routes'
import { adminOutboxRoute } from '../signup/outbox'
import { createAdminMessagesRouter } from '../messages/admin'
import { createAdminServicesRouter } from '../services/admin'
import { createStudioRouter } from './studio'
import { createReleasesRouter } from './releases'
import { createMessagePreviewRouter } from './message-preview'
import { sessionFor } from './accounts'
import { ADMIN_COOKIE as COOKIE } from './sign-in'
import { mountSessionRoutes } from './session-routes'
import { createWaiversRouter } from './waivers'
import { createAuditRouter } from './audit-routes'
import { createReviewThreadRouter } from './review-thread'
import { createRollbacksRouter } from './rollbacks'
import { createStaffScopesRouter } from './staff-scopes'
import { createAuthoringRouter } from './authoring'
import { createStudioTextsRouter } from './studio-texts'
import { readCookie, versionSummary, type AdminRequest } from './admin-http'
import { adminGuards, releaseScope } from './guards'
import { mountAdminPages } from './pages'
import { mountPreviewRoutes } from './preview-routes'
import { mountVersionLifecycle, mountVersionReads } from './version-routes'

export function createAdminRouter(deps: ServerDeps, store: DocumentStore, adminsReady: Promise<unknown> = Promise.resolve()): Router {
  const router = Router()
  const noStore = (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Cache-Control', 'no-store')
    next()
  }
  router.use(['/admin', '/admin/*splat'], noStore)

  const guards = adminGuards(deps, store)
  const { role, scope, auditRead } = guards

  // ---- the page and its static files (./pages.ts) ----------------------------------------------
  mountAdminPages(router, deps)

  // ---- session: sign-in in two steps, the account's own settings (./session-routes.ts) ---------
  mountSessionRoutes(router, deps, store, guards.authenticate, adminsReady)

  // ---- documents and versions (./version-routes.ts) ---------------------------------------------
  mountVersionReads(router, deps, store)
  mountVersionLifecycle(router, store, guards)

  // ---- a version's review thread, kept across reject and resubmit (./review-thread.ts)
  router.use(createReviewThreadRouter(deps, store, role, scope))

  // ---- rollbacks: four-eyes, or an emergency reviewed afterwards (./rollbacks.ts)
  router.use(createRollbacksRouter(store, role, versionSummary, scope))
  // ---- new documents and deletions from the studio, as drafts for review (./authoring.ts)
  router.use(createAuthoringRouter(deps, store, role, scope, versionSummary))
  router.use(createStudioTextsRouter(deps))
  // ---- staff accounts' jurisdiction scopes, set from the studio (./staff-scopes.ts)
  router.use(createStaffScopesRouter(deps, (...entry) => store.audit(...entry), role))
  // ---- previews: both sides rendered by the real engine (./preview-routes.ts) ---------------------
  mountPreviewRoutes(router, deps, store, guards)

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
  const releaseActions = ['submit', 'approve', 'reject', 'withdraw', 'schedule', 'publish', 'rollback'].map((action) => `/admin/api/releases/:id/${action}`)
  const inReleaseScope = releaseScope(deps, store, scope)
  router.post(['/admin/api/releases', ...releaseActions], inReleaseScope)
  router.patch('/admin/api/releases/:id', inReleaseScope)
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
