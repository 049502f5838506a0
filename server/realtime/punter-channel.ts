/**
 * Punter events (server/punters/events.ts) to the sockets of their punter (spec §7 "Real-time"):
 * an event naming a punter goes to that punter's authenticated sockets; one without a punter is
 * site-wide, for every punter socket (or those of the jurisdiction it names). Never to an events-only
 * socket. `accountLogout` ends the session on the socket (the frame, then the close).
 */
import { PUNTER_EVENT_TYPES, punterEvents, type PunterEvent } from '../punters/events'
import type { Connection } from './connection'
import type { Followers } from './followers'

/** The sockets a punter event goes to. */
export function punterEventTargets(followers: Pick<Followers, 'all' | 'byPunter'>, event: PunterEvent): Connection[] {
  const { punterId, jurisdiction } = event
  const site = typeof jurisdiction === 'string' ? jurisdiction : undefined
  const targets =
    punterId === undefined ? [...followers.all].filter((c) => c.punter && (site === undefined || c.jurisdiction === site)) : [...(followers.byPunter.get(punterId) ?? [])]
  return targets.filter((connection) => connection.role !== 'events')
}

/** Listens to every punter event type; answers the function that stops listening. */
export function listenToPunterEvents(
  followers: Followers,
  send: (connection: Connection, frame: string) => void,
  endSession: (connection: Connection, reason: string) => void,
): () => void {
  const listeners = PUNTER_EVENT_TYPES.map((type) => {
    const listener = (event: PunterEvent) => {
      const { punterId: _punter, ...payload } = event
      const frame = JSON.stringify({ type, payload })
      for (const connection of punterEventTargets(followers, event)) {
        if (type === 'accountLogout') endSession(connection, String(payload.reason ?? 'SOCKET'))
        else send(connection, frame)
      }
    }
    punterEvents.on(type, listener)
    return () => punterEvents.off(type, listener)
  })
  return () => {
    for (const off of listeners) off()
  }
}
