/**
 * Cash-out (issue 14 item 5): the punter takes the bet's current value before it settles. The page
 * sends the amount it showed and the punter's confirmation type (spec §3 cashOutAutoConfirmationType):
 * with a different value now, INCREASE takes a higher one, ALWAYS takes any, NEVER takes none (the
 * page asks again with the new amount). With the delay setting (isCashOutDelayActive) the first call
 * only records the request; it is decided when asked again after CASH_OUT_DELAY_MS, at the value
 * then, so a price about to move cannot be snapped. Paying claims the bet once (a conditional
 * UPDATE, so two instances asked at once pay once), then credits it under `bet-cashout:<id>`
 * through the same balance function as everything else (see ./store.ts for a crash between).
 *
 * Pending requests are rows (`cash_out_requests`, beside the bets): a restart within the delay
 * resumes the request — the page's next ask is decided at the time it was due, not after a new
 * wait — and a page that lost its request id (a reload) is given back the bet's pending one.
 */
import { randomBytes } from 'node:crypto'
import { toMajor, toMinor } from '../../kernel/core/money'
import type { Kysely } from 'kysely'
import { schemaStep, sqliteHistory } from '../db/schema'
import type { Tables } from '../db/tables'
import type { ServerDeps } from '../deps'
import type { Feed } from '../feed'
import { emitPunterEvent } from '../punters/events'
import { cashOutValueMinor, creditClosedBet } from './settlement'
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

export const sqliteBets702CashOutRequests = sqliteHistory(
  'bets-702-cash-out-requests',
  `CREATE TABLE cash_out_requests (
     id TEXT PRIMARY KEY,
     bet_id TEXT NOT NULL REFERENCES bets(id),
     punter_id INTEGER NOT NULL REFERENCES punters(id),
     decide_at INTEGER NOT NULL
   );
   CREATE INDEX cash_out_requests_bet ON cash_out_requests (bet_id, punter_id);`,
)

interface CashOutRequestTable {
  id: string
  bet_id: string
  punter_id: number
  decide_at: number
}

declare module '../db/tables' {
  interface Tables {
    cash_out_requests: CashOutRequestTable
  }
}

export const q081CashOutRequests = schemaStep('q081-cash-out-requests', async (db) => {
  await db.schema
    .createTable('cash_out_requests')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('bet_id', 'text', (c) => c.notNull().references('bets.id'))
    .addColumn('punter_id', 'bigint', (c) => c.notNull())
    .addColumn('decide_at', 'bigint', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('cash_out_requests_bet').ifNotExists().on('cash_out_requests').columns(['bet_id', 'punter_id']).execute()
})

interface Pending {
  id: string
  betId: string
  punterId: number
  decideAt: number
}

/** The pending cash-out requests, kept in the database so a restart does not restart their wait. */
function pendingStore(db: Kysely<Tables>) {
  const columns = ['id', 'bet_id as betId', 'punter_id as punterId', 'decide_at as decideAt'] as const
  return {
    byId: (id: string): Promise<Pending | undefined> => db.selectFrom('cash_out_requests').select(columns).where('id', '=', id).executeTakeFirst(),
    ofBet: (betId: string, punterId: number): Promise<Pending | undefined> =>
      db.selectFrom('cash_out_requests').select(columns).where('bet_id', '=', betId).where('punter_id', '=', punterId).orderBy('decide_at', 'desc').limit(1).executeTakeFirst(),
    add: (held: Pending) => db.insertInto('cash_out_requests').values({ id: held.id, bet_id: held.betId, punter_id: held.punterId, decide_at: held.decideAt }).execute(),
    remove: (id: string) => db.deleteFrom('cash_out_requests').where('id', '=', id).execute(),
    /** Requests whose page never asked again (closed tab, lost network): the table stays small. */
    forgetAbandoned: (now: number) => db.deleteFrom('cash_out_requests').where('decide_at', '<', now - CASH_OUT_PENDING_TTL_MS).execute(),
  }
}

export function createCashOut(deps: Pick<ServerDeps, 'db' | 'data'>, feed: Feed) {
  const db = deps.data.db
  const pending = pendingStore(db)

  /** Claims the open bet (once across instances), then credits the value: answers whether this call cashed it out. */
  const pay = async (bet: Bet, valueMinor: number, now: number): Promise<boolean> => {
    if (!(await closeBet(db, bet.id, 'cashed_out', valueMinor, now))) return false
    await creditClosedBet(deps, { ...bet, status: 'cashed_out', payoutMinor: valueMinor }, now)
    return true
  }

  const delayed = async (request: CashOutRequest, now: number): Promise<CashOutResult | undefined> => {
    if (!request.delay) return undefined
    await pending.forgetAbandoned(now)
    const asked = request.requestId ? await pending.byId(request.requestId) : undefined
    const held = asked && asked.betId === request.betId && asked.punterId === request.punterId ? asked : request.requestId ? undefined : await pending.ofBet(request.betId, request.punterId)
    if (!held) {
      const requestId = randomBytes(9).toString('base64url')
      await pending.add({ id: requestId, betId: request.betId, punterId: request.punterId, decideAt: now + CASH_OUT_DELAY_MS })
      emitPunterEvent('coRequest', { punterId: request.punterId, betId: request.betId, requestId, status: 'PENDING' })
      return { ok: true, status: 'PENDING', requestId, retryAfterMs: CASH_OUT_DELAY_MS }
    }
    if (now < held.decideAt) return { ok: true, status: 'PENDING', requestId: held.id, retryAfterMs: held.decideAt - now }
    await pending.remove(held.id)
    return undefined
  }

  return async function requestCashOut(request: CashOutRequest, now: number): Promise<CashOutResult> {
    const bet = await findBet(db, request.betId)
    if (!bet || bet.punterId !== request.punterId || bet.status === 'pending') return { ok: false, httpStatus: 404, code: 'BET_NOT_FOUND' }
    if (bet.status !== 'open') return { ok: false, httpStatus: 409, code: 'BET_CLOSED', payload: { status: bet.status } }
    const seen = toMinor(request.amount, bet.currency)
    if (!seen.ok) return { ok: false, httpStatus: 400, code: 'ValidationError', payload: { field: 'amount', code: seen.code } }
    const seenMinor = seen.minor
    const valueMinor = cashOutValueMinor(feed, bet)
    if (valueMinor === undefined) {
      emitPunterEvent('coRemoval', { punterId: bet.punterId, betId: bet.id })
      return { ok: false, httpStatus: 409, code: 'CASH_OUT_UNAVAILABLE' }
    }
    if (!cashOutAccepted(request.confirmation, seenMinor, valueMinor)) return { ok: false, httpStatus: 409, code: 'CASH_OUT_AMOUNT_CHANGED', payload: { amount: toMajor(valueMinor, bet.currency), currency: bet.currency } }
    const wait = await delayed(request, now)
    if (wait) return wait
    if (!(await pay(bet, valueMinor, now))) return { ok: false, httpStatus: 409, code: 'BET_CLOSED', payload: { status: (await findBet(db, bet.id))?.status } }
    emitPunterEvent('coRequest', { punterId: bet.punterId, betId: bet.id, status: 'ACCEPTED', amount: toMajor(valueMinor, bet.currency) })
    emitPunterEvent('betCountUpdate', { punterId: bet.punterId, count: await countOpenBets(db, bet.punterId) })
    return { ok: true, status: 'ACCEPTED', bet: (await findBet(db, bet.id))!, amount: toMajor(valueMinor, bet.currency) }
  }
}
