/**
 * The punter-event relay (server/bus/relay.ts): a local punter event is published once on the bus
 * and an event from another instance is emitted here once, never published back — except `mirror`,
 * which every instance announces from its own copy of the published documents, so relaying it
 * would send each socket one frame per instance.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createProcessBus, type Bus, type BusChannel, type BusEnvelope } from '../../../server/bus/bus'
import { relayEvents } from '../../../server/bus/relay'
import { emitPunterEvent, punterEvents } from '../../../server/punters/events'

/** A bus that records what this instance publishes and lets the test deliver what others sent. */
function fakeBus() {
  const published: { channel: BusChannel; body: unknown }[] = []
  const handlers = new Map<BusChannel, ((envelope: BusEnvelope) => void)[]>()
  const bus: Bus = {
    ...createProcessBus(),
    instanceId: 'this-instance',
    publish: (channel, body) => void published.push({ channel, body }),
    subscribe: (channel, handler) => {
      handlers.set(channel, [...(handlers.get(channel) ?? []), handler])
      return () => handlers.set(channel, (handlers.get(channel) ?? []).filter((h) => h !== handler))
    },
  }
  const fromElsewhere = (channel: BusChannel, body: unknown) => (handlers.get(channel) ?? []).forEach((handle) => handle({ from: 'another-instance', body }))
  return { bus, published, fromElsewhere }
}

const stops: (() => void)[] = []
afterEach(() => stops.splice(0).forEach((stop) => stop()))

function heard(type: 'accountUpdate' | 'mirror'): unknown[] {
  const events: unknown[] = []
  const listener = (event: unknown) => events.push(event)
  punterEvents.on(type, listener)
  stops.push(() => punterEvents.off(type, listener))
  return events
}

describe('punter events across instances', () => {
  it('a local accountUpdate is published on the bus once; a local mirror is not published', () => {
    const { bus, published } = fakeBus()
    stops.push(relayEvents(bus))
    emitPunterEvent('accountUpdate', { punterId: 7, balance: 12 })
    emitPunterEvent('mirror', { jurisdiction: 'curacao', mirrorName: 'parlay-mirror.example' })
    expect(published).toEqual([{ channel: 'punter-events', body: { type: 'accountUpdate', event: { punterId: 7, balance: 12 } } }])
  })

  it("another instance's accountUpdate is emitted here once and not published back; its mirror is ignored", () => {
    const { bus, published, fromElsewhere } = fakeBus()
    stops.push(relayEvents(bus))
    const updates = heard('accountUpdate')
    const mirrors = heard('mirror')
    fromElsewhere('punter-events', { type: 'accountUpdate', event: { punterId: 7, balance: 12 } })
    fromElsewhere('punter-events', { type: 'mirror', event: { jurisdiction: 'curacao', mirrorName: 'parlay-mirror.example' } })
    expect(updates).toEqual([{ punterId: 7, balance: 12 }])
    expect(mirrors).toEqual([])
    expect(published).toEqual([])
  })
})
