/**
 * The punter session check every punter route runs (accounts, credentials, regulation, sign-up):
 * the punter-session-hash header and an optional Bearer access token, checked with the punter's
 * row in ONE statement (./sessions.ts authenticatePunter). One copy, so every route pays the same
 * single round trip and a change to the check reaches all of them.
 */
import type { NextFunction, Request, Response } from 'express'
import { HEADERS } from '../../engine/core/contracts'
import type { ServerDeps } from '../deps'
import { HTTP_ERRORS, sendError } from '../http/envelope'
import { punterSessionCheck } from '../http/route-docs'
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

/** Middleware: `req.punterSession` for a live session, else 401 UNAUTHORIZED. With
 * `withInboxStatistics` (the heartbeat) the punter's inbox counts come in the same statement. */
export function requirePunterSession(deps: Pick<ServerDeps, 'data' | 'now'>, options?: { withInboxStatistics?: boolean }) {
  return punterSessionCheck(async (req: Request, res: Response, next: NextFunction) => {
    const found = await sessionOfRequest(deps, req, options)
    if (!found) return sendError(res, 401, HTTP_ERRORS.unauthorized)
    req.punterSession = { sessionId: found.session.sessionId, punterId: found.session.punterId, punter: found.punter, inboxStatistics: found.inboxStatistics }
    next()
  })
}
