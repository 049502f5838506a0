/**
 * The rolling schedule (issue 31 item 7: 15 live events on the home page became 1 after about 75
 * minutes, because a finished match was replaced by one 6–48 hours away). Every tick the feed
 * asks, per section, whether its line still holds what a demo needs at any hour, for days:
 *
 * - live: events under way, plus those announced to start within `LEAD_MS`, at least
 *   `target.live + target.margin`; when short, a fixture is put on the line starting at the next
 *   5-minute mark after `LEAD_MS / 2`, or after one minute when the live ones (with those about
 *   to start) are below `target.live` (it is upcoming first, then goes live on schedule);
 * - upcoming: at least `target.upcoming` pre-match events, fixtures drawn 4–72 hours ahead (not
 *   sooner: a far fixture drifting into the next hours would keep its teams from the top-ups).
 *
 * A team never plays two matches at once: a pair is drawn among the league's competitors free for
 * the whole match (with a quarter of an hour either side). Everything is drawn from the random
 * generator the feed hands in (seed and tick), so a replay of every tick lays out the same tree.
 * At the feed's creation (`underWay`) missing live events start as already under way, as the
 * first tree's live round does, so the line is full from the first minute.
 */
import { SPORTS, type SportSpec } from './catalogue'
import { DAY, HOUR, MINUTE, type Fixture } from './generate'
import type { FeedEvent, FeedSection } from './model'
import type { Random } from './random'

export interface LineTarget {
  /** Live events to keep at any moment. */
  live: number
  /** Extra live-or-about-to-start events, so matches ending early never take live below `live`. */
  margin: number
  /** Pre-match events to keep on the line. */
  upcoming: number
}

/** What each section keeps. Toto is a pool of pre-match coupons: no live target. */
export const LINE_TARGETS: Record<FeedSection, LineTarget> = {
  sport: { live: 12, margin: 8, upcoming: 60 },
  esports: { live: 12, margin: 8, upcoming: 60 },
  toto: { live: 0, margin: 0, upcoming: 8 },
}

/** How far ahead a live top-up is announced (it shows as upcoming until then). */
export const LEAD_MS = 20 * MINUTE
const REST_MS = 15 * MINUTE
const SLOT_MS = 5 * MINUTE
const FAR_FROM = 4 * HOUR
const FAR_TO = 3 * DAY

export interface SectionCounts {
  live: number
  /** Pre-match events starting within LEAD_MS. */
  soon: number
  /** Pre-match events starting within the next slot (5 minutes). */
  imminent: number
  upcoming: number
}

export const emptyCounts = (): Record<FeedSection, SectionCounts> => ({
  sport: { live: 0, soon: 0, imminent: 0, upcoming: 0 },
  esports: { live: 0, soon: 0, imminent: 0, upcoming: 0 },
  toto: { live: 0, soon: 0, imminent: 0, upcoming: 0 },
})

/** Whether a section's line lacks live or upcoming events (the feed then asks `fixturesNeeded`). */
export function isShort(section: FeedSection, counts: SectionCounts): boolean {
  const target = LINE_TARGETS[section]
  return counts.live + counts.imminent < target.live || counts.live + counts.soon < target.live + target.margin || counts.upcoming < target.upcoming
}

/** Counts one event into its section's counts at `at`. */
export function countEvent(counts: Record<FeedSection, SectionCounts>, event: FeedEvent, at: number): void {
  const c = counts[event.section]
  if (event.state === 'live') c.live++
  else if (event.state === 'prematch') {
    c.upcoming++
    if (event.startsAt - at <= LEAD_MS) c.soon++
    if (event.startsAt - at <= SLOT_MS) c.imminent++
  }
}

const durationOf = (spec: SportSpec) => (spec.durationMinutes + (spec.addedMinutes?.[1] ?? 0)) * MINUTE

/** Leagues of a section, each with its sport. */
const leaguesOf = (section: FeedSection) => SPORTS.filter((s) => s.section === section).flatMap((spec) => spec.leagues.map((league) => ({ spec, league })))

/** Competitors of a league busy between `from` and `to` (with a rest either side). */
function busy(events: readonly FeedEvent[], league: string, from: number, to: number): Set<string> {
  const taken = new Set<string>()
  for (const e of events)
    if (e.league === league && e.state !== 'finished' && e.startsAt - REST_MS < to && e.startsAt + e.durationMs + REST_MS > from) {
      taken.add(e.home)
      taken.add(e.away)
    }
  return taken
}

/** A fixture of the section starting at `startsAt`: a league drawn by its size, a free pair in it. */
function drawFixture(section: FeedSection, events: readonly FeedEvent[], startsAt: number, state: Fixture['state'], rng: Random): Fixture | undefined {
  const leagues = leaguesOf(section)
  const weights = leagues.map(({ league }) => league.competitors.length)
  let pick = rng.next() * weights.reduce((a, b) => a + b, 0)
  let first = 0
  while (first < leagues.length - 1 && pick >= weights[first]) pick -= weights[first++]
  for (let i = 0; i < leagues.length; i++) {
    const { spec, league } = leagues[(first + i) % leagues.length]
    const taken = busy(events, league.name, startsAt, startsAt + durationOf(spec))
    const free = league.competitors.filter((c) => !taken.has(c))
    if (free.length < 2) continue
    const home = rng.pick(free)
    const away = rng.pick(free.filter((c) => c !== home))
    return { spec, league: league.name, home, away, startsAt, state }
  }
  return undefined
}

const nextSlot = (at: number) => Math.ceil(at / SLOT_MS) * SLOT_MS

/**
 * The fixtures a section needs now to keep its target. `events` is every event of the feed (new
 * fixtures join it as they are drawn, so two of them never share a competitor); `underWay` starts
 * live top-ups as matches already being played (the feed's creation only).
 */
export function fixturesNeeded(section: FeedSection, counts: SectionCounts, events: FeedEvent[], at: number, rng: Random, underWay = false): Fixture[] {
  const target = LINE_TARGETS[section]
  const added: Fixture[] = []
  const place = (fixture: Fixture | undefined) => {
    if (!fixture) return false
    added.push(fixture)
    // a stand-in event: what `busy` reads of it
    events.push({ league: fixture.league, home: fixture.home, away: fixture.away, startsAt: fixture.startsAt, durationMs: durationOf(fixture.spec), state: fixture.state } as FeedEvent)
    return true
  }
  // below the target now: a match at the next 5-minute mark; short of the margin: one a little later
  let now = counts.live + counts.imminent
  let live = counts.live + counts.soon
  while (live < target.live + target.margin) {
    const startsAt = underWay ? at : nextSlot(at + (now < target.live ? MINUTE : LEAD_MS / 2))
    const fixture = drawFixture(section, events, startsAt, underWay ? 'live' : 'prematch', rng)
    // under way: between a twentieth and a half of its playing time already played
    if (fixture && underWay) fixture.startsAt = at - Math.round(((rng.next() * 0.45 + 0.05) * durationOf(fixture.spec)) / MINUTE) * MINUTE
    if (!place(fixture)) break
    live++
    now++
  }
  let upcoming = counts.upcoming + (underWay ? 0 : added.length)
  while (upcoming < target.upcoming) {
    const startsAt = nextSlot(at + FAR_FROM + rng.next() * (FAR_TO - FAR_FROM))
    if (!place(drawFixture(section, events, startsAt, 'prematch', rng))) break
    upcoming++
  }
  return added
}
