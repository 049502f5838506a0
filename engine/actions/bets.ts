/**
 * Game and cash-out actions (issue 14 items 5–6), and the bet slip's (./betslip.ts) registered
 * with them. Documents compose them; the server decides (server/bets, server/games): money rules,
 * restrictions, outcomes. Every round carries a fresh idempotency key, so a double tap plays
 * once; the balance in the header follows the server's answer.
 *
 *   game.launch {product, gameId}      the game into the screen's data.game (restricted punters refused)
 *   game.play {product, gameId, stake, cashOutAt?}   one round into data.round
 *   game.favorite {product, gameId, favorite}   the product's favourites, kept on the server
 *   bets.cashOut {betId, amount, currency?, confirmed?}   cash-out at the offer shown: asks first when the punter
 *                                     wants each confirmed; a moved offer per the confirmation type and delay
 */
import type { Result } from '../../kernel/core/contracts'
import { refusalMessageKey } from '../core/gateway'
import { NOTIFICATION_DURATION_MS } from '../core/stores'
import { type ActionEnvironment, implementAction } from './registry'
import { betslipActions, detailsOf, idempotencyKey, setBalance } from './betslip'
import { definitions } from '../../kernel/actions/bets'

export { setBalance }

const MOBILE_GATE = '/mobile-gate/api/v1'
const action = implementAction

function showFailure<T>(env: ActionEnvironment, result: Result<T>): Result<T> {
  if (!result.ok) env.stores.ui.getState().notify({ id: refusalMessageKey(result.code, detailsOf(result), (k) => env.i18n.has(k)), status: 'error', duration: NOTIFICATION_DURATION_MS, values: detailsOf(result) })
  return result
}

const gameParams = { product: { type: 'string', pattern: '^[a-z-]{2,20}$' }, gameId: { type: 'string', pattern: '^[a-z0-9-]{1,60}$' } } as const
const validGame = (product: unknown, gameId: unknown) => typeof product === 'string' && /^[a-z-]{2,20}$/.test(product) && typeof gameId === 'string' && /^[a-z0-9-]{1,60}$/.test(gameId)

export const gameLaunch = action<{ product: string; gameId: string }>(definitions, {
  name: 'game.launch',
  async handler({ product, gameId }, env) {
    if (!validGame(product, gameId)) return { ok: false, code: 'GAME_NOT_FOUND' }
    const result = await env.gateway.call<{ balance: number }>('GET', `${MOBILE_GATE}/games/${product}/${gameId}`)
    if (!result.ok) {
      env.stores.screenData.getState().setData('game', { error: result.code, reason: refusalMessageKey(result.code, detailsOf(result), (k) => env.i18n.has(k)), reasonValues: detailsOf(result) })
      return showFailure(env, result)
    }
    env.stores.screenData.getState().setData('game', result.value)
    setBalance(env, result.value.balance)
    return result
  },
})

export const gamePlay = action<{ product: string; gameId: string; stake: number; cashOutAt?: number }>(definitions, {
  name: 'game.play',
  async handler({ product, gameId, stake, cashOutAt }, env) {
    if (!validGame(product, gameId)) return { ok: false, code: 'GAME_NOT_FOUND' }
    const body = { stake, idempotencyKey: idempotencyKey(), ...(typeof cashOutAt === 'number' ? { cashOutAt } : {}) }
    const result = await env.gateway.call<{ balance: number }>('POST', `${MOBILE_GATE}/games/${product}/${gameId}/play`, body)
    if (!result.ok) return showFailure(env, result)
    env.stores.screenData.getState().setData('round', result.value)
    setBalance(env, result.value.balance)
    return result
  },
})

export const gameFavorite = action<{ product: string; gameId: string; favorite: boolean }>(definitions, {
  name: 'game.favorite',
  async handler({ product, gameId, favorite }, env) {
    if (!validGame(product, gameId)) return { ok: false, code: 'GAME_NOT_FOUND' }
    const result = await env.gateway.call('PUT', `${MOBILE_GATE}/games/favorites`, { product, gameId, favorite })
    if (!result.ok) return showFailure(env, result)
    const data = env.stores.screenData.getState()
    const game = data.data.game
    if (game && typeof game === 'object') data.setData('game', { ...(game as object), favorite })
    return result
  },
})

interface CashOutAnswer {
  status: 'ACCEPTED' | 'PENDING'
  amount?: number
  balance?: number
  requestId?: string
  retryAfterMs?: number
}

const wait = (ms: number) => new Promise((done) => setTimeout(done, ms))

async function reloadBets(env: ActionEnvironment): Promise<void> {
  const open = await env.gateway.call('GET', `${MOBILE_GATE}/bets/open`)
  if (open.ok) env.stores.screenData.getState().setData('openBets', open.value)
}

/** The popup that asks before a cash-out (schemas/popups/cash-out-confirm.json). */
export const CASH_OUT_CONFIRM_POPUP = 'cash-out-confirm'

interface CashOutOffer {
  betId: string
  amount: number
  currency?: string
}

/** Asks the punter to confirm the offer; `changed`: the offer moved and the punter's type did not take it. */
function askCashOut(env: ActionEnvironment, offer: CashOutOffer, changed: boolean): void {
  const ui = env.stores.ui.getState()
  ui.closePopup(CASH_OUT_CONFIRM_POPUP)
  ui.openPopup({ id: CASH_OUT_CONFIRM_POPUP, params: { ...offer, changed } })
}

/** The server's new offer when it refused the shown one (CASH_OUT_AMOUNT_CHANGED), else undefined. */
function changedOffer(result: Result<CashOutAnswer>, offer: CashOutOffer): CashOutOffer | undefined {
  if (result.ok || result.code !== 'CASH_OUT_AMOUNT_CHANGED') return undefined
  const now = detailsOf(result)
  return typeof now.amount === 'number' && now.amount > 0 ? { ...offer, amount: now.amount, ...(typeof now.currency === 'string' ? { currency: now.currency } : {}) } : undefined
}

/**
 * Spec §3 local settings: with isCashOutConfirmationActive the first tap only asks (the popup shows
 * the amount and confirms with `confirmed: true`); cashOutAutoConfirmationType decides on the
 * server whether an offer that moved since is taken (INCREASE: a higher one, ALWAYS: any, NEVER:
 * none); one it did not take is asked about again with the new amount, whatever the setting.
 */
export const betsCashOut = action<{ betId: string; amount: number; currency?: string; confirmed?: boolean }>(definitions, {
  name: 'bets.cashOut',
  async handler({ betId, amount, currency, confirmed }, env) {
    if (!/^[A-Za-z0-9_-]{1,40}$/.test(betId)) return { ok: false, code: 'BET_NOT_FOUND' }
    const local = env.stores.settings.getState().local as { cashOutAutoConfirmationType?: string; isCashOutDelayActive?: boolean; isCashOutConfirmationActive?: boolean }
    const offer: CashOutOffer = { betId, amount, ...(currency ? { currency } : {}) }
    if (local.isCashOutConfirmationActive === true && confirmed !== true) {
      askCashOut(env, offer, false)
      return { ok: true, value: { status: 'ASKED' } }
    }
    const body: Record<string, unknown> = { amount, confirmation: local.cashOutAutoConfirmationType ?? 'NEVER', delay: local.isCashOutDelayActive === true }
    let result = await env.gateway.call<CashOutAnswer>('POST', `${MOBILE_GATE}/bets/${betId}/cash-out`, body)
    for (let tries = 0; result.ok && result.value.status === 'PENDING' && tries < 3; tries++) {
      await wait(result.value.retryAfterMs ?? 3000)
      result = await env.gateway.call<CashOutAnswer>('POST', `${MOBILE_GATE}/bets/${betId}/cash-out`, { ...body, requestId: result.value.requestId })
    }
    await reloadBets(env)
    const moved = changedOffer(result, offer)
    if (moved) {
      askCashOut(env, moved, true)
      return result
    }
    if (!result.ok) return showFailure(env, result)
    if (result.value.status !== 'ACCEPTED') return showFailure(env, { ok: false, code: 'CASH_OUT_UNAVAILABLE' })
    setBalance(env, result.value.balance)
    env.stores.ui.getState().notify({ id: 'bets.cashedOut', status: 'success', duration: NOTIFICATION_DURATION_MS, values: { amount: result.value.amount, currency: currency || String(env.stores.user.getState().data?.user?.account?.currency ?? '') } })
    return result
  },
})

export const betActions = [...betslipActions, gameLaunch, gamePlay, gameFavorite, betsCashOut]

