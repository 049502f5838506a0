/**
 * "You are offline" over every page while the network is gone (issue 31 item 6): what the page
 * shows stays (last good documents and data: engine/core/documents.ts, the service worker, the
 * runtime's screen data), and the punter is told it may be out of date rather than shown "No
 * promotions right now". Gone again when the browser is back online.
 */
import { useRuntime } from '../runtime'
import { useOffline } from '../use-offline'

export function OfflineBanner() {
  const runtime = useRuntime()
  const offline = useOffline()
  if (!offline) return null
  return (
    <p className="offline-banner" role="status" data-testid="offline-banner">
      {runtime.t('offline.banner')}
    </p>
  )
}
