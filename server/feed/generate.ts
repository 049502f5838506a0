/**
 * Builds the demo event tree from a seed and a start time: per league, one round of live events
 * already under way, one round of pre-match events over the next three days and one round of
 * results from the last days. Everything drawn comes from `randomFrom(mix(seed, …))`, so one seed
 * and one start time always give the same tree.
 */
import { SPORTS, type SportSpec } from './catalogue'
import type { EventState, FeedEvent, FeedMarket, FeedSelection, MarketKind } from './model'
import { priceOf, resultChances, shiftTowards } from './prices'
import { mix, randomFrom, type Random } from './random'

export const MINUTE = 60_000
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR
/** One tick of play: the feed moves live events every 2 s. */
export const TICK_MS = 2_000

/** Event state beside the public tree: the chances behind each market's prices. */
export interface EventModel {
  event: FeedEvent
  spec: SportSpec
  /** Chances per market id, parallel to its selections. */
  chances: Map<string, number[]>
  /** Ticks left of a suspension (after a score). */
  suspendedTicks: number
  /** Suspended by an operator (stays until lifted). */
  held: boolean
  /** Markets whose price an operator set: the random walk leaves them alone. */
  pinned: Set<string>
}

const CODES: Record<MarketKind, (draw: boolean) => string[]> = {
  main: (draw) => (draw ? ['1', 'X', '2'] : ['1', '2']),
  total: () => ['over', 'under'],
  'both-score': () => ['yes', 'no'],
  handicap: () => ['1', '2'],
}

function marketChances(kind: MarketKind, strength: number, draw: boolean, rng: Random): number[] {
  if (kind === 'main') return resultChances(strength, draw)
  if (kind === 'handicap') return [strength * 0.7, 1 - strength * 0.7]
  const p = 0.4 + rng.next() * 0.2
  return [p, 1 - p]
}

function buildMarkets(model: Omit<EventModel, 'event'> & { event: Omit<FeedEvent, 'markets'> & { markets: FeedMarket[] } }, strength: number, rng: Random): void {
  const { event, spec } = model
  for (const kind of spec.markets) {
    const id = `${event.id}-${kind}`
    const chances = marketChances(kind, strength, spec.draw, rng)
    const selections: FeedSelection[] = CODES[kind](spec.draw).map((code, i) => ({
      id: `${id}-${code.toLowerCase()}`,
      marketId: id,
      eventId: event.id,
      code,
      price: priceOf(chances[i]),
      status: 'OPEN',
    }))
    const line = kind === 'total' ? spec.totalLine : kind === 'handicap' ? -1.5 : undefined
    event.markets.push({ id, eventId: event.id, kind, ...(line === undefined ? {} : { line }), selections })
    model.chances.set(id, chances)
  }
}

/** Plays `fraction` of a match at random: the score it would have by then. */
export function simulateScore(spec: SportSpec, strength: number, fraction: number, rng: Random): [number, number] {
  const ticks = (spec.durationMinutes * MINUTE * fraction) / TICK_MS
  const mean = ticks * spec.scoring.rate
  const count = Math.max(0, Math.round(mean + Math.sqrt(mean) * rng.normal()))
  const score: [number, number] = [0, 0]
  for (let i = 0; i < Math.min(count, 400); i++) {
    const side = rng.chance(strength) ? 0 : 1
    score[side] += rng.pick(spec.scoring.points)
    if (spec.scoring.winAt !== undefined && score[side] >= spec.scoring.winAt) break
  }
  return score
}

export interface Fixture {
  spec: SportSpec
  league: string
  home: string
  away: string
  startsAt: number
  state: EventState
}

export function makeEvent(seed: number, treeId: number, fixture: Fixture, now: number): EventModel {
  const rng = randomFrom(mix(seed, treeId, 17))
  const strength = 0.25 + rng.next() * 0.5
  const { spec } = fixture
  const durationMs = spec.durationMinutes * MINUTE
  const event: FeedEvent = {
    id: `e${treeId}`,
    treeId,
    section: spec.section,
    sport: spec.kind,
    league: fixture.league,
    home: fixture.home,
    away: fixture.away,
    startsAt: fixture.startsAt,
    durationMs,
    state: fixture.state,
    score: [0, 0],
    markets: [],
    version: 1,
  }
  const model: EventModel = { event, spec, chances: new Map(), suspendedTicks: 0, held: false, pinned: new Set() }
  buildMarkets(model, strength, rng)
  if (fixture.state !== 'prematch') {
    const fraction = fixture.state === 'finished' ? 1 : Math.min(1, (now - fixture.startsAt) / durationMs)
    event.score = simulateScore(spec, strength, fraction, rng)
    // the side ahead is the favourite now: the main market's chances follow the score
    const main = event.markets[0]
    const lead = event.score[0] - event.score[1]
    let chances = model.chances.get(main.id)!
    for (let i = 0; i < Math.min(4, Math.abs(lead)); i++) chances = shiftTowards(chances, lead > 0 ? 'home' : 'away', 1.6)
    model.chances.set(main.id, chances)
    main.selections.forEach((selection, i) => (selection.price = priceOf(chances[i])))
  }
  return model
}

function shuffled<T>(list: readonly T[], rng: Random): T[] {
  const copy = [...list]
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1))
    ;[copy[i], copy[j]] = [copy[j], copy[i]]
  }
  return copy
}

function pairs(competitors: readonly string[], rng: Random): [string, string][] {
  const order = shuffled(competitors, rng)
  const result: [string, string][] = []
  for (let i = 0; i + 1 < order.length; i += 2) result.push([order[i], order[i + 1]])
  return result
}

/** The fixtures of every league: a live round (toto has none), a pre-match round and a results round. */
export function fixtures(seed: number, origin: number): Fixture[] {
  const list: Fixture[] = []
  SPORTS.forEach((spec, s) =>
    spec.leagues.forEach((league, l) => {
      const rng = randomFrom(mix(seed, s, l, 3))
      const durationMs = spec.durationMinutes * MINUTE
      const add = (home: string, away: string, startsAt: number, state: EventState) => list.push({ spec, league: league.name, home, away, startsAt, state })
      const live = pairs(league.competitors, rng)
      live.forEach(([home, away], i) => {
        if (spec.section === 'toto' || i >= Math.max(1, Math.ceil(live.length / 2))) return
        add(home, away, origin - Math.round(durationMs * (0.05 + rng.next() * 0.75) / MINUTE) * MINUTE, 'live')
      })
      for (const [home, away] of pairs(league.competitors, rng)) add(home, away, origin + (1 + rng.int(0, 70)) * HOUR + rng.int(0, 3) * 15 * MINUTE, 'prematch')
      for (const [home, away] of pairs(league.competitors, rng)) add(home, away, origin - rng.int(1, 4) * DAY - rng.int(0, 12) * HOUR, 'finished')
    }),
  )
  return list
}
