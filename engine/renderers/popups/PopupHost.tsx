/** Renders the ui store's popup stack; only the top popup is interactive. */
import { useEffect } from 'react'
import { useStore } from 'zustand'
import { useRuntime } from '../runtime'
import { PopupView } from './PopupView'

export function PopupHost() {
  const runtime = useRuntime()
  const popups = useStore(runtime.stores.ui, (state) => state.popups)
  const open = popups.length > 0
  // the page behind a popup does not scroll (a class, not an inline style: the CSP forbids those)
  useEffect(() => {
    document.documentElement.classList.toggle('has-popup', open)
  }, [open])
  if (popups.length === 0) return null
  return (
    <div className="popup-host">
      {popups.map((popup, index) => (
        <PopupView key={popup.id} popup={popup} top={index === popups.length - 1} />
      ))}
    </div>
  )
}
