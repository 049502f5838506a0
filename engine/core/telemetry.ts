/**
 * The page's telemetry bus (issue 18): the engine says what happened — a popup opened, an action
 * ran, a login or logout, a socket send failed — and the services (analytics, error reporting,
 * fingerprint), loaded after the first paint, listen. Events before the first listener are kept
 * (at most 512, the analytics queue cap) and handed to it, so nothing of the first screen is lost.
 * Framework-free, never throws.
 */
import { listeners } from './listeners'

export type TelemetryEvent =
  | { type: 'popup'; id: string }
  | { type: 'action'; name: string; ok: boolean; code?: string }
  | { type: 'login'; loginByAuthType?: string }
  | { type: 'logout'; reason: string | null }
  | { type: 'socket-error'; message: string }

type Listener = (event: TelemetryEvent) => void

export const EARLY_EVENTS_CAP = 512
const bus = listeners<TelemetryEvent>()
let early: TelemetryEvent[] = []

export function emitTelemetry(event: TelemetryEvent): void {
  if (bus.count === 0) early = [...early.slice(-(EARLY_EVENTS_CAP - 1)), event]
  else bus.emit(event)
}

/** Subscribes; the first subscriber also gets the events emitted before it. Returns unsubscribe. */
export function subscribeTelemetry(listener: Listener): () => void {
  const unsubscribe = bus.add(listener)
  const handOver = early
  early = []
  for (const event of handOver) {
    try {
      listener(event)
    } catch {
      // one bad listener must not silence the others
    }
  }
  return unsubscribe
}
