/**
 * Error pages as HTML for page paths (issue 9, spec §2 error page): a page URL with broken
 * percent-encoding gets 400 Bad Request, a POST (or any method but GET/HEAD) to a page gets 405
 * Method Not Allowed — as the site's own page, not a JSON envelope; API paths keep the envelope.
 * The answer is the client's index.html with the status in a meta tag (the shell shows its error
 * page in the site's language) and a plain error page inside #root for a browser without scripts.
 */
import type { NextFunction, Request, Response } from 'express'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export type PageErrorStatus = 400 | 405
const TITLES: Record<PageErrorStatus, string> = { 400: 'Bad Request', 405: 'Method Not Allowed' }
/** Paths answered in the JSON envelope, never as pages. */
const API_PREFIXES = ['/api/', '/mobile-gate/', '/client-gate/', '/uniweb-gate/', '/admin/api/', '/experiments/', '/casino-gate/', '/live-casino-gate/']
export const STATUS_META = 'parlay-status'

export const isApiPath = (path: string): boolean => API_PREFIXES.some((prefix) => path.startsWith(prefix) || path === prefix.slice(0, -1))

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path)
    return true
  } catch {
    return false
  }
}

function fallbackBody(status: PageErrorStatus): string {
  return (
    `<main class="app-main"><div class="error-page" data-testid="error-page" data-status="${status}">` +
    `<h1 class="error-page__status">${status}</h1><h2 class="error-page__title">${TITLES[status]}</h2>` +
    `<a class="button error-page__home" href="/">Go to the home page</a></div></main>`
  )
}

/** The client's index.html turned into the error page for `status` (plain HTML when not built). */
export function errorPageHtml(indexHtml: string | undefined, status: PageErrorStatus): string {
  const title = `${status}: ${TITLES[status]}`
  if (!indexHtml) return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${fallbackBody(status)}</body></html>`
  return indexHtml
    .replace(/<title>[^<]*<\/title>/, `<title>${title}</title>`)
    .replace('</head>', `<meta name="${STATUS_META}" content="${status}" /></head>`)
    .replace(/<div id="root"><\/div>/, `<div id="root">${fallbackBody(status)}</div>`)
}

export function createErrorPages(distDir: string) {
  let indexHtml: string | undefined
  const readIndex = () => {
    const file = join(distDir, 'index.html')
    if (indexHtml === undefined && existsSync(file)) indexHtml = readFileSync(file, 'utf8')
    return indexHtml
  }
  const send = (res: Response, status: PageErrorStatus) => {
    if (status === 405) res.setHeader('Allow', 'GET, HEAD')
    res.status(status).setHeader('Cache-Control', 'no-store').type('html').send(errorPageHtml(readIndex(), status))
  }
  return {
    send,
    /** 400 page for a page path whose percent-encoding does not decode (before static files try). */
    malformedPath(req: Request, res: Response, next: NextFunction) {
      if (isApiPath(req.path) || decodes(req.path)) return next()
      send(res, 400)
    },
  }
}
