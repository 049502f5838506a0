/**
 * Server module `games` (issue 14 item 6): launching a lobby game, playing a round of the demo
 * engines (slot, crash) through the one balance function, and favourites per product.
 *
 *   GET {mobile}/games/{product}/{gameId}                  launch: the game, its engine and stakes (restricted punters refused)
 *   POST {mobile}/games/{product}/{gameId}/play {stake, idempotencyKey, cashOutAt?}   one round, decided here
 *   GET {mobile}/games/favorites?product=casino            the punter's favourites of a product
 *   PUT {mobile}/games/favorites {product, gameId, favorite}
 *   GET {mobile}/games/favorites/{product}                the favourites as lobby cards (id, title, provider, image)
 *   GET /api/games/info?product=&id=                      a lobby game's public card with its return to player (./info.ts)
 *   POST /api/games/demo/{product}/{gameId}/play           a guest's demo round with play money (./demo.ts)
 *
 * Each lobby game plays the game document (schemas/games/) that claims it for the punter's own
 * jurisdiction, offered only when its declared return lies within that jurisdiction's range
 * (./catalogue.ts; the demo stands in for the providers' games, same origin, under the site's CSP).
 */
import { randomBytes } from 'node:crypto'
import { Router, type Response } from 'express'
import { GATEWAY, type ServerDeps } from '../deps'
import { lobbyGames } from '../content/games'
import { sendError, sendOk } from '../http/envelope'
import { validateBody, validateQuery, idempotencyKeyProperty } from '../http/validate'
import type { ServerModule } from '../module'
import { balanceOf as balanceMinorOf, changeBalance } from '../punters/events'
import { announceRound } from '../realtime/gambling'
import type { Punter } from '../punters/repository'
import { assertAllowedFor } from '../regulation/restrictions'
import { requirePunter } from '../signup/punters'
import { toMajor } from '../../kernel/core/money'
import { checkStake, gameStakeBoundsFor, stakeBoundsView } from '../bets/bounds'
import type { GameMaths } from '../../kernel/games/maths'
import { cashOutProblem, launchFigures, offerFor } from './catalogue'
import { playGame, roundStream } from './engine'
import { createGameInfoRouter } from './info'
import { createDemoRouter } from './demo'
import { deleteRound, favorites, findRoundByKey, insertRound, setFavorite, type Round } from './store'
import { stakeGuardFor } from '../payments/loss-limits'
import type { BalanceChange, ChangeRefusal } from '../punters/events'

export const GAME_PRODUCTS = ['casino', 'live-casino', 'live-games', 'virtual-sports', 'fast-games', 'mgames', 'crash'] as const
export type GameProduct = (typeof GAME_PRODUCTS)[number]

export interface CatalogueGame {
  gameId: string
  title: string
  product: GameProduct
}

export function gameOf(product: string, gameId: string): CatalogueGame | undefined {
  if (!(GAME_PRODUCTS as readonly string[]).includes(product)) return undefined
  const found = lobbyGames(product).find((g) => g.id === gameId)
  return found && { gameId: found.id, title: found.title, product: product as GameProduct }
}

export const PLAY_SCHEMA = {
  type: 'object',
  required: ['stake', 'idempotencyKey'],
  additionalProperties: false,
  properties: {
    stake: { type: 'number', exclusiveMinimum: 0, maximum: 1_000_000, description: "Major units of the punter's currency, with at most its decimals (read exactly); the range is the punter's jurisdiction's (games.stake)." },
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

const SEED = process.env.PARLAY_GAMES_SEED || 'parlay-demo-games'


/**
 * Development only (`POST /api/dev/games/next-round {atLeast}`): the next round this server plays
 * is drawn among round ids until one pays at least that multiple. It stays an honest round of the
 * engine (its outcome recomputes from its id); a browser test sees a big win without waiting on chance.
 */
const nextRoundAtLeast = new WeakMap<ServerDeps['db'], number>()
const MAX_DRAWS = 100_000

function drawRound(maths: GameMaths, cashOutAt: number | undefined, atLeast = 0) {
  for (let draw = 1; ; draw++) {
    const id = randomBytes(12).toString('base64url')
    const { outcome, payHundredths } = playGame(maths, roundStream(SEED, id), cashOutAt === undefined ? undefined : Math.round(cashOutAt * 100))
    if (payHundredths >= atLeast * 100 || draw >= MAX_DRAWS) return { id, outcome, payHundredths }
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
export async function playRound(deps: Pick<ServerDeps, 'db' | 'data'>, punterId: number, game: CatalogueGame & { maths: GameMaths }, stakeMinor: number, key: string, cashOutAt: number | undefined, now: number, guard?: BalanceChange['guard']): Promise<{ round: Round; created: boolean } | 'INSUFFICIENT_FUNDS' | { refused: ChangeRefusal }> {
  const { db, data } = deps
  let round = await findRoundByKey(data.db, punterId, key)
  if (!round) {
    const atLeast = nextRoundAtLeast.get(db)
    nextRoundAtLeast.delete(db)
    const { id, outcome, payHundredths } = drawRound(game.maths, cashOutAt, atLeast)
    // integers only: a crash target of 1.15 on 1.00 pays 115, never 114.99999
    const winMinor = Math.floor((stakeMinor * payHundredths) / 100)
    await insertRound(data.db, { id, punterId, idempotencyKey: key, product: game.product, gameId: game.gameId, engine: game.maths.engine, stakeMinor, winMinor, outcome: { ...outcome } }, now)
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
    // a loss limit of the punter's (server/payments/loss-limits.ts), checked in the same transaction
    guard,
  })
  if (change.refused) {
    await deleteRound(data.db, round.roundId)
    return { refused: change.refused }
  }
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
  const balanceOf = async (punter: Punter) => toMajor(await balanceMinorOf(data, punter.id), punter.currency)

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
    const list = lobbyGames(product, req.query.locale)
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
    const offer = offerFor(deps.documents, punter.jurisdiction, game.product, game.gameId)
    if (!offer.ok) return sendError(res, offer.httpStatus, offer.code, offer.payload)
    res.setHeader('Cache-Control', 'no-store')
    // the stake range of the punter's own jurisdiction (games.stake), in the punter's currency
    const stake = stakeBoundsView(gameStakeBoundsFor(deps, req, punter.currency), punter.currency)
    sendOk(res, { ...game, ...launchFigures(offer.game), currency: punter.currency, stake, balance: await balanceOf(punter), favorite: (await favorites(data.db, punter.id, game.product)).includes(game.gameId) })
  })

  router.post('/games/:product/:gameId/play', auth, validateBody(PLAY_SCHEMA), async (req, res) => {
    const game = gameOf(String(req.params.product), String(req.params.gameId))
    if (!game) return sendError(res, 404, 'GAME_NOT_FOUND')
    const punter = punterOf(res)
    const allowed = await assertAllowedFor(deps, req, punter.id, 'game')
    if (!allowed.ok) return sendError(res, allowed.httpStatus, allowed.code, allowed.payload)
    const offer = offerFor(deps.documents, punter.jurisdiction, game.product, game.gameId)
    if (!offer.ok) return sendError(res, offer.httpStatus, offer.code, offer.payload)
    const body = req.body as { stake: number; idempotencyKey: string; cashOutAt?: number }
    const wrongCashOut = cashOutProblem(offer.game.maths, body.cashOutAt)
    if (wrongCashOut) return sendError(res, 400, 'ValidationError', { field: 'cashOutAt', code: wrongCashOut })
    const stake = checkStake(body.stake, punter.currency, gameStakeBoundsFor(deps, req, punter.currency))
    if (!stake.ok) return sendError(res, stake.httpStatus, stake.code, stake.payload)
    const played = await playRound(deps, punter.id, { ...game, maths: offer.game.maths }, stake.stakeMinor, body.idempotencyKey, body.cashOutAt, deps.now(), stakeGuardFor(deps, req, punter.currency)(stake.stakeMinor))
    if (played === 'INSUFFICIENT_FUNDS') return sendError(res, 409, 'INSUFFICIENT_FUNDS')
    if ('refused' in played) return sendError(res, played.refused.httpStatus, played.refused.code, played.refused.payload)
    if (played.created) {
      log.info('games.round', { punterId: punter.id, product: game.product, gameId: game.gameId, roundId: played.round.roundId })
      announceRound(played.round, game.title)
    }
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, { ...played.round, currency: punter.currency, balance: await balanceOf(punter) })
  })
  return router
}

export const gamesModule: ServerModule = {
  name: 'games',
  mount(app, deps) {
    app.use(GATEWAY.mobile, createGamesRouter(deps))
    app.use(createGameInfoRouter(deps, GAME_PRODUCTS, gameOf))
    app.use(createDemoRouter(deps, gameOf, SEED))
    if (deps.config.development)
      app.post('/api/dev/games/next-round', validateBody(NEXT_ROUND_SCHEMA), (req, res) => {
        const { atLeast } = req.body as { atLeast: number }
        nextRoundAtLeast.set(deps.db, atLeast)
        sendOk(res, { atLeast })
      })
  },
}
