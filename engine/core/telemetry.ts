/**
 * The page's telemetry bus (issue 18): the engine says what happened — a popup opened, an action
 * ran, a login or logout, a socket send failed — and the services (analytics, error reporting,
 * fingerprint), loaded after the first paint, listen. Events before the first listener are kept
 * (at most 512, the analytics queue cap) and handed to it, so nothing of the first screen is lost.
 * Framework-free, never throws.
 */
export type TelemetryEvent =
  | { type: 'popup'; id: string }
  | { type: 'action'; name: string; ok: boolean; code?: string }
  | { type: 'login'; loginByAuthType?: string }
  | { type: 'logout'; reason: string | null }
  | { type: 'socket-error'; message: string }

type Listener = (event: TelemetryEvent) => void

export const EARLY_EVENTS_CAP = 512
let listeners: Listener[] = []
let early: TelemetryEvent[] = []

export function emitTelemetry(event: TelemetryEvent): void {
  if (listeners.length === 0) {
    early = [...early.slice(-(EARLY_EVENTS_CAP - 1)), event]
    return
  }
  for (const listener of listeners) {
    try {
      listener(event)
    } catch {
      // one bad listener must not silence the others
    }
  }
}

/** Subscribes; the first subscriber also gets the events emitted before it. Returns unsubscribe. */
export function subscribeTelemetry(listener: Listener): () => void {
  listeners = [...listeners, listener]
  const handOver = early
  early = []
  for (const event of handOver) {
    try {
      listener(event)
    } catch {
      // as above
    }
  }
  return () => {
    listeners = listeners.filter((l) => l !== listener)
  }
}
