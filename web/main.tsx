/// <reference types="vite/client" />
/** Browser entry: styles, then the Parlay app. Nothing inline (the CSP allows only same-origin
 * files); the boot data the page carries is JSON, read by the runtime. The service worker is
 * registered once the first screen has rendered, never before the first paint. The engine's
 * boot starts as this module runs, in parallel with React's setup. */
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { ParlayApp } from '../engine/renderers/shell/ParlayApp'
import { afterFirstScreen } from '../engine/renderers/shell/after-first-screen'
import { bootBrowserEngine } from '../engine/renderers/shell/browser-runtime'
import { registerServiceWorker } from '../engine/renderers/shell/service-worker'

// the engine boots (boot data, stores, translations) while React sets itself up, not after its first commit
const booting = bootBrowserEngine()
const boot = () => booting

const container = document.getElementById('root')
if (container)
  createRoot(container).render(
    <StrictMode>
      <ParlayApp boot={boot} />
    </StrictMode>,
  )

if (import.meta.env.PROD) afterFirstScreen(registerServiceWorker)
