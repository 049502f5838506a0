/**
 * The route a request matched, as its TEMPLATE (`/mobile-gate/api/v1/bets/:id`), for metric labels
 * and logs: raw paths would give every id its own time series. Requests no route matched are put
 * in a few fixed classes (client files, pages, unmatched), so the label set stays bounded.
 */
import type { Request, Response } from 'express'

export function routeTemplate(req: Request, status: number): string {
  const path = (req.route as { path?: unknown } | undefined)?.path
  if (path !== undefined) return `${req.baseUrl ?? ''}${Array.isArray(path) ? path.join('|') : String(path)}`
  if (status === 404) return '(unmatched)'
  if (req.path.startsWith('/assets/')) return '(client files)'
  if (req.method === 'GET' || req.method === 'HEAD') return '(page)'
  return '(other)'
}

/**
 * Remembers the template when the answer's headers go out: the handler is still inside its router
 * then, so `req.baseUrl` names the mount (`/mobile-gate/api/v1`); by the time the response has
 * finished, Express has already left the router. Read it with `answeredRoute`.
 */
export function rememberRouteAtHeaders(req: Request, res: Response): void {
  const writeHead = res.writeHead
  res.writeHead = function (this: Response, ...args: unknown[]) {
    if (res.locals.route === undefined) res.locals.route = routeTemplate(req, typeof args[0] === 'number' ? args[0] : res.statusCode)
    return (writeHead as (...a: unknown[]) => Response).apply(this, args)
  } as Response['writeHead']
}

export function answeredRoute(req: Request, res: Response): string {
  return (res.locals.route as string | undefined) ?? routeTemplate(req, res.statusCode)
}
