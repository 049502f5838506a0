/**
 * The punter's socket for the bet slip and game pages: authenticated with the session (AUTH), its
 * accountUpdate events move the header's balance — a settled bet's win, a cash-out, a deposit in
 * another tab. Loaded on demand, like the events socket; nothing for a guest.
 */
import { useEffect } from 'react'
import { useStore } from 'zustand'
import { useRuntime } from './runtime'

export function usePunterSocket(): void {
  const runtime = useRuntime()
  const accessToken = useStore(runtime.stores.session, (s) => s.accessToken)
  const punterHash = useStore(runtime.stores.session, (s) => s.sessionHash)
  useEffect(() => {
    if (!accessToken || !punterHash) return
    let stop: (() => void) | undefined
    let gone = false
    void import('../realtime/browser').then((sockets) => {
      if (gone) return
      const socket = sockets.punterSocket(runtime.stores.site.getState().bootstrap?.remoteConfig as Record<string, unknown> | undefined)
      socket.authenticate({ punterHash, accessToken })
      stop = socket.onType('accountUpdate', (message) => {
        const balance = (message.payload as { balance?: unknown } | undefined)?.balance
        const user = runtime.stores.user.getState()
        if (typeof balance === 'number' && user.data) user.setUser({ ...user.data, balanceInfo: { ...user.data.balanceInfo, mainBalance: balance } })
      })
    })
    return () => {
      gone = true
      stop?.()
    }
  }, [accessToken, punterHash]) // eslint-disable-line react-hooks/exhaustive-deps
}
