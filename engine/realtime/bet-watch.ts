/**
 * The bet slip's bet channel (spec §4 "Bet channel types: WATCH_ON_BET, INACTIVE_SELECTION"), on the
 * punter socket: while a logged-in punter has picks in the slip, the socket watches exactly those
 * selections (WATCH_ON_BET with the ids, resetSubscribe; a changed slip sends the new set, an empty
 * slip drops the watch). What comes back marks a pick: INACTIVE_SELECTION (suspended, settled) and
 * WATCH_ON_BET with status OPEN (it reopened). So a pick suspended on another page, or a match
 * that ends while the slip is open, shows before the punter taps "Place". Framework-free.
 */
import type { StoreApi } from 'zustand/vanilla'
import type { BetslipState, SlipPick } from '../core/betslip'
import type { IncomingMessage, RealtimeManager } from './manager'

type BetSocket = Pick<RealtimeManager, 'subscribeBetChannel' | 'unsubscribeBetChannel' | 'onType'>

const idsOf = (picks: readonly SlipPick[]) => picks.map((p) => p.id)

function inactiveOf(frame: IncomingMessage): SlipPick['inactive'] | 'OPEN' | null {
  return frame.status === 'SUSPENDED' || frame.status === 'SETTLED' || frame.status === 'OPEN' ? frame.status : null
}

/** Watches the slip's picks on `socket` until the returned stop. */
export function watchSlip(slip: StoreApi<BetslipState>, socket: BetSocket): () => void {
  const sync = (picks: readonly SlipPick[]) => (picks.length ? socket.subscribeBetChannel('WATCH_ON_BET', idsOf(picks)) : socket.unsubscribeBetChannel('WATCH_ON_BET'))
  sync(slip.getState().picks)
  const stopSlip = slip.subscribe((state, previous) => {
    const ids = idsOf(state.picks)
    if (ids.join() !== idsOf(previous.picks).join()) sync(state.picks)
  })
  const mark = (frame: IncomingMessage) => {
    const status = inactiveOf(frame)
    if (typeof frame.selectionId === 'string' && status) slip.getState().setInactive(frame.selectionId, status === 'OPEN' ? undefined : status)
  }
  const stops = [socket.onType('INACTIVE_SELECTION', mark), socket.onType('WATCH_ON_BET', mark)]
  return () => {
    stopSlip()
    for (const stop of stops) stop()
    socket.unsubscribeBetChannel('WATCH_ON_BET')
  }
}
