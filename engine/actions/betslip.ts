/**
 * The bet slip's actions (issue 14 item 5, issue 31 item 1). Documents compose them; the server
 * decides prices, policy and money (server/bets). The slip asks the feed about its picks before
 * anything is placed: a pick is looked up when it is added (its match, for the slip's text and the
 * same-match rule, and the price now), picks restored from storage are checked again, and Place
 * checks first whatever is not checked yet. Every placement carries a fresh idempotency key, so a
 * double tap places once; the header balance follows the server's answer.
 *
 *   betslip.toggle {selection, event?}  adds or removes a pick (quick bet: places a single at once)
 *   betslip.check {}                    the picks' prices and statuses from the feed, now
 *   betslip.place {}                    a single (one pick) or an accumulator (several) at the slip's stake
 */
import type { Result } from '../../kernel/core/contracts'
import { refusalMessageKey } from '../core/gateway'
import { betslip, currentPrice, slipBlock, type PlacedBet, type SlipPick } from '../core/betslip'
import { keepSlipInBrowser } from '../core/betslip-storage'
import { isBetPlacingMode } from '../../kernel/core/odds'
import { implementAction, type ActionEnvironment } from './registry'
import { definitions } from '../../kernel/actions/bets'

const MOBILE_GATE = '/mobile-gate/api/v1'
const SELECTION_ID = /^e\d{1,12}-[a-z0-9-]{1,40}$/

export function idempotencyKey(): string {
  const bytes = new Uint8Array(16)
  globalThis.crypto.getRandomValues(bytes)
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

export const detailsOf = (result: Result<unknown>): Record<string, unknown> =>
  !result.ok && result.details && typeof result.details === 'object' && !Array.isArray(result.details) ? (result.details as Record<string, unknown>) : {}

/** The header's balance follows the server's answer at once (the socket's accountUpdate says the same). */
export function setBalance(env: Pick<ActionEnvironment, 'stores'>, balance: unknown): void {
  if (typeof balance !== 'number') return
  const user = env.stores.user.getState()
  if (!user.data) return
  user.setUser({ ...user.data, balanceInfo: { ...user.data.balanceInfo, mainBalance: balance } })
}

function asPick(value: unknown, event: unknown): SlipPick | undefined {
  const s = value as { id?: unknown; label?: unknown; price?: unknown } | null
  if (!s || typeof s.id !== 'string' || typeof s.price !== 'number') return undefined
  return { id: s.id, label: typeof s.label === 'string' ? s.label : s.id, price: s.price, ...(typeof event === 'string' && event ? { event } : {}) }
}

interface FeedSelection {
  selectionId: string
  price?: number
  status: string
  event?: { id?: string; treeId?: number; home?: string; away?: string }
}

/** The picks being asked about now: one question per pick at a time (an add and the slip's check). */
const asking = new Set<string>()

/**
 * Asks the feed about `ids` (GET betslip/selections) and writes what it says into the slip: the
 * match (name, id, tree id) and the price and status now. Picks it has no answer for stay unchecked.
 */
async function lookUp(env: ActionEnvironment, ids: readonly string[]): Promise<Result<FeedSelection[]>> {
  const valid = ids.filter((id) => SELECTION_ID.test(id) && !asking.has(id))
  if (valid.length === 0) return { ok: true, value: [] }
  for (const id of valid) asking.add(id)
  const result = await env.gateway.call<FeedSelection[]>('GET', `${MOBILE_GATE}/betslip/selections?ids=${valid.join(',')}`).finally(() => {
    for (const id of valid) asking.delete(id)
  })
  if (!result.ok) return result
  for (const found of Array.isArray(result.value) ? result.value : []) {
    const pick = betslip.getState().picks.find((p) => p.id === found.selectionId)
    if (!pick) continue
    const event = found.event
    if (event?.id && typeof event.treeId === 'number')
      betslip.getState().describe(pick.id, { eventId: event.id, treeId: event.treeId, ...(event.home && event.away && !pick.event ? { event: `${event.home} – ${event.away}` } : {}) })
    betslip.getState().feedPrice(pick.id, typeof found.price === 'number' ? found.price : currentPrice(pick), found.status)
  }
  return result
}

const uncheckedIds = () => betslip.getState().picks.filter((p) => !p.checked).map((p) => p.id)

export const betslipCheck = implementAction<Record<string, never>>(definitions, {
  name: 'betslip.check',
  async handler(_params, env) {
    const result = await lookUp(env, betslip.getState().picks.map((p) => p.id))
    return result.ok ? { ok: true, value: betslip.getState().picks.length } : result
  },
})

const placingMode = (env: ActionEnvironment) => {
  const mode = env.stores.settings.getState().server.betPlacingMode
  return isBetPlacingMode(mode) ? mode : 'GreaterOrEqualsToCurrent'
}

/** The legs of the placed bet as the receipt shows them: the slip's own names, the server's prices. */
function legsOf(answer: PlacedBet & { selections?: { selectionId: string; price: number }[] }, picks: readonly SlipPick[]) {
  return (answer.selections ?? []).map((leg) => {
    const pick = picks.find((p) => p.id === leg.selectionId)
    return { selectionId: leg.selectionId, label: pick?.label ?? leg.selectionId, ...(pick?.event ? { event: pick.event } : {}), price: leg.price }
  })
}

/** The server refused the prices: the slip shows the new ones for the punter to accept. */
function takeChanges(result: Result<unknown>): void {
  const changes = (detailsOf(result) as { changes?: { selectionId: string; price: number }[] }).changes
  for (const change of changes ?? []) betslip.getState().setPrice(change.selectionId, change.price)
}

async function place(env: ActionEnvironment): Promise<Result<unknown>> {
  if (betslip.getState().status === 'placing') return { ok: false, code: 'BET_IN_PROGRESS' }
  if (betslip.getState().picks.length === 0 || !betslip.getState().stake) return { ok: false, code: 'INVALID_PARAMS', message: 'betslip.place: no picks or no stake' }
  betslip.getState().start()
  // no stored or just-added pick is placed on a price the feed has not confirmed
  if (uncheckedIds().length) await lookUp(env, uncheckedIds())
  const slip = betslip.getState()
  const block = slipBlock(slip.picks, placingMode(env))
  if (block) {
    betslip.setState({ status: 'idle' }) // the slip shows what stands in the way (ask, related, suspended)
    return { ok: false, code: block }
  }
  const body = {
    kind: slip.picks.length === 1 ? 'single' : 'accumulator',
    selections: slip.picks.map((p) => ({ selectionId: p.id, price: p.price })),
    stake: slip.stake,
    idempotencyKey: idempotencyKey(),
  }
  const result = await env.gateway.call<PlacedBet & { balance: number; selections?: { selectionId: string; price: number }[] }>('POST', `${MOBILE_GATE}/bets/place`, body)
  if (!result.ok) {
    // a restriction's reason is decided here, where the texts are known
    betslip.getState().fail(result.code, detailsOf(result), refusalMessageKey(result.code, detailsOf(result), (k) => env.i18n.has(k)))
    if (result.code === 'ODDS_CHANGED') takeChanges(result)
    return result // the slip shows why, beside its button
  }
  const { balance, selections: _legs, ...bet } = result.value
  betslip.getState().succeed({ ...bet, legs: legsOf(result.value, slip.picks) })
  setBalance(env, balance)
  return result
}

export const betslipToggle = implementAction<{ selection: unknown; event?: string }>(definitions, {
  name: 'betslip.toggle',
  async handler({ selection, event }, env) {
    const pick = asPick(selection, event)
    keepSlipInBrowser()
    if (!pick) return { ok: false, code: 'INVALID_PARAMS', message: 'betslip.toggle: a selection needs id and price' }
    const local = env.stores.settings.getState().local as { isQuickBetEnable?: boolean; quickBetAmount?: number }
    if (local.isQuickBetEnable && (local.quickBetAmount ?? 0) > 0) {
      betslip.setState({ picks: [pick], stake: local.quickBetAmount ?? null })
      return place(env)
    }
    const adding = !betslip.getState().picks.some((p) => p.id === pick.id)
    betslip.getState().toggle(pick)
    // the match and the price now: the slip names the match and flags a second pick of it at once
    if (adding && betslip.getState().picks.some((p) => p.id === pick.id)) await lookUp(env, [pick.id])
    return { ok: true, value: betslip.getState().picks.length }
  },
})

export const betslipPlace = implementAction<Record<string, never>>(definitions, {
  name: 'betslip.place',
  handler: (_params, env) => place(env),
})

export const betslipActions = [betslipToggle, betslipCheck, betslipPlace]
