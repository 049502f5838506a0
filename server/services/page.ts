/**
 * /admin/services: the services page of the admin (events, errors, recognitions, replays, and the
 * contact-us messages for support and compliance), a page of its
 * own beside the main admin page so the two evolve separately. Signed-out visitors are sent to
 * /admin to sign in; the data comes from the audited /admin/api/services/* reads.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { Router, type Request } from 'express'
import { cspHeader } from '../http/csp'
import type { ServerDeps } from '../deps'
import { sessionFor } from '../admin/accounts'
import { checkpointLine } from '../admin/checkpoint-line'
import { currentCheckpoint } from '../store/audit'

const PUBLIC = join(import.meta.dirname, 'public')
const SCRIPT = join(PUBLIC, 'services.js')
/** The playback rewrite for the site's CSP (public/replay-csp.js), served beside services.js. */
const REPLAY_CSP = join(PUBLIC, 'replay-csp.js')
const ADMIN_COOKIE = 'parlay_admin'
/** rrweb's replayer for the replay view, served from the installed package (own origin only). */
const RRWEB_DIST = dirname(createRequire(import.meta.url).resolve('rrweb'))
const RRWEB_FILES = new Map([
  ['rrweb.js', { file: 'rrweb.js', type: 'text/javascript' }],
  ['rrweb.css', { file: 'style.css', type: 'text/css' }],
])
/**
 * The page's CSP: the site's own, unchanged. rrweb rebuilds the recorded page in a sandboxed
 * iframe; its inline styles and style sheets are applied through the CSSOM (public/replay-csp.js),
 * which the policy allows, so no style is inline markup.
 */
function pageCsp(): string {
  return cspHeader({})
}

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
  router.get('/admin/services/static/replay-csp.js', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    res.type('text/javascript').send(readFileSync(REPLAY_CSP, 'utf8'))
  })
  router.get('/admin/services/static/:file', (req, res, next) => {
    const known = RRWEB_FILES.get(req.params.file)
    if (!known) return next()
    res.setHeader('Cache-Control', 'no-cache')
    res.type(known.type).send(readFileSync(join(RRWEB_DIST, known.file), 'utf8'))
  })
  router.get('/admin/services', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    res.setHeader('Content-Security-Policy', pageCsp())
    const session = await sessionFor(deps.data, cookie(req, ADMIN_COOKIE), deps.now())
    if (!session) return res.redirect(303, '/admin')
    res.type('html').send(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Parlay admin: services</title>
<link rel="stylesheet" href="/admin/static/admin.css">
<link rel="stylesheet" href="/admin/services/static/rrweb.css">
<script type="module" src="/admin/services/static/services.js"></script>
</head>
<body>
<header class="bar"><strong>Parlay admin</strong> <span data-testid="admin-who">${escapeHtml(session.user.name)} (${session.user.role})</span>
<nav>${session.user.role === 'support' ? '' : '<a href="/admin/studio" data-testid="services-studio-link">Studio</a> '}<a href="#events">Events</a> <a href="#errors">Errors</a> <a href="#recognitions">Recognitions</a> <a href="#replays">Replays</a> <a href="#clicks">Taps</a> ${session.user.role === 'operator' ? '' : '<a href="#contact" data-testid="admin-contact-link">Contact messages</a> '}<a href="/admin/account" data-testid="admin-account-link">Account</a></nav></header>
${checkpointLine(await currentCheckpoint(deps.data, deps.now()))}
<main id="app"><p>Loading…</p></main>
</body>
</html>
`)
  })
  return router
}
