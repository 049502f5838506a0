/** The whole client: boots the engine (site, translations, stores), then the router and shell. */
import { startTransition, useEffect, useRef, useState } from 'react'
import { BrowserRouter, useLocation } from 'react-router-dom'
import { RuntimeProvider } from '../runtime'
import { AppErrorBoundary } from './AppErrorBoundary'
import { bootBrowserEngine, type BootResult } from './browser-runtime'
import { ErrorPage } from './ErrorPage'
import { OfflinePage } from './OfflinePage'
import { activateUpdate } from './service-worker'
import { Shell } from './Shell'

/** A new version of the site (service worker waiting) takes over on the next navigation. */
function UpdateOnNavigation() {
  const { pathname } = useLocation()
  const first = useRef(pathname)
  useEffect(() => {
    if (pathname !== first.current) activateUpdate()
  }, [pathname])
  return null
}

/** `booted`: the boot's result when it is already known (web/main.tsx mounts only then, so the
 * page's first commit is the whole shell and the server's boot shell never gives way to a blank). */
export function ParlayApp({ boot = bootBrowserEngine, booted }: { boot?: () => Promise<BootResult>; booted?: BootResult }) {
  const [result, setResult] = useState<BootResult | null>(booted ?? null)
  useEffect(() => {
    if (booted) return
    // the first mount of the whole shell renders in a transition: React yields to the browser
    // every few milliseconds instead of one long task (issue 10, total blocking time)
    const settle = (next: BootResult) => startTransition(() => setResult(next))
    boot().then(settle, () => settle({ ok: false, status: 500, code: 'BOOT_FAILED' }))
  }, [boot, booted])
  if (!result) return null
  if (!result.ok)
    return (
      <main className="app-main">
        {result.code === 'NETWORK_ERROR' ? <OfflinePage /> : <ErrorPage status={result.status === 404 ? 404 : 500} />}
      </main>
    )
  return (
    <AppErrorBoundary>
      <RuntimeProvider runtime={result.engine.runtime}>
        <BrowserRouter>
          <UpdateOnNavigation />
          <Shell engine={result.engine} />
        </BrowserRouter>
      </RuntimeProvider>
    </AppErrorBoundary>
  )
}
