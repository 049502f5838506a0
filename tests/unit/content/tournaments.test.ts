/**
 * The sport tournaments page comes from the feed's tree (issue 14): each league with the matches
 * it has on the line and how many of them are live now, moving with the feed.
 */
import { describe, expect, it } from 'vitest'
import { tournaments } from '../../../server/content/sport'
import { createFeed } from '../../../server/feed'

const START = Date.UTC(2026, 10, 26, 8, 0)

describe('sport tournaments from the feed', () => {
  it('every league with matches on the line is a tournament: its matches live first, with the live count', () => {
    const clock = { now: START }
    const feed = createFeed({ seed: 14, now: () => clock.now })
    const list = tournaments(feed, 'en')
    const premier = list.find((t) => t.title === 'England. Premier League')!
    const inFeed = feed.events({ section: 'sport' }).filter((e) => e.league === 'England. Premier League' && e.state !== 'finished')
    expect(premier.live).toBe(inFeed.filter((e) => e.state === 'live').length)
    expect(premier.live + premier.upcoming).toBe(inFeed.length)
    expect(premier.live).toBeGreaterThan(0)
    expect(premier.subtitle).toBe(`Football · Live: ${premier.live} · ${inFeed.length} events`)
    expect(premier.matches.slice(0, premier.live).every((m) => m.state === 'live')).toBe(true)
    expect(premier.matches[0]).toMatchObject({ to: expect.stringMatching(/^\/sport\/live\/event\?id=e\d+$/), main: { selections: expect.any(Array) } })
    expect(new Set(list.map((t) => t.sport)).size).toBeGreaterThanOrEqual(10)
    expect(list.some((t) => t.title.startsWith('Toto') || t.title.startsWith('CS2'))).toBe(false)
  })

  it('the live count follows the feed: a match that kicks off is counted live and listed among the live ones', () => {
    const clock = { now: START }
    const feed = createFeed({ seed: 14, now: () => clock.now })
    const next = feed.events({ section: 'sport', state: 'prematch' })[0]
    clock.now = next.startsAt + 2_000
    const tournament = tournaments(feed, 'en').find((t) => t.title === next.league)!
    const liveNow = feed.events({ section: 'sport', state: 'live' }).filter((e) => e.league === next.league)
    expect(liveNow.map((e) => e.id)).toContain(next.id)
    expect(tournament.live).toBe(liveNow.length)
    expect(tournament.matches.find((m) => m.id === next.id)?.state).toBe('live')
  })
})
