/**
 * The admin's HTML pages: the sign-in page (`/admin`; signed-in staff go on to the studio or, for
 * support, the services views), the staff account page (`/admin/account`) and their two static files.
 */
import type { Router } from 'express'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ServerDeps } from '../deps'
import { HTTP_ERRORS, sendError } from '../http/envelope'
import { currentCheckpoint } from '../store/audit'
import { sessionFor } from './accounts'
import { escapeHtml, page, PUBLIC_DIR, readCookie, STATIC_TYPES } from './admin-http'
import { checkpointLine } from './checkpoint-line'
import { ADMIN_COOKIE as COOKIE } from './sign-in'

export function mountAdminPages(router: Router, deps: ServerDeps): void {
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
}
