/**
 * Issue 14: a live line shows a running minute only for sports on a match clock. Sports played to
 * sets, frames or maps (tennis, darts, snooker, e-sports) say "Live" alone: "Selby 3:5 Trump ·
 * Live 97′" was on the live page of the demo.
 */
import { describe, expect, it } from 'vitest'
import { eventPage, lineEvents } from '../../../server/content/sport'
import { createFeed } from '../../../server/feed'
import { hasMatchClock } from '../../../server/feed/catalogue'

describe('the minute of a live match', () => {
  const start = Date.UTC(2026, 10, 26, 18, 0)
  const clock = { now: start }
  const feed = createFeed({ seed: 14, now: () => clock.now })
  clock.now = start + 40 * 60_000

  it('sports on a match clock show the minute; sports of sets, frames and maps do not', () => {
    expect(hasMatchClock('Football')).toBe(true)
    expect(hasMatchClock('Basketball')).toBe(true)
    for (const kind of ['Tennis', 'Darts', 'Snooker', 'e-Sports']) expect(hasMatchClock(kind), kind).toBe(false)
  })

  it('the live line: a minute for football, none for a match of sets, frames or maps', () => {
    const live = [...lineEvents(feed, 'sport', 'live', 'en'), ...lineEvents(feed, 'esports', 'live', 'en')]
    expect(live.length).toBeGreaterThan(0)
    for (const event of live) {
      const sport = feed.event(event.id)!.sport
      if (hasMatchClock(sport)) expect(event.subtitle, `${sport}: ${event.subtitle}`).toMatch(/^Live \d+(\+\d+)?' · /)
      else expect(event.subtitle, `${sport}: ${event.subtitle}`).toMatch(/^Live · /)
    }
    expect(live.some((e) => !hasMatchClock(feed.event(e.id)!.sport))).toBe(true)
  })

  it('the event page tells the scoreboard whether its sport runs on a clock', () => {
    for (const event of lineEvents(feed, 'sport', 'live', 'en')) {
      const page = eventPage(feed, 'sport', 'live', event.id, 'en')!
      expect(page.clock).toBe(hasMatchClock(feed.event(event.id)!.sport))
    }
  })
})
