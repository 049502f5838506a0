/** Renders the ui store's popup stack; only the top popup is interactive. */
import { useStore } from 'zustand'
import { useRuntime } from '../runtime'
import { PopupView } from './PopupView'

export function PopupHost() {
  const runtime = useRuntime()
  const popups = useStore(runtime.stores.ui, (state) => state.popups)
  if (popups.length === 0) return null
  return (
    <div className="popup-host">
      {popups.map((popup, index) => (
        <PopupView key={popup.id} popup={popup} top={index === popups.length - 1} />
      ))}
    </div>
  )
}
