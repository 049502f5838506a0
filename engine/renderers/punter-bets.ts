/**
 * The punter's bets on an open page (spec §3 "Socket events"; issue 14 item 5): the bets page's
 * cash-out offers follow the punter socket — coOffer sets a bet's offer to the new amount,
 * coRemoval withdraws it (a suspended market, a goal against) — and betCountUpdate (a bet placed,
 * settled or cashed out, in this tab or elsewhere) reloads the page's open and settled bets.
 * Nothing happens on pages that do not show bets, except that every bet event empties the page
 * cache's `bets` namespace, so My bets entered later asks the server again (engine/renderers/page-cache.ts).
 */
import { pageCache } from './page-cache'
import type { EngineRuntime } from './runtime'
import { usePunterEvents, type PunterEventHandlers } from './punter-socket'

interface OpenBet {
  betId: string
  currency?: string
  cashOut: { amount: number; currency?: string } | null
}

/** The page's open bets with one bet's offer replaced; unchanged when the page shows no such bet. */
function withOffer(runtime: EngineRuntime, betId: unknown, cashOut: OpenBet['cashOut']): void {
  pageCache().clear('bets')
  const data = runtime.stores.screenData.getState()
  const open = data.data.openBets
  if (typeof betId !== 'string' || !Array.isArray(open) || !open.some((b: OpenBet) => b?.betId === betId)) return
  data.setData('openBets', open.map((b: OpenBet) => (b?.betId === betId ? { ...b, cashOut } : b)))
}

const BET_EVENTS: PunterEventHandlers = {
  coOffer(frame, runtime) {
    const offer = frame.payload as { betId?: unknown; amount?: unknown; currency?: unknown } | undefined
    if (typeof offer?.amount !== 'number' || !(offer.amount > 0)) return
    withOffer(runtime, offer.betId, { amount: offer.amount, ...(typeof offer.currency === 'string' ? { currency: offer.currency } : {}) })
  },
  coRemoval(frame, runtime) {
    withOffer(runtime, (frame.payload as { betId?: unknown } | undefined)?.betId, null)
  },
  betCountUpdate(_frame, runtime) {
    pageCache().clear('bets')
    const data = runtime.stores.screenData.getState().data
    if (data.openBets !== undefined) void runtime.run([{ do: 'account.load', with: { name: 'openBets', path: '/mobile-gate/api/v1/bets/open' } }])
    if (data.settledBets !== undefined) void runtime.run([{ do: 'account.load', with: { name: 'settledBets', path: '/mobile-gate/api/v1/bets/settled' } }])
  },
}

export function usePunterBets(): void {
  usePunterEvents(BET_EVENTS)
}
