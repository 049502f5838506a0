/**
 * The staff session in the admin API: sign-in in two steps and the account's own settings
 * (./sign-in.ts), the session check (and CSRF on writes) in front of every other `/admin/api` call,
 * support's deny-by-default limit (./support-role.ts), the session read and logout.
 */
import type { Request, Router } from 'express'
import type { ServerDeps } from '../deps'
import { sendOk } from '../http/envelope'
import { previewCookies } from '../store/preview'
import type { DocumentStore } from '../store/store'
import { closeSession } from './accounts'
import type { AdminRequest } from './admin-http'
import type { AdminGuards } from './guards'
import { ADMIN_COOKIE as COOKIE, createSignInRouter, SIGN_IN_PATHS } from './sign-in'
import { limitSupport } from './support-role'

export function mountSessionRoutes(router: Router, deps: ServerDeps, store: DocumentStore, authenticate: AdminGuards['authenticate'], adminsReady: Promise<unknown>): void {
  const { signIn, account } = createSignInRouter(deps, (...args) => store.audit(...args), adminsReady)
  // Secure whenever the request came over TLS (req.secure honours X-Forwarded-Proto from a trusted proxy).
  const secure = (req: Request) => req.secure

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
}
