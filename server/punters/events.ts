/**
 * Punter events inside the server (spec §3 push/socket event kinds): whoever changes a punter's
 * account emits here — `punterEvents.emit('accountUpdate', { punterId, balance })` — and the socket
 * server forwards the event to that punter's open sockets. An event without a punterId (a mirror
 * change) goes to every punter socket.
 */
import { EventEmitter } from 'node:events'

export const PUNTER_EVENT_TYPES = [
  'accountUpdate',
  'settingsUpdate',
  'accountLogout',
  'coOffer',
  'coRemoval',
  'coRequest',
  'betCountUpdate',
  'mirror',
  'promoParticipation',
  'regulationAlert',
] as const

export type PunterEventType = (typeof PUNTER_EVENT_TYPES)[number]

/** Every event names its punter; the rest is the payload the client gets. */
export interface PunterEvent {
  punterId?: number
  [field: string]: unknown
}

export const punterEvents = new EventEmitter()
punterEvents.setMaxListeners(0)

export function emitPunterEvent(type: PunterEventType, event: PunterEvent): void {
  punterEvents.emit(type, event)
}
