/**
 * The feed's data model: an event tree of sports → leagues → events → markets → selections, with
 * ids a bet slip can keep: event `e493817042`, market `e493817042-main`, selection
 * `e493817042-main-1` (the number is the tree id: the hour the feed started, then a counter). An event's
 * tree id (the number in its id) is what socket messages carry (spec §7: events route by treeId).
 */

export type FeedSection = 'sport' | 'esports' | 'toto'
export type EventState = 'prematch' | 'live' | 'finished'
export type SelectionStatus = 'OPEN' | 'SUSPENDED' | 'SETTLED'
export type SelectionResult = 'WIN' | 'LOSE' | 'VOID'
export type MarketKind = 'main' | 'total' | 'both-score' | 'handicap'

export interface FeedSelection {
  id: string
  marketId: string
  eventId: string
  /** What the selection backs: 1, X, 2, over, under, yes, no. */
  code: string
  /** Decimal price, two places. */
  price: number
  status: SelectionStatus
  result?: SelectionResult
}

export interface FeedMarket {
  id: string
  eventId: string
  kind: MarketKind
  /** The total or handicap line (2.5, -1.5 …). */
  line?: number
  selections: FeedSelection[]
}

export interface FeedEvent {
  id: string
  treeId: number
  section: FeedSection
  /** Spec §3 sport kind (Football, Tennis, e-Sports …). */
  sport: string
  /** "Country. League" or the league's own name; the country part is translated for display. */
  league: string
  home: string
  away: string
  startsAt: number
  /** Playing time this event lasts (ms); it finishes at startsAt + durationMs. */
  durationMs: number
  /** The regular playing time when added time follows it (football: 90 minutes, then 90+n′). */
  regularMs?: number
  state: EventState
  score: [number, number]
  markets: FeedMarket[]
  /** Bumped on every change; a client drops an update older than what it has. */
  version: number
}

/** One event's change in one tick: only what moved. */
export interface EventUpdate {
  eventId: string
  treeId: number
  version: number
  at: number
  state?: EventState
  score?: [number, number]
  /** Elapsed playing time (ms) for the clock shown on live events. */
  elapsedMs?: number
  selections?: SelectionChange[]
}

export interface SelectionChange {
  id: string
  marketId: string
  /** The market is the event's main one (SHORT subscribers get only these). */
  main: boolean
  price: number
  previous: number
  status: SelectionStatus
  result?: SelectionResult
}
