/**
 * The owner's two ways to use an unlock link (./unlock.ts): opening it (GET, a redirect) and the
 * API call (POST), named handlers so createAuthRouter stays a list of routes.
 */
import type { RequestHandler } from 'express'
import type { ServerDeps } from '../deps'
import { sendError, sendOk } from '../http/envelope'
import { findPunterById } from '../punters/repository'
import { useUnlockToken } from './unlock'

/** The token of an opened unlock link's query: a string of at most 200 characters, else '' (no token). */
export function linkToken(query: unknown): string {
  return typeof query === 'string' && query.length <= 200 ? query : ''
}

/** GET /auth/login/unlock: the same redirect whether or not the token was good. */
export function unlockByLink(deps: ServerDeps): RequestHandler {
  return async (req, res) => {
    const token = linkToken(req.query.token)
    const punterId = token ? await useUnlockToken(deps, token, (id) => findPunterById(deps.data, id)) : undefined
    deps.log.info('auth.unlock', { punterId, ok: punterId !== undefined, by: 'link' })
    res.redirect(303, '/')
  }
}

/** POST /auth/login/unlock: TOKEN_NOT_FOUND for a token that is unknown, used or expired. */
export function unlockByApi(deps: ServerDeps): RequestHandler {
  return async (req, res) => {
    const punterId = await useUnlockToken(deps, (req.body as { token: string }).token, (id) => findPunterById(deps.data, id))
    deps.log.info('auth.unlock', { punterId, ok: punterId !== undefined, by: 'api' })
    if (punterId === undefined) return sendError(res, 400, 'TOKEN_NOT_FOUND')
    sendOk(res, { unlocked: true })
  }
}
