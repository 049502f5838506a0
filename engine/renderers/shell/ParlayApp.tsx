/** The whole client: boots the engine (site, translations, stores), then the router and shell. */
import { useEffect, useState } from 'react'
import { BrowserRouter } from 'react-router-dom'
import { RuntimeProvider } from '../runtime'
import { AppErrorBoundary } from './AppErrorBoundary'
import { bootBrowserEngine, type BootResult } from './browser-runtime'
import { ErrorPage } from './ErrorPage'
import { Shell } from './Shell'

export function ParlayApp({ boot = bootBrowserEngine }: { boot?: () => Promise<BootResult> }) {
  const [result, setResult] = useState<BootResult | null>(null)
  useEffect(() => {
    boot().then(setResult, () => setResult({ ok: false, status: 500, code: 'BOOT_FAILED' }))
  }, [boot])
  if (!result) return null
  if (!result.ok)
    return (
      <main className="app-main">
        <ErrorPage status={result.status === 404 ? 404 : 500} />
      </main>
    )
  return (
    <AppErrorBoundary>
      <RuntimeProvider runtime={result.engine.runtime}>
        <BrowserRouter>
          <Shell engine={result.engine} />
        </BrowserRouter>
      </RuntimeProvider>
    </AppErrorBoundary>
  )
}
