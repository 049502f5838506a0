/**
 * The punter's socket on an open page (spec §3 "Socket events"): authenticated with the session
 * (AUTH), its events handled by the hooks that need them — the header's balance (accountUpdate: a
 * settled bet's win, a cash-out, a deposit in another tab), messages and promo participation
 * (punter-messages.ts). One place opens and closes the subscription; the socket code is loaded on
 * demand, like the events socket, and nothing runs for a guest.
 */
import { useEffect } from 'react'
import { useStore } from 'zustand'
import { betslip } from '../core/betslip'
import { useRuntime, type EngineRuntime } from './runtime'
import { BROWSER_LIVE_ENVIRONMENT, punterLiveEvents } from './punter-live'
import type { PunterEventHandlers } from './punter-events'

/** Handlers by event type; module-level constants, so a re-render does not re-subscribe. */
export type { PunterEventHandlers } from './punter-events'

/**
 * Subscribes `handlers` to the punter socket while a punter is logged in; `onSession` runs once per
 * login (before the socket code has loaded), e.g. to show what waited for the punter.
 */
export function usePunterEvents(handlers: PunterEventHandlers, onSession?: (runtime: EngineRuntime, punterHash: string) => void): void {
  const runtime = useRuntime()
  const accessToken = useStore(runtime.stores.session, (s) => s.accessToken)
  const punterHash = useStore(runtime.stores.session, (s) => s.sessionHash)
  useEffect(() => {
    if (!accessToken || !punterHash) return
    onSession?.(runtime, punterHash)
    const stops: (() => void)[] = []
    let gone = false
    void import('../realtime/browser').then((sockets) => {
      if (gone) return
      const socket = sockets.punterSocket(runtime.stores.site.getState().bootstrap?.remoteConfig as Record<string, unknown> | undefined)
      socket.authenticate({ punterHash, accessToken })
      for (const [type, handle] of Object.entries(handlers)) stops.push(socket.onType(type, (frame) => handle(frame, runtime)))
    })
    return () => {
      gone = true
      for (const stop of stops) stop()
    }
  }, [accessToken, punterHash]) // eslint-disable-line react-hooks/exhaustive-deps
}

/** The punter socket's account events: the balance (and withdrawable) follows accountUpdate; accountLogout (the
 * session was ended elsewhere: another device's logout, a block, a self-exclusion) logs this page
 * out with reason SOCKET, which goes home and shows the session-expired popup (spec §3, §4). */
export const ACCOUNT_EVENTS: PunterEventHandlers = {
  accountUpdate(frame, runtime) {
    const { balance, withdrawable } = (frame.payload ?? {}) as { balance?: unknown; withdrawable?: unknown }
    const user = runtime.stores.user.getState()
    if (typeof balance === 'number' && user.data)
      user.setUser({ ...user.data, balanceInfo: { ...user.data.balanceInfo, mainBalance: balance, ...(typeof withdrawable === 'number' ? { withdrawable } : {}) } })
  },
  accountLogout(_frame, runtime) {
    if (runtime.stores.session.getState().accessToken) void runtime.run([{ do: 'auth.logout', with: { reason: 'SOCKET' } }])
  },
}

/** While a punter is logged in, the punter socket watches the bet slip's picks (WATCH_ON_BET). */
function useSlipWatch(): void {
  const runtime = useRuntime()
  const accessToken = useStore(runtime.stores.session, (s) => s.accessToken)
  const punterHash = useStore(runtime.stores.session, (s) => s.sessionHash)
  useEffect(() => {
    if (!accessToken || !punterHash) return
    let stop: (() => void) | undefined
    let gone = false
    void Promise.all([import('../realtime/browser'), import('../realtime/bet-watch')]).then(([sockets, watch]) => {
      if (gone) return
      const socket = sockets.punterSocket(runtime.stores.site.getState().bootstrap?.remoteConfig as Record<string, unknown> | undefined)
      socket.authenticate({ punterHash, accessToken })
      stop = watch.watchSlip(betslip, socket)
    })
    return () => {
      gone = true
      stop?.()
    }
  }, [accessToken, punterHash]) // eslint-disable-line react-hooks/exhaustive-deps
}

/** The account events and the other live ones of punter-live.ts (settings, regulation alert,
 * cash-out requests, mirror), one subscription. */
const PUNTER_SOCKET_EVENTS: PunterEventHandlers = { ...ACCOUNT_EVENTS, ...punterLiveEvents(BROWSER_LIVE_ENVIRONMENT) }

/** The header's balance (and the bet slip's and game page's) follows accountUpdate; the slip's
 * picks are watched on the bet channel. */
export function usePunterSocket(): void {
  usePunterEvents(PUNTER_SOCKET_EVENTS)
  useSlipWatch()
}
