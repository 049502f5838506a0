/**
 * Cash-out (issue 14 item 5): the punter takes the bet's current value before it settles. The page
 * sends the amount it showed and the punter's confirmation type (spec §3 cashOutAutoConfirmationType):
 * with a different value now, INCREASE takes a higher one, ALWAYS takes any, NEVER takes none (the
 * page asks again with the new amount). With the delay setting (isCashOutDelayActive) the first call
 * only records the request; it is decided when asked again after CASH_OUT_DELAY_MS, at the value
 * then, so a price about to move cannot be snapped. Paying closes the bet once under
 * `bet-cashout:<id>`, through the same balance function as everything else.
 *
 * Pending requests are rows (`cash_out_requests`, beside the bets): a restart within the delay
 * resumes the request — the page's next ask is decided at the time it was due, not after a new
 * wait — and a page that lost its request id (a reload) is given back the bet's pending one.
 */
import { randomBytes } from 'node:crypto'
import { registerMigration, type Db } from '../db/database'
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

registerMigration(
  'bets-702-cash-out-requests',
  `CREATE TABLE cash_out_requests (
     id TEXT PRIMARY KEY,
     bet_id TEXT NOT NULL REFERENCES bets(id),
     punter_id INTEGER NOT NULL REFERENCES punters(id),
     decide_at INTEGER NOT NULL
   );
   CREATE INDEX cash_out_requests_bet ON cash_out_requests (bet_id, punter_id);`,
)

interface Pending {
  id: string
  betId: string
  punterId: number
  decideAt: number
}

/** The pending cash-out requests, kept in SQLite so a restart does not restart their wait. */
function pendingStore(db: Db) {
  const columns = 'id, bet_id AS betId, punter_id AS punterId, decide_at AS decideAt'
  return {
    byId: (id: string) => db.prepare(`SELECT ${columns} FROM cash_out_requests WHERE id = ?`).get(id) as Pending | undefined,
    ofBet: (betId: string, punterId: number) =>
      db.prepare(`SELECT ${columns} FROM cash_out_requests WHERE bet_id = ? AND punter_id = ? ORDER BY decide_at DESC LIMIT 1`).get(betId, punterId) as Pending | undefined,
    add: (held: Pending) => db.prepare('INSERT INTO cash_out_requests (id, bet_id, punter_id, decide_at) VALUES (?, ?, ?, ?)').run(held.id, held.betId, held.punterId, held.decideAt),
    remove: (id: string) => db.prepare('DELETE FROM cash_out_requests WHERE id = ?').run(id),
    /** Requests whose page never asked again (closed tab, lost network): the table stays small. */
    forgetAbandoned: (now: number) => db.prepare('DELETE FROM cash_out_requests WHERE decide_at < ?').run(now - CASH_OUT_PENDING_TTL_MS),
  }
}

export function createCashOut(db: Db, feed: Feed) {
  const pending = pendingStore(db)

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

  const delayed = (request: CashOutRequest, now: number): CashOutResult | undefined => {
    if (!request.delay) return undefined
    pending.forgetAbandoned(now)
    const asked = request.requestId ? pending.byId(request.requestId) : undefined
    const held = asked && asked.betId === request.betId && asked.punterId === request.punterId ? asked : request.requestId ? undefined : pending.ofBet(request.betId, request.punterId)
    if (!held) {
      const requestId = randomBytes(9).toString('base64url')
      pending.add({ id: requestId, betId: request.betId, punterId: request.punterId, decideAt: now + CASH_OUT_DELAY_MS })
      emitPunterEvent('coRequest', { punterId: request.punterId, betId: request.betId, requestId, status: 'PENDING' })
      return { ok: true, status: 'PENDING', requestId, retryAfterMs: CASH_OUT_DELAY_MS }
    }
    if (now < held.decideAt) return { ok: true, status: 'PENDING', requestId: held.id, retryAfterMs: held.decideAt - now }
    pending.remove(held.id)
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
