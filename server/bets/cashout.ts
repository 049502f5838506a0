/**
 * Cash-out (issue 14 item 5): the punter takes the bet's current value before it settles. The page
 * sends the amount it showed and the punter's confirmation type (spec §3 cashOutAutoConfirmationType):
 * with a different value now, INCREASE takes a higher one, ALWAYS takes any, NEVER takes none (the
 * page asks again with the new amount). With the delay setting (isCashOutDelayActive) the first call
 * only records the request; it is decided when asked again after CASH_OUT_DELAY_MS, at the value
 * then, so a price about to move cannot be snapped. Paying closes the bet once under
 * `bet-cashout:<id>`, through the same balance function as everything else.
 */
import { randomBytes } from 'node:crypto'
import type { Db } from '../db/database'
import type { Feed } from '../feed'
import { changeBalance, emitPunterEvent } from '../punters/events'
import { cashOutValueMinor } from './settlement'
import { closeBet, countOpenBets, findBet, type Bet } from './store'

export const CASH_OUT_CONFIRMATION_TYPES = ['INCREASE', 'ALWAYS', 'NEVER'] as const
export type CashOutConfirmationType = (typeof CASH_OUT_CONFIRMATION_TYPES)[number]
export const CASH_OUT_DELAY_MS = 3000
/** A pending request not asked about again within this time after its delay is forgotten. */
export const CASH_OUT_PENDING_TTL_MS = 60_000

export interface CashOutRequest {
  punterId: number
  betId: string
  /** The value the page showed (major units). */
  amount: number
  confirmation: CashOutConfirmationType
  delay: boolean
  /** The pending request being decided (delay on). */
  requestId?: string
}

export type CashOutResult =
  | { ok: true; status: 'ACCEPTED'; bet: Bet; amount: number }
  | { ok: true; status: 'PENDING'; requestId: string; retryAfterMs: number }
  | { ok: false; httpStatus: number; code: string; payload?: Record<string, unknown> }

/** Is `current` acceptable when the page showed `seen`, under this confirmation type? */
export function cashOutAccepted(type: CashOutConfirmationType, seenMinor: number, currentMinor: number): boolean {
  if (currentMinor === seenMinor || type === 'ALWAYS') return true
  return type === 'INCREASE' && currentMinor > seenMinor
}

interface Pending {
  betId: string
  punterId: number
  decideAt: number
}

export function createCashOut(db: Db, feed: Feed) {
  const pending = new Map<string, Pending>()

  const pay = (bet: Bet, valueMinor: number, now: number): boolean => {
    try {
      return changeBalance(db, {
        punterId: bet.punterId,
        amountMinor: valueMinor,
        reference: `bet-cashout:${bet.id}`,
        kind: 'bet-cashout',
        now,
        alsoWrite: () => {
          if (!closeBet(db, bet.id, 'cashed_out', valueMinor, now)) throw new Error('bet already closed')
        },
      }).applied
    } catch {
      return false
    }
  }

  /** Forgets requests whose page never asked again (closed tab, lost network): memory stays bounded. */
  const forgetAbandoned = (now: number) => {
    for (const [id, held] of pending) if (now > held.decideAt + CASH_OUT_PENDING_TTL_MS) pending.delete(id)
  }

  const delayed = (request: CashOutRequest, now: number): CashOutResult | undefined => {
    if (!request.delay) return undefined
    forgetAbandoned(now)
    const held = request.requestId ? pending.get(request.requestId) : undefined
    if (!held || held.betId !== request.betId || held.punterId !== request.punterId) {
      const requestId = randomBytes(9).toString('base64url')
      pending.set(requestId, { betId: request.betId, punterId: request.punterId, decideAt: now + CASH_OUT_DELAY_MS })
      emitPunterEvent('coRequest', { punterId: request.punterId, betId: request.betId, requestId, status: 'PENDING' })
      return { ok: true, status: 'PENDING', requestId, retryAfterMs: CASH_OUT_DELAY_MS }
    }
    if (now < held.decideAt) return { ok: true, status: 'PENDING', requestId: request.requestId!, retryAfterMs: held.decideAt - now }
    pending.delete(request.requestId!)
    return undefined
  }

  return function requestCashOut(request: CashOutRequest, now: number): CashOutResult {
    const bet = findBet(db, request.betId)
    if (!bet || bet.punterId !== request.punterId) return { ok: false, httpStatus: 404, code: 'BET_NOT_FOUND' }
    if (bet.status !== 'open') return { ok: false, httpStatus: 409, code: 'BET_CLOSED', payload: { status: bet.status } }
    const seenMinor = Math.round(request.amount * 100)
    const valueMinor = cashOutValueMinor(feed, bet)
    if (valueMinor === undefined) {
      emitPunterEvent('coRemoval', { punterId: bet.punterId, betId: bet.id })
      return { ok: false, httpStatus: 409, code: 'CASH_OUT_UNAVAILABLE' }
    }
    if (!cashOutAccepted(request.confirmation, seenMinor, valueMinor)) return { ok: false, httpStatus: 409, code: 'CASH_OUT_AMOUNT_CHANGED', payload: { amount: valueMinor / 100, currency: bet.currency } }
    const wait = delayed(request, now)
    if (wait) return wait
    if (!pay(bet, valueMinor, now)) return { ok: false, httpStatus: 409, code: 'BET_CLOSED', payload: { status: findBet(db, bet.id)?.status } }
    emitPunterEvent('coRequest', { punterId: bet.punterId, betId: bet.id, status: 'ACCEPTED', amount: valueMinor / 100 })
    emitPunterEvent('betCountUpdate', { punterId: bet.punterId, count: countOpenBets(db, bet.punterId) })
    return { ok: true, status: 'ACCEPTED', bet: findBet(db, bet.id)!, amount: valueMinor / 100 }
  }
}
