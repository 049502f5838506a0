/// <reference types="vite/client" />
/** Browser entry: styles, then the Parlay app. Nothing inline (the CSP allows only same-origin
 * files); the boot data the page carries is JSON, read by the runtime. The service worker is
 * registered once the first screen has rendered, never before the first paint. The engine's
 * boot starts as this module runs, in parallel with React's setup. */
import { StrictMode, startTransition } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { listen as listenForFormUse } from '../engine/renderers/nodes/FormNode'
import { ParlayApp } from '../engine/renderers/shell/ParlayApp'
import { afterFirstScreen } from '../engine/renderers/shell/after-first-screen'
import { bootBrowserEngine, type BootResult } from '../engine/renderers/shell/browser-runtime'
import { prepareHydration } from '../engine/renderers/shell/hydration'
import { registerServiceWorker } from '../engine/renderers/shell/service-worker'

// The page shows the server's first screen (engine/ssr.tsx; or the boot shell,
// header bar and brand, where the server does not render it) until the engine has booted (boot
// data, stores, translations, the first screen's data); then the whole shell mounts in one commit
// that replaces the server's markup with the same markup, rendered in a transition so React yields
// to the browser every few milliseconds instead of one long task (issue 10: total blocking time).
// Mounting earlier would replace it with an empty root until the boot is done. createRoot, not
// hydrateRoot: the server renders a guest's view, and a returning punter's first render differs
// (their header), which hydration would report as a mismatch; a replacement just shows theirs.
// A page whose server markup holds a form is hydrated instead (issue 10: rjsf on first use): the
// form stays the server's HTML, typing and all, until the punter first uses it and its chunk has
// loaded (engine/renderers/nodes/FormNode.tsx); a replacing commit would have put the placeholder
// in its place. Those pages are guests' pages (a punter's browser gets the boot shell, see
// engine/auth/punter-hint.ts), so the first render matches the server's.
// This module is started after the first paint by web/start-after-paint.js.
const container = document.getElementById('root')
if (container?.querySelector('[data-form-host]')) listenForFormUse()
const mount = (booted: BootResult) => {
  if (!container) return
  const app = (
    <StrictMode>
      <ParlayApp booted={booted} />
    </StrictMode>
  )
  if (booted.ok && container.querySelector('[data-form-host]')) {
    prepareHydration(container, booted.engine.runtime.stores)
    startTransition(() => {
      hydrateRoot(container, app)
    })
    return
  }
  const root = createRoot(container)
  startTransition(() => root.render(app))
}
bootBrowserEngine().then(mount, () => mount({ ok: false, status: 500, code: 'BOOT_FAILED' }))

if (import.meta.env.PROD) afterFirstScreen(registerServiceWorker)
