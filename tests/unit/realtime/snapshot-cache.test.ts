/**
 * Event snapshots are encoded once per event and mode (server/realtime/messages.ts): the frame a
 * subscriber gets is byte for byte the one encoded for it alone, with its moment's elapsed time,
 * and a change of the event (a new price) is in the next snapshot.
 */
import { describe, expect, it } from 'vitest'
import { createFeed } from '../../../server/feed'
import { createSnapshotCache, snapshotFrame } from '../../../server/realtime/messages'

describe('snapshot cache', () => {
  it('gives the same frame as encoding the event alone, FULL and SHORT, at any elapsed time', () => {
    const feed = createFeed({ now: () => Date.UTC(2026, 0, 15, 12, 30) })
    feed.advanceTo()
    const cache = createSnapshotCache()
    for (const event of feed.events({ state: 'live' }).slice(0, 5))
      for (const mode of ['FULL', 'SHORT'] as const)
        for (const elapsed of [0, 61_234, 5_400_000]) expect(cache.frame(event, mode, elapsed)).toBe(snapshotFrame(event, mode, elapsed))
  })

  it('a changed event is encoded anew: the next snapshot carries the new price', () => {
    const feed = createFeed({ now: () => Date.UTC(2026, 0, 15, 12, 30) })
    feed.advanceTo()
    const cache = createSnapshotCache()
    const event = feed.events({ state: 'live' })[0]
    const stale = cache.frame(event, 'SHORT', 1000)
    const selection = event.markets[0].selections[0]
    const update = feed.setPrice(selection.id, 7.77)!
    cache.changed(update.eventId)
    const fresh = feed.event(event.id)!
    expect(cache.frame(fresh, 'SHORT', 1000)).toBe(snapshotFrame(fresh, 'SHORT', 1000))
    expect(cache.frame(fresh, 'SHORT', 1000)).not.toBe(stale)
    expect(JSON.parse(cache.frame(fresh, 'SHORT', 1000)).event.markets[0].selections[0].price).toBe(7.77)
  })
})
