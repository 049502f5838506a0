/**
 * What keeps the bet slip alive on a page (issue 31 item 1), started by the betslip node:
 * - the slip comes back from storage after the first render (never during hydration: the server
 *   rendered the page without it) and every change is stored (engine/core/betslip-storage.ts);
 * - picks the feed has not confirmed (restored, another tab's, kept after a placement, back to a
 *   hidden tab) are checked at once (`betslip.check`), again after a while when that fails;
 * - while the slip has picks, their prices follow the socket (engine/realtime/slip-prices.ts,
 *   loaded on demand like every socket part).
 */
import { useEffect } from 'react'
import { useStore } from 'zustand'
import { betslip } from '../../core/betslip'
import { keepSlipInBrowser } from '../../core/betslip-storage'
import { useRuntime, type EngineRuntime } from '../runtime'

/** How long a failed check waits before it asks again (offline, a server hiccup). */
const RETRY_MS = 5000

/**
 * Checks the picks the feed has not confirmed, whenever there are any: restored ones, another
 * tab's, kept after a placement, and all of them when the punter comes back to this tab. (A pick
 * just added is being looked up by betslip.toggle already: the action asks once per pick.)
 */
function useSlipChecks(runtime: EngineRuntime): void {
  const unchecked = useStore(betslip, (s) => s.picks.filter((p) => !p.checked).map((p) => p.id).join())
  useEffect(() => {
    keepSlipInBrowser()
    const onVisible = () => {
      if (document.visibilityState === 'visible' && betslip.getState().picks.length > 0) betslip.getState().uncheck()
    }
    document.addEventListener('visibilitychange', onVisible)
    return () => document.removeEventListener('visibilitychange', onVisible)
  }, [])
  useEffect(() => {
    if (!unchecked) return
    let gone = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const attempt = async () => {
      const result = await runtime.run([{ do: 'betslip.check' }])
      if (!result.ok && !gone) timer = setTimeout(() => void attempt(), RETRY_MS)
    }
    void attempt()
    return () => {
      gone = true
      clearTimeout(timer)
    }
  }, [unchecked, runtime])
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
