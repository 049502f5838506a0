/**
 * The session calls after login (spec §7 "Session and user"): refresh (token rotation), the two
 * logouts and the session's expiration, each a named handler of the deps, so createAuthRouter
 * stays a list of routes.
 */
import type { RequestHandler } from 'express'
import { HEADERS } from '../../kernel/core/contracts'
import type { ServerDeps } from '../deps'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { findPunterById, userData } from '../punters/repository'
import { authenticate, punterOfLiveRefreshToken, refreshSession, revokeAllSessions, sessionExpiration } from './sessions'

/** The refresh token a plain-text logout body carries (trimmed), or undefined when it is empty, longer than 200 characters or not text. */
export function plainTextToken(body: unknown): string | undefined {
  const token = typeof body === 'string' ? body.trim() : ''
  return token.length === 0 || token.length > 200 ? undefined : token
}

/** POST /auth/v2/token/refresh: rotates the refresh token (a reused one ends the session, ./sessions.ts). */
export function refreshTokens(deps: ServerDeps): RequestHandler {
  return async (req, res) => {
    const outcome = await refreshSession(deps.data, (req.body as { token: string }).token, deps.now())
    if (!outcome.ok) {
      deps.log.warn('auth.refresh.refused', { reuse: outcome.reuse === true })
      // 401: the session is over (spec §8); the client's gateway keeps this code (reason RT_EXPIRED).
      return sendError(res, 401, outcome.code)
    }
    const { punterId, ...tokens } = outcome.value
    deps.log.info('auth.refresh.rotated', { punterId })
    sendOk(res, { status: 'OK', ...tokens, punterToken: userData((await findPunterById(deps.data, punterId))!, 'en').punterToken })
  }
}

/** POST /auth/token/logout: logout by refresh token (plain-text body), ending every session of its punter. */
export function logoutByRefreshToken(deps: ServerDeps): RequestHandler {
  return async (req, res) => {
    if (!req.is('text/plain')) return sendError(res, 415, HTTP_ERRORS.unsupportedMediaType)
    const token = plainTextToken(req.body)
    if (token === undefined) return sendError(res, 400, HTTP_ERRORS.validation, { field: '', code: 'token' })
    // Only a live session's token ends the punter's sessions: a device already logged out (its
    // session ended by a password change elsewhere) must not log out the device that changed it.
    const punterId = await punterOfLiveRefreshToken(deps.data, token)
    if (punterId !== undefined) {
      const ended = await revokeAllSessions(deps.data, punterId, 'logout', deps.now())
      deps.log.info('auth.logout', { punterId, sessions: ended, by: 'refresh-token' })
    } else deps.log.info('auth.logout.ignored', { by: 'refresh-token', reason: 'no-live-session' })
    // The same answer whether or not the token was known.
    sendOk(res, null)
  }
}

/** POST /auth/logout: plain logout by the session hash; also ends every session of the punter. */
export function logoutBySessionHash(deps: ServerDeps): RequestHandler {
  return async (req, res) => {
    const session = await authenticate(deps.data, req.header(HEADERS.sessionHash), undefined, Number.NEGATIVE_INFINITY)
    if (session) {
      const ended = await revokeAllSessions(deps.data, session.punterId, 'logout', deps.now())
      deps.log.info('auth.logout', { punterId: session.punterId, sessions: ended, by: 'session-hash' })
    }
    sendOk(res, null)
  }
}

/** GET /auth/punter-session/expiration-timeout (behind the session check). */
export function sessionExpirationTimeout(deps: ServerDeps): RequestHandler {
  return async (req, res) => {
    sendOk(res, await sessionExpiration(deps.data, req.punterSession!.sessionId, deps.now()))
  }
}
