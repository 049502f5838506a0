/**
 * The demo feed's sports look like the sports (issue 14): scores a fan would believe per sport,
 * a football clock that stops at 90 plus added time, matches of sets played out to the winning
 * set. Each sport's matches are played by the feed itself over three hours of its clock.
 */
import { describe, expect, it } from 'vitest'
import { createFeed, type EventUpdate, type FeedEvent } from '../../../server/feed'

const START = Date.UTC(2026, 10, 26, 8, 0)
const MINUTE = 60_000

interface Played {
  event: FeedEvent
  score: [number, number]
  /** The largest elapsed playing time any update carried. */
  lastElapsedMs: number
}

/** Plays three hours; every match finished in them (and the tree's results) by sport. */
function playedMatches(seed: number): Map<string, Played[]> {
  const clock = { now: START }
  const feed = createFeed({ seed, now: () => clock.now })
  const bySport = new Map<string, Played[]>()
  const elapsed = new Map<string, number>()
  const record = (event: FeedEvent, score: [number, number]) => {
    const list = bySport.get(event.sport) ?? []
    list.push({ event: { ...event }, score, lastElapsedMs: elapsed.get(event.id) ?? 0 })
    bySport.set(event.sport, list)
  }
  for (const event of feed.events({ state: 'finished' })) record(event, event.score)
  feed.subscribe((updates: EventUpdate[]) => {
    for (const update of updates) {
      if (update.elapsedMs !== undefined) elapsed.set(update.eventId, Math.max(elapsed.get(update.eventId) ?? 0, update.elapsedMs))
      const event = feed.event(update.eventId)
      if (update.state === 'finished' && event) record(event, update.score ?? event.score)
    }
  })
  for (let i = 0; i < 18; i++) {
    clock.now += 10 * MINUTE
    feed.advanceTo()
  }
  return bySport
}

const matches = new Map<number, Map<string, Played[]>>()
function played(sport: string): Played[] {
  const all = [14, 15].flatMap((seed) => {
    if (!matches.has(seed)) matches.set(seed, playedMatches(seed))
    return matches.get(seed)!.get(sport) ?? []
  })
  expect(all.length, `${sport} matches played`).toBeGreaterThanOrEqual(4)
  return all
}

const total = ({ score }: Played) => score[0] + score[1]
const margin = ({ score }: Played) => Math.abs(score[0] - score[1])

function setsPlayedOut(sport: string, winAt: number) {
  for (const match of played(sport)) {
    expect(Math.max(...match.score), `${sport} ${match.score.join(':')}`).toBe(winAt)
    expect(Math.min(...match.score), `${sport} ${match.score.join(':')}`).toBeLessThan(winAt)
  }
}

describe('every demo sport finishes with a score its fans would believe', () => {
  it('football: a handful of goals; the clock stops at 90 plus 1–6 minutes of added time', () => {
    for (const match of played('Football')) {
      expect(total(match)).toBeLessThanOrEqual(9)
      expect(match.event.regularMs).toBe(90 * MINUTE)
      expect(match.event.durationMs).toBeGreaterThanOrEqual(91 * MINUTE)
      expect(match.event.durationMs).toBeLessThanOrEqual(96 * MINUTE)
      expect(match.lastElapsedMs).toBeLessThanOrEqual(match.event.durationMs)
    }
  })

  it('basketball: both sides score 70–150 points and the margin stays under 40 (never 29:171)', () => {
    for (const match of played('Basketball')) {
      expect(Math.min(...match.score), match.score.join(':')).toBeGreaterThanOrEqual(70)
      expect(Math.max(...match.score), match.score.join(':')).toBeLessThanOrEqual(150)
      expect(margin(match), match.score.join(':')).toBeLessThan(40)
      expect(match.score[0]).not.toBe(match.score[1])
    }
  })

  it('ice hockey: at most a dozen goals in 60 minutes', () => {
    for (const match of played('IceHockey')) {
      expect(total(match)).toBeLessThanOrEqual(12)
      expect(match.event.durationMs).toBe(60 * MINUTE)
    }
  })

  it('handball: 35–90 goals in all, a margin under 15', () => {
    for (const match of played('Handball')) {
      expect(total(match), match.score.join(':')).toBeGreaterThanOrEqual(35)
      expect(total(match), match.score.join(':')).toBeLessThanOrEqual(90)
      expect(margin(match), match.score.join(':')).toBeLessThan(15)
    }
  })

  it('tennis and e-sports: best of three, won 2:0 or 2:1', () => {
    setsPlayedOut('Tennis', 2)
    setsPlayedOut('e-Sports', 2)
  })

  it('volleyball, table tennis and darts: best of five, won by three sets', () => {
    setsPlayedOut('Volleyball', 3)
    setsPlayedOut('TableTennis', 3)
    setsPlayedOut('Darts', 3)
  })

  it('snooker: first to six frames', () => setsPlayedOut('Snooker', 6))

  it('MMA: two rounds won takes the fight', () => setsPlayedOut('MMA', 2))
})

describe('the match clock a live page shows', () => {
  it('counts whole minutes, shows added time as 90+n and never runs past the final whistle', async () => {
    const { matchMinute } = await import('../../../kernel/core/match-clock')
    expect(matchMinute(44.5 * MINUTE, 94 * MINUTE, 90 * MINUTE)).toBe('44')
    expect(matchMinute(90.2 * MINUTE, 94 * MINUTE, 90 * MINUTE)).toBe('90+1')
    expect(matchMinute(93.9 * MINUTE, 94 * MINUTE, 90 * MINUTE)).toBe('90+4')
    expect(matchMinute(130 * MINUTE, 94 * MINUTE, 90 * MINUTE)).toBe('90+4')
    expect(matchMinute(70 * MINUTE, 60 * MINUTE)).toBe('60')
  })
})
