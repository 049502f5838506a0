/**
 * A lobby game's public card (issue 28 item 3, issue 31's "a game page titled with the game"):
 *
 *   GET /api/games/info?product=casino&id=book-of-ra    its title, engine, declared return to
 *       player and volatility, whether the request's site offers it, and whether a guest may play
 *       it for fun there (`demo`: the site's jurisdiction allows demo play and offers the game)
 *
 * For guests and for the game page's first screen (the server renders it with this answer), so the
 * return is shown before anyone plays, as regulated sites must. The site decides for a guest; a
 * punter's launch answers with his own jurisdiction's game (./catalogue.ts), which is what he plays.
 */
import { Router } from 'express'
import type { ServerDeps } from '../deps'
import { sendError, sendOk } from '../http/envelope'
import { siteContext } from '../http/site'
import { validateQuery } from '../http/validate'
import { gameBehind, launchFigures } from './catalogue'
import { demoPlayAllowed } from './demo'

type GameOf = (product: string, gameId: string) => { gameId: string; title: string; product: string } | undefined

export function createGameInfoRouter(deps: Pick<ServerDeps, 'documents'>, products: readonly string[], gameOf: GameOf): Router {
  const router = Router()
  const query = {
    type: 'object',
    required: ['product', 'id'],
    additionalProperties: false,
    properties: { product: { enum: products }, id: { type: 'string', pattern: '^[a-z0-9-]{1,60}$' }, locale: { type: 'string', pattern: '^[a-z]{2,3}$' } },
  } as const
  router.get('/api/games/info', validateQuery(query), (req, res) => {
    const product = String(req.query.product)
    const game = gameOf(product, String(req.query.id))
    const behind = game && gameBehind(deps.documents, siteContext(req, deps).jurisdiction, product, game.gameId)
    if (!game || !behind) return sendError(res, 404, 'GAME_NOT_FOUND')
    res.setHeader('Cache-Control', 'no-cache')
    sendOk(res, { ...game, ...launchFigures(behind.game), offered: behind.allowed, demo: behind.allowed && demoPlayAllowed(deps, req) })
  })
  return router
}
