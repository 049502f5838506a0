/// <reference types="vite/client" />
/** Browser entry: styles, then the Parlay app. Nothing inline (the CSP allows only same-origin
 * files); the boot data the page carries is JSON, read by the runtime. The service worker is
 * registered once the first screen has rendered, never before the first paint. */
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { ParlayApp } from '../engine/renderers/shell/ParlayApp'
import { afterFirstScreen } from '../engine/renderers/shell/after-first-screen'
import { registerServiceWorker } from '../engine/renderers/shell/service-worker'

const container = document.getElementById('root')
if (container)
  createRoot(container).render(
    <StrictMode>
      <ParlayApp />
    </StrictMode>,
  )

if (import.meta.env.PROD) afterFirstScreen(registerServiceWorker)
