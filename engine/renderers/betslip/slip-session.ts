/**
 * What keeps the bet slip alive on a page (issue 31 item 1), started by the betslip node:
 * - the slip comes back from storage after the first render (never during hydration: the server
 *   rendered the page without it) and every change is stored (engine/core/betslip-storage.ts);
 * - picks the feed has not confirmed (restored, another tab's, back to a hidden tab) are checked
 *   at once (`betslip.check`);
 * - while the slip has picks, their prices follow the socket (engine/realtime/slip-prices.ts,
 *   loaded on demand like every socket part).
 */
import { useEffect } from 'react'
import { useStore } from 'zustand'
import { betslip } from '../../core/betslip'
import { BETSLIP_STORAGE_KEY, keepSlipInBrowser } from '../../core/betslip-storage'
import { useRuntime, type EngineRuntime } from '../runtime'

const check = (runtime: EngineRuntime) => void runtime.run([{ do: 'betslip.check' }])

/**
 * Checks the picks the feed has not confirmed: those restored or left unchecked when the page
 * opens, another tab's, and all of them when the punter comes back to this tab. (A pick just
 * added is looked up by betslip.toggle itself, and Place checks whatever is left.)
 */
function useSlipChecks(runtime: EngineRuntime): void {
  useEffect(() => {
    keepSlipInBrowser()
    const checkUnchecked = () => {
      if (betslip.getState().picks.some((p) => !p.checked)) check(runtime)
    }
    checkUnchecked()
    const onVisible = () => {
      if (document.visibilityState !== 'visible' || betslip.getState().picks.length === 0) return
      betslip.getState().uncheck()
      check(runtime)
    }
    const onStorage = (event: StorageEvent) => event.key === BETSLIP_STORAGE_KEY && checkUnchecked()
    document.addEventListener('visibilitychange', onVisible)
    window.addEventListener('storage', onStorage)
    return () => {
      document.removeEventListener('visibilitychange', onVisible)
      window.removeEventListener('storage', onStorage)
    }
  }, [runtime])
}

/** While the slip has picks, their prices follow the events socket. */
function useSlipPrices(runtime: EngineRuntime): void {
  const following = useStore(betslip, (s) => s.picks.length > 0)
  useEffect(() => {
    if (!following) return
    let stop: (() => void) | undefined
    let gone = false
    void Promise.all([import('../../realtime/browser'), import('../../realtime/slip-prices')]).then(([sockets, prices]) => {
      if (gone) return
      const remoteConfig = runtime.stores.site.getState().bootstrap?.remoteConfig
      stop = prices.followSlipPrices(betslip, (event) => sockets.followEvent(remoteConfig, event, 'FULL'))
    })
    return () => {
      gone = true
      stop?.()
    }
  }, [following, runtime])
}

export function useSlipSession(): void {
  const runtime = useRuntime()
  useSlipChecks(runtime)
  useSlipPrices(runtime)
}
