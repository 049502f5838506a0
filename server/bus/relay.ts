/**
 * Relays what happens on one instance to the sockets of the others: punter events (balance,
 * logout, messages … of server/punters/events.ts) and big wins (server/realtime/gambling.ts).
 * Each local event is published once on the bus; an event from another instance is emitted on this
 * instance's emitter, where the socket server encodes it once and fans it out as if it happened
 * here. The socket server itself does not change: it only ever listens to its local emitters.
 */
import type { EventEmitter } from 'node:events'
import { PUNTER_EVENT_TYPES, punterEvents } from '../punters/events'
import { gamblingEvents } from '../realtime/gambling'
import type { Bus, BusChannel } from './bus'

interface Relayed {
  type: string
  event: Record<string, unknown>
}

/** Bridges one emitter's event types over one bus channel; answers the function that stops it. */
function bridge(bus: Bus, emitter: EventEmitter, channel: BusChannel, types: readonly string[]): () => void {
  // events that arrived from the bus are not published again
  const fromElsewhere = new WeakSet<object>()
  const offs = types.map((type) => {
    const forward = (event: Record<string, unknown>) => {
      if (event && typeof event === 'object' && !fromElsewhere.has(event)) bus.publish(channel, { type, event } satisfies Relayed)
    }
    emitter.on(type, forward)
    return () => emitter.off(type, forward)
  })
  const unsubscribe = bus.subscribe(channel, ({ from, body }) => {
    if (from === bus.instanceId) return
    const { type, event } = (body ?? {}) as Partial<Relayed>
    if (typeof type !== 'string' || !types.includes(type) || !event || typeof event !== 'object') return
    fromElsewhere.add(event)
    emitter.emit(type, event)
  })
  return () => {
    unsubscribe()
    for (const off of offs) off()
  }
}

/**
 * `mirror` is not relayed: every instance receives the published documents (./documents-sync.ts)
 * and announces the site's new mirror to its own sockets (server/realtime/mirror.ts); relaying it
 * as well would send each socket one `mirror` frame per instance.
 */
export const RELAYED_PUNTER_EVENTS = PUNTER_EVENT_TYPES.filter((type) => type !== 'mirror')

export function relayEvents(bus: Bus): () => void {
  const stops = [bridge(bus, punterEvents, 'punter-events', RELAYED_PUNTER_EVENTS), bridge(bus, gamblingEvents, 'gambling', ['casino'])]
  return () => stops.forEach((stop) => stop())
}
