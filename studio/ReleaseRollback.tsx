/**
 * Rolling a published release back, four-eyes (issue 29 item 7): "Ask for a rollback" records a
 * request a second person approves in Rollbacks; "Emergency rollback" puts the previous versions
 * live at once and needs a reason (a second person reviews it afterwards). The server
 * (server/admin/releases.ts, server/store/rollbacks.ts) enforces who may do what and audits it.
 */
import { useState } from 'react'

/** The smallest reason an emergency takes (server/admin/rollbacks.ts EMERGENCY_REASON_MIN). */
const EMERGENCY_REASON_MIN = 10

export function ReleaseRollback({ busy, act }: { busy: boolean; act: (path: string, body: unknown, done: string) => Promise<void> }) {
  const [reason, setReason] = useState('')
  const why = reason.trim()
  const emergencyReady = why.replace(/\s/g, '').length >= EMERGENCY_REASON_MIN
  return (
    <span className="rollback" data-testid="release-rollback-form">
      <input value={reason} placeholder="Why roll back?" aria-label="Rollback reason" data-testid="release-rollback-reason" onChange={(e) => setReason(e.target.value)} />{' '}
      <button type="button" disabled={busy} data-testid="release-rollback" onClick={() => void act('rollback', { reason: why }, 'Rollback asked: it goes live when a second person approves it (Rollbacks).')}>
        Ask for a rollback
      </button>{' '}
      <button
        type="button"
        disabled={busy || !emergencyReady}
        title={emergencyReady ? undefined : `An emergency rollback needs a reason of at least ${EMERGENCY_REASON_MIN} characters`}
        data-testid="release-rollback-emergency"
        onClick={() => void act('rollback', { emergency: true, reason: why }, 'Emergency rollback: the previous versions are live again; a second person reviews it afterwards.')}
      >
        Emergency rollback
      </button>
    </span>
  )
}
