/**
 * Every page, last before the error handler in server/app.ts: the client's HTML with the route's
 * boot data inlined (server/http/boot.ts), an ETag over the whole page, revalidated on every load.
 * The SPA renders every page; the status still tells crawlers and tests whether the path exists.
 */
import type express from 'express'
import type { Request, Response } from 'express'
import type { ServerDeps } from '../deps'
import { servesPage } from '../documents/router'
import { createPageRenderer, type RenderedPage } from './boot'
import { sendError } from './envelope'
import type { createErrorPages } from './error-pages'

/** Does an If-None-Match header name this ETag (a weak W/ tag matches its strong twin; a list is split on commas)? */
export const etagMatches = (ifNoneMatch: string | undefined, etag: string): boolean =>
  !!ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)

function sendPage(deps: ServerDeps, req: Request, res: Response, page: RenderedPage | undefined) {
  if (!page) return sendError(res, 503, 'CLIENT_NOT_BUILT')
  const known = servesPage(deps, req) && !page.notFound
  res.setHeader('Cache-Control', 'no-cache')
  res.setHeader('Vary', 'Host, Accept-Language, Cookie')
  res.setHeader('ETag', page.etag)
  if (page.timing) res.setHeader('Server-Timing', page.timing)
  // a first visit's experiment id and groups (server/experiments/visitor-groups.ts)
  if (page.cookie) res.append('Set-Cookie', page.cookie)
  if (known && etagMatches(req.headers['if-none-match'], page.etag)) return void res.status(304).end()
  res.status(known ? 200 : 404).type('html').send(page.html)
}

/** GET/HEAD render the page; any other method on a page path is the 405 error page. */
export function servePages(app: express.Application, deps: ServerDeps, errorPages: ReturnType<typeof createErrorPages>): void {
  const pages = createPageRenderer(deps)
  app.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return errorPages.send(res, 405)
    pages.render(req).then((page) => sendPage(deps, req, res, page), next)
  })
}
