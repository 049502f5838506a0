/**
 * Bet slip and game actions (issue 14 items 5–6). Documents compose them; the server decides
 * (server/bets, server/games): prices under the punter's odds-change policy, money rules,
 * restrictions, outcomes. Every placement or round carries a fresh idempotency key, so a double
 * tap places or plays once; the balance in the header follows the server's answer.
 *
 *   betslip.toggle {selection}         adds or removes a picked selection (quick bet: places at once)
 *   betslip.place {}                   a single (one pick) or an accumulator (several) at the slip's stake
 *   game.launch {product, gameId}      the game into the screen's data.game (restricted punters refused)
 *   game.play {product, gameId, stake, cashOutAt?}   one round into data.round
 *   game.favorite {product, gameId, favorite}   the product's favourites, kept on the server
 *   bets.cashOut {betId, amount, currency?, confirmed?}   cash-out at the offer shown: asks first when the punter
 *                                     wants each confirmed; a moved offer per the confirmation type and delay
 */
import type { Result } from '../core/contracts'
import { errorMessageKey, refusalMessageKey } from '../core/gateway'
import { betslip, type PlacedBet, type SlipPick } from '../core/betslip'
import { NOTIFICATION_DURATION_MS } from '../core/stores'
import { actionRegistry, registerActions, type ActionEnvironment, implementAction } from './registry'
import { definitions } from './definitions/bets'

const MOBILE_GATE = '/mobile-gate/api/v1'
const action = implementAction

function idempotencyKey(): string {
  const bytes = new Uint8Array(16)
  globalThis.crypto.getRandomValues(bytes)
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

const detailsOf = (result: Result<unknown>): Record<string, unknown> =>
  !result.ok && result.details && typeof result.details === 'object' && !Array.isArray(result.details) ? (result.details as Record<string, unknown>) : {}

function showFailure<T>(env: ActionEnvironment, result: Result<T>): Result<T> {
  if (!result.ok) env.stores.ui.getState().notify({ id: refusalMessageKey(result.code, detailsOf(result), (k) => env.i18n.has(k)), status: 'error', duration: NOTIFICATION_DURATION_MS, values: detailsOf(result) })
  return result
}

/** The header's balance follows the server's answer at once (the socket's accountUpdate says the same). */
export function setBalance(env: Pick<ActionEnvironment, 'stores'>, balance: unknown): void {
  if (typeof balance !== 'number') return
  const user = env.stores.user.getState()
  if (!user.data) return
  user.setUser({ ...user.data, balanceInfo: { ...user.data.balanceInfo, mainBalance: balance } })
}

const asPick = (value: unknown, event: unknown): SlipPick | undefined => {
  const s = value as { id?: unknown; label?: unknown; price?: unknown } | null
  if (!s || typeof s.id !== 'string' || typeof s.price !== 'number') return undefined
  const label = typeof s.label === 'string' ? s.label : s.id
  return { id: s.id, label: typeof event === 'string' && event ? `${event}: ${label}` : label, price: s.price }
}

async function place(env: ActionEnvironment): Promise<Result<unknown>> {
  const slip = betslip.getState()
  if (slip.status === 'placing') return { ok: false, code: 'BET_IN_PROGRESS' }
  if (slip.picks.length === 0 || !slip.stake) return { ok: false, code: 'INVALID_PARAMS', message: 'betslip.place: no picks or no stake' }
  slip.start()
  const body = {
    kind: slip.picks.length === 1 ? 'single' : 'accumulator',
    selections: slip.picks.map((p) => ({ selectionId: p.id, price: p.price })),
    stake: slip.stake,
    idempotencyKey: idempotencyKey(),
  }
  const result = await env.gateway.call<PlacedBet & { balance: number }>('POST', `${MOBILE_GATE}/bets/place`, body)
  if (!result.ok) {
    // a restriction's reason is decided here, where the texts are known
    betslip.getState().fail(result.code, detailsOf(result), refusalMessageKey(result.code, detailsOf(result), (k) => env.i18n.has(k)))
    const changes = (result.details as { changes?: { selectionId: string; price: number }[] } | undefined)?.changes
    for (const change of changes ?? []) betslip.getState().setPrice(change.selectionId, change.price) // the punter sees the new price and confirms again
    return result // the slip shows why, beside its button
  }
  betslip.getState().succeed(result.value)
  setBalance(env, result.value.balance)
  return result
}

/** A line page's price does not say its match: the server's view of the selection does. */
async function eventNameOf(env: ActionEnvironment, selection: unknown): Promise<string | undefined> {
  const id = (selection as { id?: unknown } | null)?.id
  if (typeof id !== 'string' || !/^e\d{1,12}-[a-z0-9-]{1,40}$/.test(id) || betslip.getState().picks.some((p) => p.id === id)) return undefined
  const result = await env.gateway.call<{ event?: { home?: string; away?: string } }[]>('GET', `${MOBILE_GATE}/betslip/selections?ids=${id}`)
  const found = result.ok ? result.value[0]?.event : undefined
  return found?.home && found.away ? `${found.home} – ${found.away}` : undefined
}

export const betslipToggle = action<{ selection: unknown; event?: string }>(definitions, {
  name: 'betslip.toggle',
  async handler({ selection, event }, env) {
    const pick = asPick(selection, event ?? (await eventNameOf(env, selection)))
    if (!pick) return { ok: false, code: 'INVALID_PARAMS', message: 'betslip.toggle: a selection needs id and price' }
    const local = env.stores.settings.getState().local as { isQuickBetEnable?: boolean; quickBetAmount?: number }
    if (local.isQuickBetEnable && (local.quickBetAmount ?? 0) > 0) {
      betslip.setState({ picks: [pick], stake: local.quickBetAmount ?? null })
      return place(env)
    }
    betslip.getState().toggle(pick)
    return { ok: true, value: betslip.getState().picks.length }
  },
})

export const betslipPlace = action<Record<string, never>>(definitions, {
  name: 'betslip.place',
  handler: (_params, env) => place(env),
})

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

export const betActions = [betslipToggle, betslipPlace, gameLaunch, gamePlay, gameFavorite, betsCashOut]

registerActions(betActions, actionRegistry)
