/**
 * Builds the demo event tree from a seed and a start time: per league, one round of live events
 * already under way, one round of pre-match events over the next three days and one round of
 * results from the last days. Everything drawn comes from `randomFrom(mix(seed, …))`, so one seed
 * and one start time always give the same tree.
 */
import { SPORTS, type SportSpec } from './catalogue'
import type { EventState, FeedEvent, FeedMarket, FeedSelection, MarketKind } from './model'
import { normalise, priceOf } from './prices'
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
  /** The home side's strength (0–1), fixed for the match: who scores is drawn from it. */
  strength: number
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

function marketChances(spec: SportSpec, kind: MarketKind, strength: number, rng: Random): number[] {
  if (kind === 'main') return inPlayChances(spec, strength, [0, 0], 0)
  if (kind === 'handicap') return [strength * 0.7, 1 - strength * 0.7]
  const p = 0.4 + rng.next() * 0.2
  return [p, 1 - p]
}

function buildMarkets(model: Omit<EventModel, 'event'> & { event: Omit<FeedEvent, 'markets'> & { markets: FeedMarket[] } }, strength: number, rng: Random): void {
  const { event, spec } = model
  for (const kind of spec.markets) {
    const id = `${event.id}-${kind}`
    const chances = marketChances(spec, kind, strength, rng)
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

/** The home side's share of the scores: its strength, narrowed by the sport's spread. */
export const scoreShare = (spec: SportSpec, strength: number): number => 0.5 + (strength - 0.5) * (spec.scoring.spread ?? 1)

/** Whether the home side makes the next score: its share, less the sport's catch-up on its lead. */
export function homeScores(spec: SportSpec, strength: number, score: readonly [number, number], rng: Random): boolean {
  const chance = scoreShare(spec, strength) - (score[0] - score[1]) * (spec.scoring.catchUp ?? 0)
  return rng.chance(Math.min(0.9, Math.max(0.1, chance)))
}

/** Plays `fraction` of a match at random: the score it would have by then. */
export function simulateScore(spec: SportSpec, strength: number, fraction: number, rng: Random): [number, number] {
  const ticks = (spec.durationMinutes * MINUTE * fraction) / TICK_MS
  const mean = ticks * spec.scoring.rate
  const count = Math.max(0, Math.round(mean + Math.sqrt(mean) * rng.normal()))
  const score: [number, number] = [0, 0]
  for (let i = 0; i < Math.min(count, 400); i++) {
    const side = homeScores(spec, strength, score, rng) ? 0 : 1
    score[side] += rng.pick(spec.scoring.points)
    if (spec.scoring.winAt !== undefined && score[side] >= spec.scoring.winAt) break
  }
  return score
}

/**
 * The final score from the score at the whistle: a match of sets is played out to `winAt` (a
 * tennis match never ends 1:0), a sport without draws breaks a tie (overtime, a deciding point).
 */
export function finalScore(spec: SportSpec, strength: number, score: [number, number], rng: Random): [number, number] {
  const final: [number, number] = [...score]
  const share = scoreShare(spec, strength)
  const { winAt } = spec.scoring
  if (winAt !== undefined) {
    while (Math.max(...final) < winAt) final[rng.chance(share) ? 0 : 1]++
    if (final[0] >= winAt && final[1] >= winAt) final[final[0] > final[1] ? 1 : 0] = winAt - 1
    return final
  }
  if (!spec.draw && final[0] === final[1]) final[rng.chance(share) ? 0 : 1] += rng.pick(spec.scoring.points)
  return final
}

/** The standard normal distribution function (Abramowitz–Stegun 26.2.17, error under 1e-7). */
function normalCdf(z: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(z))
  const d = 0.3989423 * Math.exp((-z * z) / 2)
  const p = d * t * (0.3193815 + t * (-0.3565638 + t * (1.781478 + t * (-1.821256 + t * 1.330274))))
  return z > 0 ? 1 - p : p
}

/**
 * The main market's chances in play, from the score and the time left: the lead plus the scores
 * still expected (the favourite's share of them) against their spread. A two-goal lead in the
 * 85th minute is nearly certain, the same lead in basketball's first quarter is not.
 */
export function inPlayChances(spec: SportSpec, strength: number, score: [number, number], fraction: number): number[] {
  const points = spec.scoring.points
  const meanPoints = points.reduce((a, b) => a + b, 0) / points.length
  const left = (Math.max(0, 1 - fraction) * spec.durationMinutes * MINUTE) / TICK_MS * spec.scoring.rate
  const share = scoreShare(spec, strength)
  const expected = score[0] - score[1] + (2 * share - 1) * left * meanPoints
  const spread = Math.sqrt(left) * meanPoints + 0.35
  if (!spec.draw) return normalise([normalCdf(expected / spread), 1 - normalCdf(expected / spread)])
  const home = normalCdf((expected - 0.5) / spread)
  const away = 1 - normalCdf((expected + 0.5) / spread)
  return normalise([home, Math.max(0, 1 - home - away), away])
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
  const regularMs = spec.durationMinutes * MINUTE
  const added = spec.addedMinutes ? rng.int(spec.addedMinutes[0], spec.addedMinutes[1]) : 0
  const durationMs = regularMs + added * MINUTE
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
    ...(added ? { regularMs } : {}),
    state: fixture.state,
    score: [0, 0],
    markets: [],
    version: 1,
  }
  const model: EventModel = { event, spec, strength, chances: new Map(), suspendedTicks: 0, held: false, pinned: new Set() }
  buildMarkets(model, strength, rng)
  if (fixture.state !== 'prematch') {
    const fraction = fixture.state === 'finished' ? 1 : Math.min(1, (now - fixture.startsAt) / durationMs)
    event.score = simulateScore(spec, strength, fraction, rng)
    if (fixture.state === 'finished') event.score = finalScore(spec, strength, event.score, rng)
    // the main market's chances follow the score and the time left
    const main = event.markets[0]
    const chances = inPlayChances(spec, strength, event.score, fraction)
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
