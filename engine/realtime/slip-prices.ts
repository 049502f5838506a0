/**
 * The bet slip's prices follow the socket (issue 31 item 1): while the slip has picks, the events
 * socket follows each pick's match in FULL (every market, so a pick of any market moves) and every
 * price or status the socket brings for a pick goes into the slip (`feedPrice`), where the
 * punter's betPlacingMode decides whether it is taken or asked about. Works for guests too (the
 * events socket needs no login); the punter socket's WATCH_ON_BET (./bet-watch.ts) adds notices
 * for a logged-in punter. Framework-free: `follow` is the socket's (./browser.ts followEvent).
 */
import type { StoreApi } from 'zustand/vanilla'
import type { BetslipState, SlipPick } from '../core/betslip'
import { liveSelection, subscribeLive } from './live-store'

export type FollowEvent = (event: { id: string; treeId: number }) => () => void

const eventKey = (pick: SlipPick) => (pick.eventId && pick.treeId !== undefined ? `${pick.eventId}|${pick.treeId}` : undefined)

/** Follows the slip's matches and prices on the socket until the returned stop. */
export function followSlipPrices(slip: StoreApi<BetslipState>, follow: FollowEvent): () => void {
  const events = new Map<string, () => void>()
  const selections = new Map<string, () => void>()
  const report = (id: string) => {
    const live = liveSelection(id)
    if (live) slip.getState().feedPrice(id, live.price, live.status)
  }
  const sync = (picks: readonly SlipPick[]) => {
    const wantedEvents = new Set(picks.map(eventKey).filter((k): k is string => k !== undefined))
    for (const key of wantedEvents)
      if (!events.has(key)) {
        const [id, treeId] = key.split('|')
        events.set(key, follow({ id: id!, treeId: Number(treeId) }))
      }
    for (const [key, release] of events) if (!wantedEvents.has(key)) (release(), events.delete(key))
    const wantedIds = new Set(picks.map((p) => p.id))
    // only what the socket says from now on: the live store may still hold a price from a page left long ago
    for (const id of wantedIds) if (!selections.has(id)) selections.set(id, subscribeLive(id, () => report(id)))
    for (const [id, stop] of selections) if (!wantedIds.has(id)) (stop(), selections.delete(id))
  }
  sync(slip.getState().picks)
  const stop = slip.subscribe((state, previous) => {
    if (state.picks.length !== previous.picks.length || state.picks.some((p, i) => p.id !== previous.picks[i]?.id || eventKey(p) !== eventKey(previous.picks[i]!))) sync(state.picks)
  })
  return () => {
    stop()
    for (const release of events.values()) release()
    for (const unsubscribe of selections.values()) unsubscribe()
    events.clear()
    selections.clear()
  }
}
