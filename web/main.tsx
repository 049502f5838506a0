/// <reference types="vite/client" />
/** Browser entry: styles, then the Parlay app. Nothing inline (the CSP allows only same-origin
 * files); the boot data the page carries is JSON, read by the runtime. The service worker is
 * registered once the first screen has rendered, never before the first paint. The engine's
 * boot starts as this module runs, in parallel with React's setup. */
import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { ParlayApp } from '../engine/renderers/shell/ParlayApp'
import { afterFirstScreen } from '../engine/renderers/shell/after-first-screen'
import { bootBrowserEngine, type BootResult } from '../engine/renderers/shell/browser-runtime'
import { registerServiceWorker } from '../engine/renderers/shell/service-worker'

// The page shows the server's first screen (server/http/first-screen.tsx; or the boot shell,
// header bar and brand, where the server does not render it) until the engine has booted (boot
// data, stores, translations, the first screen's data); then the whole shell mounts in one commit
// that replaces the server's markup with the same markup, rendered in a transition so React yields
// to the browser every few milliseconds instead of one long task (issue 10: total blocking time).
// Mounting earlier would replace it with an empty root until the boot is done. createRoot, not
// hydrateRoot: the server renders a guest's view, and a returning punter's first render differs
// (their header), which hydration would report as a mismatch; a replacement just shows theirs.
// This module is started after the first paint by web/start-after-paint.js.
const container = document.getElementById('root')
const mount = (booted: BootResult) => {
  if (!container) return
  const root = createRoot(container)
  startTransition(() =>
    root.render(
      <StrictMode>
        <ParlayApp booted={booted} />
      </StrictMode>,
    ),
  )
}
bootBrowserEngine().then(mount, () => mount({ ok: false, status: 500, code: 'BOOT_FAILED' }))

if (import.meta.env.PROD) afterFirstScreen(registerServiceWorker)
