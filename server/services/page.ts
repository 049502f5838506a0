/**
 * /admin/services: the services page of the admin (events, errors, recognitions), a page of its
 * own beside the main admin page so the two evolve separately. Signed-out visitors are sent to
 * /admin to sign in; the data comes from the audited /admin/api/services/* reads.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Router, type Request } from 'express'
import type { ServerDeps } from '../deps'
import { sessionFor } from '../admin/accounts'

const SCRIPT = join(import.meta.dirname, 'public', 'services.js')
const ADMIN_COOKIE = 'parlay_admin'

function cookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key === name) return decodeURIComponent(rest.join('='))
  }
  return undefined
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

export function createServicesPage(deps: ServerDeps): Router {
  const router = Router()
  router.get('/admin/services/static/services.js', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    res.type('text/javascript').send(readFileSync(SCRIPT, 'utf8'))
  })
  router.get('/admin/services', (req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    const session = sessionFor(deps.db, cookie(req, ADMIN_COOKIE), deps.now())
    if (!session) return res.redirect(303, '/admin')
    res.type('html').send(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Parlay admin: services</title>
<link rel="stylesheet" href="/admin/static/admin.css">
<script type="module" src="/admin/services/static/services.js"></script>
</head>
<body>
<header class="bar"><strong>Parlay admin</strong> <span data-testid="admin-who">${escapeHtml(session.user.name)} (${session.user.role})</span>
<nav><a href="/admin">Admin</a> <a href="#events">Events</a> <a href="#errors">Errors</a> <a href="#recognitions">Recognitions</a></nav></header>
<main id="app"><p>Loading…</p></main>
</body>
</html>
`)
  })
  return router
}
