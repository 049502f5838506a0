/**
 * One log line per request, and a request id that follows it (issue 16 item 3). The id comes
 * from the caller's `X-Request-Id` when it is well-formed (a proxy's or a client's trace id),
 * otherwise a fresh UUID; it is echoed in the response header and carried by every line the
 * request's child logger (`res.locals.log`) writes, with the site. The punter, when the request
 * had a session, is logged as a keyed hash (server/log.ts) — never an id, token or session hash.
 */
import type { NextFunction, Request, Response } from 'express'
import { randomUUID } from 'node:crypto'
import type { ServerDeps } from '../deps'
import type { Logger } from '../log'
import { siteContext } from '../http/site'
import { answeredRoute, rememberRouteAtHeaders } from './route-template'

export const REQUEST_ID_HEADER = 'X-Request-Id'
/** What an incoming id may look like: 8–128 characters of letters, digits and `._:-`. */
const WELL_FORMED_ID = /^[A-Za-z0-9._:-]{8,128}$/

export function requestIdOf(req: Request): string {
  const given = req.headers['x-request-id']
  return typeof given === 'string' && WELL_FORMED_ID.test(given) ? given : randomUUID()
}

function siteOf(req: Request, deps: Pick<ServerDeps, 'documents'>): string | undefined {
  try {
    return siteContext(req, deps).site.id
  } catch {
    return undefined
  }
}

/** The request's own logger (with its request id and site), for modules that want one. */
export function requestLog(res: Response, fallback: Logger): Logger {
  return (res.locals.log as Logger | undefined) ?? fallback
}

export function logRequests(deps: Pick<ServerDeps, 'documents' | 'log'>) {
  return (req: Request, res: Response, next: NextFunction) => {
    const requestId = requestIdOf(req)
    const started = process.hrtime.bigint()
    res.setHeader(REQUEST_ID_HEADER, requestId)
    rememberRouteAtHeaders(req, res)
    const site = siteOf(req, deps)
    const log = deps.log.child?.({ requestId, site }) ?? deps.log
    res.locals.log = log
    res.once('finish', () => {
      const punterId = (req as Request & { punterSession?: { punterId: number } }).punterSession?.punterId
      // a punter's request through another site was served by the punter's own (docs/adr/0001)
      const bound = site === undefined ? undefined : siteContext(req, deps)
      const fields = {
        method: req.method,
        route: answeredRoute(req, res),
        status: res.statusCode,
        ms: Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10,
        ...(punterId !== undefined ? { punterId } : {}),
        ...(bound?.requestedSite !== undefined ? { servedSite: bound.site.id } : {}),
      }
      // a 503 is an answer the server chose (draining, storage down: logged where it was decided)
      if (res.statusCode >= 500 && res.statusCode !== 503) log.error('http.request', fields)
      else log.info('http.request', fields)
    })
    next()
  }
}
