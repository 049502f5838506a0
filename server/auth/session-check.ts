/**
 * The punter session check every punter route runs (accounts, credentials, regulation, sign-up):
 * the punter-session-hash header and an optional Bearer access token, checked with the punter's
 * row in ONE statement (./sessions.ts authenticatePunter). One copy, so every route pays the same
 * single round trip and a change to the check reaches all of them.
 *
 * A live session also rebinds the request to the punter's own site (server/http/site.ts
 * `bindPunterSite`; docs/adr/0001-punter-jurisdiction-is-the-accounts.md): from here on every
 * jurisdiction rule the route reads is the account's, never the host's or the target header's.
 */
import type { NextFunction, Request, Response } from 'express'
import { HEADERS } from '../../kernel/core/contracts'
import type { ServerDeps } from '../deps'
import { HTTP_ERRORS, sendError } from '../http/envelope'
import { punterSessionCheck } from '../http/route-docs'
import { bindPunterSite } from '../http/site'
import type { Punter } from '../punters/repository'
import { authenticatePunter, type SessionPunter } from './sessions'
import type { InboxStatistics } from '../messages/store'

declare module 'express-serve-static-core' {
  interface Request {
    punterSession?: { sessionId: string; punterId: number; punter: Punter; inboxStatistics?: InboxStatistics }
  }
}

/** The request's live session and punter, or undefined (the caller answers 401). */
export function sessionOfRequest(deps: Pick<ServerDeps, 'data' | 'now'>, req: Request, options?: { withInboxStatistics?: boolean }): Promise<SessionPunter | undefined> {
  const bearer = /^Bearer (\S{1,200})$/.exec(req.header('authorization') ?? '')?.[1]
  return authenticatePunter(deps.data, req.header(HEADERS.sessionHash), bearer, deps.now(), options)
}

type PunterAuthDeps = Pick<ServerDeps, 'data' | 'now' | 'documents'>

/**
 * The request's live session and punter with the request bound to the punter's own site; or the
 * refusal already sent (401 UNAUTHORIZED without a live session, 503 SERVICE_UNAVAILABLE when no
 * site serves the punter's jurisdiction: never the host's rules instead).
 */
export async function punterOfRequest(deps: PunterAuthDeps, req: Request, res: Response, options?: { withInboxStatistics?: boolean }): Promise<SessionPunter | undefined> {
  const found = await sessionOfRequest(deps, req, options)
  if (!found) {
    sendError(res, 401, HTTP_ERRORS.unauthorized)
    return undefined
  }
  if (!bindPunterSite(req, deps, found.punter.jurisdiction)) {
    sendError(res, 503, 'SERVICE_UNAVAILABLE')
    return undefined
  }
  return found
}

/**
 * Middleware for calls guests make too but whose answer is a jurisdiction's rule (the payment
 * methods, the self-exclusion options, the session reminder): with a live session the request is
 * bound to the punter's own site, without one it follows the host. Never refuses.
 */
export function punterSiteIfLoggedIn(deps: PunterAuthDeps) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    const found = req.header(HEADERS.sessionHash) ? await sessionOfRequest(deps, req) : undefined
    if (found) bindPunterSite(req, deps, found.punter.jurisdiction)
    next()
  }
}

/** Middleware: `req.punterSession` for a live session, else 401 UNAUTHORIZED. With
 * `withInboxStatistics` (the heartbeat) the punter's inbox counts come in the same statement. */
export function requirePunterSession(deps: PunterAuthDeps, options?: { withInboxStatistics?: boolean }) {
  return punterSessionCheck(async (req: Request, res: Response, next: NextFunction) => {
    const found = await punterOfRequest(deps, req, res, options)
    if (!found) return
    req.punterSession = { sessionId: found.session.sessionId, punterId: found.session.punterId, punter: found.punter, inboxStatistics: found.inboxStatistics }
    next()
  })
}
