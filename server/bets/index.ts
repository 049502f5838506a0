/**
 * Server module `bets`: the bet slip's calls, open and settled bets, cash-out (issue 14 item 5).
 *
 *   GET  {mobile}/betslip/selections?ids=a,b        the selections as they stand (price, status, what they back)
 *   POST {mobile}/bets/place {kind, selections[{selectionId, price}], stake, idempotencyKey}
 *   GET  {mobile}/bets?status=open|settled          the punter's bets (with the cash-out offer on open ones)
 *   GET  {mobile}/bets/open, {mobile}/bets/settled  the same lists as paths
 *   GET  {mobile}/bets/{betId}                      one bet
 *   POST {mobile}/bets/{betId}/cash-out {amount, confirmation, delay?, requestId?}
 *
 * Settlement follows the feed (settlement.ts) from the moment the module mounts, after catching up
 * on results the feed already has, so bets placed before a restart settle after it.
 */
import { Router, type Request, type Response } from 'express'
import { toMajor } from '../../kernel/core/money'
import { potentialWinMinor } from '../../kernel/core/payout'
import { GATEWAY, type ServerDeps } from '../deps'
import { feedFor, type Feed } from '../feed'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { validateBody, validateQuery, idempotencyKeyProperty } from '../http/validate'
import type { ServerModule } from '../module'
import { balanceOf as balanceMinorOf, emitPunterEvent } from '../punters/events'
import type { Punter } from '../punters/repository'
import { assertAllowedFor } from '../regulation/restrictions'
import { requirePunter } from '../signup/punters'
import { CASH_OUT_CONFIRMATION_TYPES, createCashOut, type CashOutConfirmationType } from './cashout'
import { betBoundsFor } from './bounds'
import { BET_PLACING_MODES, MAX_LEGS, placeBet, type BetPlacingMode } from './placement'
import { cashOutValueMinor, followFeed } from './settlement'
import { countOpenBets, findBet, listBets, type Bet, type BetKind } from './store'
import { stakeGuardFor } from '../payments/loss-limits'

const SELECTION_ID = '^e\\d{1,12}-[a-z0-9-]{1,40}$'

export const PLACE_SCHEMA = {
  type: 'object',
  required: ['kind', 'selections', 'stake', 'idempotencyKey'],
  additionalProperties: false,
  properties: {
    kind: { enum: ['single', 'accumulator'], description: 'single: one selection; accumulator: 2–20 selections of different events.' },
    selections: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_LEGS,
      items: {
        type: 'object',
        required: ['selectionId', 'price'],
        additionalProperties: false,
        properties: {
          selectionId: { type: 'string', pattern: SELECTION_ID },
          price: { type: 'number', minimum: 1.01, maximum: 1000, description: 'The decimal price the punter saw; judged by their betPlacingMode.' },
        },
      },
    },
    stake: { type: 'number', exclusiveMinimum: 0, maximum: 1_000_000, description: "Major units of the punter's currency, with at most its decimals (read exactly); the range is the punter's jurisdiction's (betting.stake)." },
    idempotencyKey: idempotencyKeyProperty('The same key answers the first bet again (a double tap places one bet).'),
  },
} as const

export const BETS_QUERY = {
  type: 'object',
  additionalProperties: false,
  properties: { status: { enum: ['open', 'settled'] }, limit: { type: 'string', pattern: '^[1-9][0-9]?$' } },
} as const

export const SELECTIONS_QUERY = {
  type: 'object',
  required: ['ids'],
  additionalProperties: false,
  properties: { ids: { type: 'string', pattern: '^e\\d{1,12}-[a-z0-9-]{1,40}(,e\\d{1,12}-[a-z0-9-]{1,40}){0,19}$' } },
} as const

export const CASH_OUT_SCHEMA = {
  type: 'object',
  required: ['amount', 'confirmation'],
  additionalProperties: false,
  properties: {
    amount: { type: 'number', exclusiveMinimum: 0, maximum: 100_000_000, description: 'The offer the page showed (major units).' },
    confirmation: { enum: CASH_OUT_CONFIRMATION_TYPES, description: 'The punter\'s cashOutAutoConfirmationType: which changed offer to take without asking.' },
    delay: { type: 'boolean', description: 'isCashOutDelayActive: the first call records the request, the call after retryAfterMs decides it.' },
    requestId: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,40}$' },
  },
} as const

/** A bet's potential win in minor units: kept since it was placed, else computed from its legs the same way. */
export const potentialWinOf = (bet: Bet): number => bet.potentialWinMinor ?? Number(potentialWinMinor(bet.stakeMinor, bet.legs.map((l) => l.price)))

/** A bet as the pages get it: major units of its currency, the current cash-out offer on open bets. */
export function betView(feed: Feed, bet: Bet) {
  const offer = cashOutValueMinor(feed, bet)
  const major = (minor: number) => toMajor(minor, bet.currency)
  return {
    betId: bet.id,
    kind: bet.kind,
    stake: major(bet.stakeMinor),
    currency: bet.currency,
    price: bet.price,
    potentialWin: major(potentialWinOf(bet)),
    status: bet.status,
    payout: bet.payoutMinor === null ? null : major(bet.payoutMinor),
    createdAt: new Date(bet.createdAt).toISOString(),
    settledAt: bet.settledAt === null ? null : new Date(bet.settledAt).toISOString(),
    selections: bet.legs,
    cashOut: offer === undefined ? null : { amount: major(offer), currency: bet.currency },
  }
}

const modeOf = (punter: Punter): BetPlacingMode => {
  const mode = punter.settings.betPlacingMode
  return BET_PLACING_MODES.includes(mode as BetPlacingMode) ? (mode as BetPlacingMode) : 'GreaterOrEqualsToCurrent'
}

/** A bet slip selection as the feed has it now; UNKNOWN for an id the feed does not know. */
function selectionView(feed: Feed, id: string) {
  const s = feed.selection(id)
  if (!s) return { selectionId: id, status: 'UNKNOWN' }
  return { selectionId: id, price: s.price, status: s.status, code: s.code, line: s.line ?? null, marketKind: s.marketKind, event: s.event }
}

/** What POST /bets/place asks for: the body, with the punter's price mode and the site's money rules. */
function placement(deps: ServerDeps, req: Request, punter: Punter) {
  const body = req.body as { kind: BetKind; selections: { selectionId: string; price: number }[]; stake: number; idempotencyKey: string }
  return { punterId: punter.id, currency: punter.currency, kind: body.kind, picks: body.selections, stake: body.stake, idempotencyKey: body.idempotencyKey, mode: modeOf(punter), bounds: betBoundsFor(deps, req, punter.currency), guard: stakeGuardFor(deps, req, punter.currency) }
}

export function createBetsRouter(deps: ServerDeps, settlement: { idle(): Promise<void> }): Router {
  const router = Router()
  const { data, log } = deps
  const feed = feedFor(deps)
  const auth = requirePunter(deps)
  const punterOf = (res: Response) => res.locals.punter as Punter
  const requestCashOut = createCashOut(deps, feed)
  const balanceOf = async (punter: Punter) => toMajor(await balanceMinorOf(data, punter.id), punter.currency)
  /** The feed played up to now and the bets it settled meanwhile settled (a page then sees them closed). */
  const caughtUp = async () => {
    feed.advanceTo()
    await settlement.idle()
  }

  router.get('/betslip/selections', validateQuery(SELECTIONS_QUERY), (req, res) => {
    feed.advanceTo()
    const ids = String(req.query.ids).split(',')
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, ids.map((id) => selectionView(feed, id)))
  })

  router.post('/bets/place', auth, validateBody(PLACE_SCHEMA), async (req, res) => {
    const punter = punterOf(res)
    const allowed = await assertAllowedFor(deps, req, punter.id, 'bet')
    if (!allowed.ok) return sendError(res, allowed.httpStatus, allowed.code, allowed.payload)
    await caughtUp()
    const result = await placeBet(deps, feed, placement(deps, req, punter), deps.now())
    if (!result.ok) return sendError(res, result.httpStatus, result.code, result.payload)
    if (result.created) {
      log.info('bets.placed', { punterId: punter.id, betId: result.bet.id, kind: result.bet.kind, stakeMinor: result.bet.stakeMinor })
      emitPunterEvent('betCountUpdate', { punterId: punter.id, count: await countOpenBets(data.db, punter.id) })
    }
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, { ...betView(feed, result.bet), balance: await balanceOf(punter) })
  })

  router.get('/bets', auth, validateQuery(BETS_QUERY), async (req, res) => {
    await caughtUp()
    const which = req.query.status === 'settled' ? 'settled' : 'open'
    const limit = typeof req.query.limit === 'string' ? Number(req.query.limit) : 50
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, (await listBets(data.db, punterOf(res).id, which, limit)).map((bet) => betView(feed, bet)))
  })

  // the same lists as paths (a screen's account.load takes a path without a query)
  for (const which of ['open', 'settled'] as const)
    router.get(`/bets/${which}`, auth, async (_req, res) => {
      await caughtUp()
      res.setHeader('Cache-Control', 'no-store')
      sendOk(res, (await listBets(data.db, punterOf(res).id, which)).map((bet) => betView(feed, bet)))
    })

  router.get('/bets/:betId', auth, async (req, res) => {
    await settlement.idle()
    const bet = /^[A-Za-z0-9_-]{1,40}$/.test(String(req.params.betId)) ? await findBet(data.db, String(req.params.betId)) : undefined
    if (!bet || bet.punterId !== punterOf(res).id || bet.status === 'pending') return sendError(res, 404, 'BET_NOT_FOUND')
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, betView(feed, bet))
  })

  router.post('/bets/:betId/cash-out', auth, validateBody(CASH_OUT_SCHEMA), async (req, res) => {
    const betId = String(req.params.betId)
    if (!/^[A-Za-z0-9_-]{1,40}$/.test(betId)) return sendError(res, 404, 'BET_NOT_FOUND')
    const punter = punterOf(res)
    await caughtUp()
    const body = req.body as { amount: number; confirmation: CashOutConfirmationType; delay?: boolean; requestId?: string }
    const result = await requestCashOut({ punterId: punter.id, betId, amount: body.amount, confirmation: body.confirmation, delay: body.delay === true, requestId: body.requestId }, deps.now())
    if (!result.ok) return sendError(res, result.httpStatus, result.code, result.payload)
    res.setHeader('Cache-Control', 'no-store')
    if (result.status === 'PENDING') return sendOk(res, { status: 'PENDING', requestId: result.requestId, retryAfterMs: result.retryAfterMs })
    log.info('bets.cashed-out', { punterId: punter.id, betId, amount: result.amount })
    sendOk(res, { status: 'ACCEPTED', amount: result.amount, bet: betView(feed, result.bet), balance: await balanceOf(punter) })
  })

  return router
}

export const betsModule: ServerModule = {
  name: 'bets',
  mount(app, deps) {
    const settlement = followFeed(deps, feedFor(deps), deps.now, (error) => deps.log.error('bets.settlement-failed', { error: error instanceof Error ? error.message : String(error) }))
    app.use(GATEWAY.mobile, createBetsRouter(deps, settlement))
  },
}

export { HTTP_ERRORS }
