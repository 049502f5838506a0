/**
 * The punter's session for the regulation calls: the same check as the accounts calls
 * (punter-session-hash header, optional Bearer access token), 401 UNAUTHORIZED when not live.
 */
import type { NextFunction, Request, Response } from 'express'
import { HEADERS } from '../../engine/core/contracts'
import { authenticate } from '../auth/sessions'
import type { ServerDeps } from '../deps'
import { HTTP_ERRORS, sendError } from '../http/envelope'
import { punterSessionCheck } from '../http/route-docs'
import { findPunterById } from '../punters/repository'

export function requirePunter(deps: Pick<ServerDeps, 'db' | 'data' | 'now'>) {
  return punterSessionCheck(async (req: Request, res: Response, next: NextFunction) => {
    const bearer = /^Bearer (\S{1,200})$/.exec(req.header('authorization') ?? '')?.[1]
    const session = await authenticate(deps.data, req.header(HEADERS.sessionHash), bearer, deps.now())
    const punter = session && (await findPunterById(deps.data, session.punterId))
    if (!session || !punter) return sendError(res, 401, HTTP_ERRORS.unauthorized)
    req.punterSession = { sessionId: session.sessionId, punterId: session.punterId, punter }
    next()
  })
}
