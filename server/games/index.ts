/**
 * Server module `games` (issue 14 item 6): launching a lobby game, playing a round of the demo
 * engines (slot, crash) through the one balance function, and favourites per product.
 *
 *   GET {mobile}/games/{product}/{gameId}                  launch: the game, its engine and stakes (restricted punters refused)
 *   POST {mobile}/games/{product}/{gameId}/play {stake, idempotencyKey, cashOutAt?}   one round, decided here
 *   GET {mobile}/games/favorites?product=casino            the punter's favourites of a product
 *   PUT {mobile}/games/favorites {product, gameId, favorite}
 *   GET {mobile}/games/favorites/{product}                the favourites as lobby cards (id, title, provider, image)
 *
 * Every game of the crash product plays the crash engine; every other lobby game plays the slot
 * (the demo stands in for the providers' games, same origin, under the site's CSP).
 */
import { randomBytes } from 'node:crypto'
import { Router, type Response } from 'express'
import { GATEWAY, type ServerDeps } from '../deps'
import { demoEvents, demoGames } from '../content/router'
import { sendError, sendOk } from '../http/envelope'
import { validateBody, validateQuery, idempotencyKeyProperty } from '../http/validate'
import type { ServerModule } from '../modules'
import { balanceOf as balanceMinorOf, changeBalance } from '../punters/events'
import { announceRound } from '../realtime/gambling'
import type { Punter } from '../punters/repository'
import { assertAllowedFor } from '../regulation/restrictions'
import { requirePunter } from '../signup/punters'
import { playCrash, roundNumbers, spinSlot } from './engine'
import { deleteRound, favorites, findRoundByKey, insertRound, setFavorite, type Round } from './store'
import './openapi'

export const GAME_PRODUCTS = ['casino', 'live-casino', 'live-games', 'virtual-sports', 'fast-games', 'mgames', 'crash'] as const
export type GameProduct = (typeof GAME_PRODUCTS)[number]
export const GAME_STAKE = { minimum: 0.1, maximum: 500 } as const

export interface CatalogueGame {
  gameId: string
  title: string
  product: GameProduct
  engine: 'slot' | 'crash'
}

export function gameOf(product: string, gameId: string): CatalogueGame | undefined {
  if (!(GAME_PRODUCTS as readonly string[]).includes(product)) return undefined
  const list = product === 'virtual-sports' ? demoEvents(product) : demoGames(product)
  const found = list.find((g) => g.id === gameId)
  return found && { gameId: found.id, title: found.title, product: product as GameProduct, engine: product === 'crash' ? 'crash' : 'slot' }
}

export const PLAY_SCHEMA = {
  type: 'object',
  required: ['stake', 'idempotencyKey'],
  additionalProperties: false,
  properties: {
    stake: { type: 'number', exclusiveMinimum: 0, maximum: 1_000_000, description: "Major units of the punter's currency, at most 2 decimals." },
    idempotencyKey: idempotencyKeyProperty('The same key answers the first round again (a double tap plays once).'),
    cashOutAt: { type: 'number', minimum: 1.01, maximum: 1000, description: 'Crash only: the multiplier to cash out at automatically.' },
  },
} as const

export const FAVORITES_QUERY = { type: 'object', required: ['product'], additionalProperties: false, properties: { product: { enum: GAME_PRODUCTS } } } as const
export const FAVORITE_SCHEMA = {
  type: 'object',
  required: ['product', 'gameId', 'favorite'],
  additionalProperties: false,
  properties: { product: { enum: GAME_PRODUCTS }, gameId: { type: 'string', pattern: '^[a-z0-9-]{1,60}$' }, favorite: { type: 'boolean' } },
} as const

const hasAtMostTwoDecimals = (amount: number) => Math.abs(Math.round(amount * 100) - amount * 100) < 1e-6
const SEED = process.env.PARLAY_GAMES_SEED || 'parlay-demo-games'


/**
 * Development only (`POST /api/dev/games/next-round {atLeast}`): the next round this server plays
 * is drawn among round ids until one pays at least that multiple. It stays an honest round of the
 * engine (its outcome recomputes from its id); a browser test sees a big win without waiting on chance.
 */
const nextRoundAtLeast = new WeakMap<ServerDeps['db'], number>()
const MAX_DRAWS = 100_000

function drawRound(game: CatalogueGame, cashOutAt: number | undefined, atLeast = 0) {
  for (let draw = 1; ; draw++) {
    const id = randomBytes(12).toString('base64url')
    const numbers = roundNumbers(SEED, id)
    const outcome = game.engine === 'crash' ? playCrash(numbers, cashOutAt ?? 2) : spinSlot(numbers)
    const multiplier = 'won' in outcome ? (outcome.won ? outcome.cashOutAt : 0) : outcome.multiplier
    if (multiplier >= atLeast || draw >= MAX_DRAWS) return { id, outcome, multiplier }
  }
}

export const NEXT_ROUND_SCHEMA = {
  type: 'object',
  required: ['atLeast'],
  additionalProperties: false,
  properties: { atLeast: { type: 'number', minimum: 0, maximum: 200, description: 'The least multiple of the stake the next round pays.' } },
} as const

/**
 * Plays one round. The round row (this store, the query layer) and its ledger entry (the punters
 * store's `changeBalance`, the net change win − stake) are two steps, ordered so a failure between
 * them loses nothing (server/db/README.md, step 6): first the round, fixed for its key (a parallel
 * request with the same key keeps the first: same outcome, same amounts); then the spend, once per
 * key (the ledger reference is unique). A round found again (a double tap, or a retry after a
 * crash between the steps) runs the same idempotent debit, so it is played exactly once; a debit
 * refused for funds withdraws the round. Only a round with its ledger entry is answered as played.
 */
export async function playRound(deps: Pick<ServerDeps, 'db' | 'data'>, punterId: number, game: CatalogueGame, stakeMinor: number, key: string, cashOutAt: number | undefined, now: number): Promise<{ round: Round; created: boolean } | 'INSUFFICIENT_FUNDS'> {
  const { db, data } = deps
  let round = await findRoundByKey(data.db, punterId, key)
  if (!round) {
    const atLeast = nextRoundAtLeast.get(db)
    nextRoundAtLeast.delete(db)
    const { id, outcome, multiplier } = drawRound(game, cashOutAt, atLeast)
    const winMinor = Math.floor(stakeMinor * multiplier)
    await insertRound(data.db, { id, punterId, idempotencyKey: key, product: game.product, gameId: game.gameId, engine: game.engine, stakeMinor, winMinor, outcome: { ...outcome } }, now)
    round = (await findRoundByKey(data.db, punterId, key))!
  }
  const { stakeMinor: stake, winMinor: win, ...played } = round
  const change = await changeBalance(data, {
    punterId,
    amountMinor: win - stake,
    reference: `game:${punterId}:${key}`,
    kind: 'game',
    now,
    // the money before the round must cover the stake (the win is credited by the same change): real
    // money first, then the product's bonus account, the win shared back in proportion
    // (server/punters/stakes.ts); checked in the punter's serialised transaction, so parallel rounds
    // on any instance never overdraw
    stake: { product: game.product, stakeMinor: stake },
  })
  if (change.insufficient) {
    await deleteRound(data.db, round.roundId)
    return 'INSUFFICIENT_FUNDS'
  }
  return { round: played, created: change.applied }
}

export function createGamesRouter(deps: ServerDeps): Router {
  const router = Router()
  const { data, log } = deps
  const auth = requirePunter(deps)
  const punterOf = (res: Response) => res.locals.punter as Punter
  const balanceOf = async (punterId: number) => (await balanceMinorOf(data, punterId)) / 100

  router.get('/games/favorites', auth, validateQuery(FAVORITES_QUERY), async (req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, { product: req.query.product, gameIds: await favorites(data.db, punterOf(res).id, String(req.query.product)) })
  })
  router.put('/games/favorites', auth, validateBody(FAVORITE_SCHEMA), async (req, res) => {
    const body = req.body as { product: GameProduct; gameId: string; favorite: boolean }
    if (!gameOf(body.product, body.gameId)) return sendError(res, 404, 'GAME_NOT_FOUND')
    await setFavorite(data.db, punterOf(res).id, body.product, body.gameId, body.favorite, deps.now())
    sendOk(res, { product: body.product, gameIds: await favorites(data.db, punterOf(res).id, body.product) })
  })

  // the favourites as lobby cards (a favourites screen's account.load takes a path)
  router.get('/games/favorites/:product', auth, async (req, res) => {
    const product = String(req.params.product)
    if (!(GAME_PRODUCTS as readonly string[]).includes(product)) return sendError(res, 404, 'GAME_NOT_FOUND')
    const list = product === 'virtual-sports' ? demoEvents(product) : demoGames(product)
    const ids = await favorites(data.db, punterOf(res).id, product)
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, ids.flatMap((id) => list.filter((g) => g.id === id)))
  })

  router.get('/games/:product/:gameId', auth, async (req, res) => {
    const game = gameOf(String(req.params.product), String(req.params.gameId))
    if (!game) return sendError(res, 404, 'GAME_NOT_FOUND')
    const punter = punterOf(res)
    const allowed = await assertAllowedFor(deps, req, punter.id, 'game')
    if (!allowed.ok) return sendError(res, allowed.httpStatus, allowed.code, allowed.payload)
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, { ...game, currency: punter.currency, stake: GAME_STAKE, balance: await balanceOf(punter.id), favorite: (await favorites(data.db, punter.id, game.product)).includes(game.gameId) })
  })

  router.post('/games/:product/:gameId/play', auth, validateBody(PLAY_SCHEMA), async (req, res) => {
    const game = gameOf(String(req.params.product), String(req.params.gameId))
    if (!game) return sendError(res, 404, 'GAME_NOT_FOUND')
    const punter = punterOf(res)
    const allowed = await assertAllowedFor(deps, req, punter.id, 'game')
    if (!allowed.ok) return sendError(res, allowed.httpStatus, allowed.code, allowed.payload)
    const body = req.body as { stake: number; idempotencyKey: string; cashOutAt?: number }
    if (!hasAtMostTwoDecimals(body.stake)) return sendError(res, 400, 'ValidationError', { field: 'stake', code: 'multipleOf' })
    if (body.stake < GAME_STAKE.minimum) return sendError(res, 400, 'STAKE_TOO_LOW', { limit: GAME_STAKE.minimum, currency: punter.currency })
    if (body.stake > GAME_STAKE.maximum) return sendError(res, 400, 'STAKE_TOO_HIGH', { limit: GAME_STAKE.maximum, currency: punter.currency })
    const played = await playRound(deps, punter.id, game, Math.round(body.stake * 100), body.idempotencyKey, body.cashOutAt, deps.now())
    if (played === 'INSUFFICIENT_FUNDS') return sendError(res, 409, 'INSUFFICIENT_FUNDS')
    if (played.created) {
      log.info('games.round', { punterId: punter.id, product: game.product, gameId: game.gameId, roundId: played.round.roundId })
      announceRound(played.round, game.title)
    }
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, { ...played.round, currency: punter.currency, balance: await balanceOf(punter.id) })
  })
  return router
}

export const gamesModule: ServerModule = {
  name: 'games',
  mount(app, deps) {
    app.use(GATEWAY.mobile, createGamesRouter(deps))
    if (deps.config.development)
      app.post('/api/dev/games/next-round', validateBody(NEXT_ROUND_SCHEMA), (req, res) => {
        const { atLeast } = req.body as { atLeast: number }
        nextRoundAtLeast.set(deps.db, atLeast)
        sendOk(res, { atLeast })
      })
  },
}
