/** Notifications (spec §3): announced politely to screen readers, dismissed after their duration. */
import { useStore } from 'zustand'
import { useRuntime } from '../runtime'

export function Notifications() {
  const runtime = useRuntime()
  const notifications = useStore(runtime.stores.ui, (s) => s.notifications)
  return (
    <div className="notifications" role="status" aria-live="polite" aria-label={runtime.t('shell.notifications')} data-testid="notifications">
      {notifications.map((n) => (
        <div key={n.uid} className="notification" data-status={n.status}>
          <span className="notification__text">{runtime.t(n.id, n.values)}</span>
          <button type="button" className="icon-button" aria-label={runtime.t('shell.dismiss')} onClick={() => runtime.stores.ui.getState().dismissNotification(n.uid)}>
            ×
          </button>
        </div>
      ))}
    </div>
  )
}
