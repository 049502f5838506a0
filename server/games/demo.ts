/**
 * Demo play (issue 31 item 3): a guest tries a lobby game with play money where the site's
 * jurisdiction allows it (its document's `games.demoPlay`).
 *
 *   POST /api/games/demo/{product}/{gameId}/play {stake, cashOutAt?}   one demo round
 *
 * A demo round plays the same game document's maths through the same round code as a real one
 * (./engine.ts), from a fresh random round id; nothing is stored and the ledger is never touched:
 * the play money is the page's own (engine/actions/games-demo.ts). Refused with the reason: the
 * site does not allow demo play (403 DEMO_PLAY_NOT_ALLOWED), the game's return is outside the
 * site's range (403 GAME_RETURN_NOT_ALLOWED), no such game (404 GAME_NOT_FOUND).
 */
import { randomBytes } from 'node:crypto'
import { Router } from 'express'
import type { ServerDeps } from '../deps'
import { jurisdictionOf } from '../dictionary'
import { sendError, sendOk } from '../http/envelope'
import { siteContext } from '../http/site'
import { validateBody } from '../http/validate'
import { cashOutProblem, offerFor } from './catalogue'
import { playGame, roundStream } from './engine'
import { scaledInteger } from '../../kernel/core/money'

/** The most play money a demo round may stake (the page starts a guest with 1,000). */
export const DEMO_STAKE_MAXIMUM = 1000

export const DEMO_PLAY_SCHEMA = {
  type: 'object',
  required: ['stake'],
  additionalProperties: false,
  properties: {
    stake: { type: 'number', exclusiveMinimum: 0, maximum: DEMO_STAKE_MAXIMUM, description: 'Play money, with at most 2 decimals (read exactly).' },
    cashOutAt: { type: 'number', minimum: 1.01, maximum: 1000, description: 'Crash only: the multiplier to cash out at automatically.' },
  },
} as const

/** Whether the request's site lets guests play for fun (its jurisdiction document's games.demoPlay). */
export function demoPlayAllowed(deps: Pick<ServerDeps, 'documents'>, req: Parameters<typeof jurisdictionOf>[1]): boolean {
  return (jurisdictionOf(deps, req) as unknown as { games?: { demoPlay?: unknown } } | undefined)?.games?.demoPlay === true
}

type GameOf = (product: string, gameId: string) => { gameId: string; product: string } | undefined

export function createDemoRouter(deps: Pick<ServerDeps, 'documents'>, gameOf: GameOf, seed: string): Router {
  const router = Router()
  router.post('/api/games/demo/:product/:gameId/play', validateBody(DEMO_PLAY_SCHEMA), (req, res) => {
    const game = gameOf(String(req.params.product), String(req.params.gameId))
    if (!game) return sendError(res, 404, 'GAME_NOT_FOUND')
    if (!demoPlayAllowed(deps, req)) return sendError(res, 403, 'DEMO_PLAY_NOT_ALLOWED')
    const offer = offerFor(deps.documents, siteContext(req, deps).jurisdiction, game.product, game.gameId)
    if (!offer.ok) return sendError(res, offer.httpStatus, offer.code, offer.payload)
    const body = req.body as { stake: number; cashOutAt?: number }
    const wrongCashOut = cashOutProblem(offer.game.maths, body.cashOutAt)
    if (wrongCashOut) return sendError(res, 400, 'ValidationError', { field: 'cashOutAt', code: wrongCashOut })
    const scaled = scaledInteger(body.stake, 2)
    if (scaled === undefined) return sendError(res, 400, 'ValidationError', { field: 'stake', code: 'multipleOf' })
    const stakeMinor = Number(scaled)
    const roundId = `demo-${randomBytes(12).toString('base64url')}`
    const { outcome, payHundredths } = playGame(offer.game.maths, roundStream(seed, roundId), body.cashOutAt === undefined ? undefined : Math.round(body.cashOutAt * 100))
    // integers only, as a real round pays: a crash target of 1.15 on 1.00 pays 1.15, never 1.1499
    const winMinor = Math.floor((stakeMinor * payHundredths) / 100)
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, { roundId, product: game.product, gameId: game.gameId, engine: offer.game.maths.engine, stake: stakeMinor / 100, win: winMinor / 100, outcome, demo: true })
  })
  return router
}
