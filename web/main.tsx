/** Browser entry: styles, then the Parlay app. Nothing inline (the CSP allows only same-origin files). */
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { ParlayApp } from '../engine/renderers/shell/ParlayApp'

const container = document.getElementById('root')
if (container)
  createRoot(container).render(
    <StrictMode>
      <ParlayApp />
    </StrictMode>,
  )
