/**
 * The live demo feed: the event tree of `generate.ts`, moved on a schedule by an injected clock.
 * Every 2 s of clock time (a tick) pre-match events whose time has come go live, live events may
 * score (their markets suspend for two ticks, then reopen at new prices), prices walk, and events
 * whose playing time is over finish: their selections settle (WIN / LOSE). The rolling schedule
 * (./schedule.ts) then puts new fixtures on the line, so each section keeps its live and upcoming
 * events at any hour; the oldest results beyond RESULTS_KEPT per section are dropped. Nothing runs by itself: `advanceTo(now)` plays every tick up
 * to `now`, so tests move the clock and the server calls it from a timer.
 *
 * What other parts use (bet slip, cash-out, sockets): `selection(id)` for a price and status,
 * `subscribe(listener)` for every change, `settleEvent(id)` to finish an event now, and
 * `setPrice` / `hold` for operators and tests.
 *
 * The parts: the event tree (./tree.ts), a tick of the feed (./play.ts) and of one event
 * (./event-tick.ts), what happens to markets (./markets.ts), and the listeners (./listeners.ts).
 */
import type { EventState, EventUpdate, FeedEvent, FeedMarket, FeedSection, FeedSelection, SelectionChange } from './model'
import { HOUR, TICK_MS, fixtures } from './generate'
import { elapsedAt, eventUpdate, finishEvent } from './event-tick'
import { createFeedListeners, type FeedListener } from './listeners'
import { setStatus, settle } from './markets'
import { playTick, schedule, type PlayContext } from './play'
import { MIN_PRICE } from './prices'
import { mix, randomFrom } from './random'
import { countEvent, emptyCounts } from './schedule'
import { createEventTree, HOURS_IN_IDS, type EventTree, type SelectionEntry } from './tree'

export type { FeedListener } from './listeners'

export interface FeedOptions {
  seed?: number
  /** Clock (ms since epoch); the tree is laid out around its value at creation. */
  now: () => number
}

export interface SelectionView extends FeedSelection {
  marketKind: FeedMarket['kind']
  line?: number
  event: Pick<FeedEvent, 'id' | 'treeId' | 'section' | 'sport' | 'league' | 'home' | 'away' | 'state' | 'startsAt' | 'score'>
}

export interface ReplayOptions {
  everyTick?: boolean
  only?: ReadonlySet<string>
  maxTicks?: number
}

export interface Feed {
  readonly seed: number
  /** The start of the first tick (the creation time, to the hour). */
  readonly origin: number
  /**
   * Plays the ticks up to `now` (the clock's time when omitted). A clock far ahead plays only the
   * last hour of ticks, unless `everyTick` (a replay that must reach the same results); `only`
   * plays just those events (each event's draws depend on its own tree id and the tick alone, so
   * they end as in a full replay; events laid out later are not created); `maxTicks` bounds the
   * work of one call.
   */
  advanceTo(now?: number, options?: ReplayOptions): void
  /** Events of a section, by state; start time order (results newest first). */
  events(filter?: { section?: FeedSection; state?: EventState }): readonly FeedEvent[]
  event(id: string): FeedEvent | undefined
  selection(id: string): SelectionView | undefined
  /** Elapsed playing time of a live event (ms). */
  elapsed(event: FeedEvent): number
  subscribe(listener: FeedListener): () => void
  /** Resolves when the work listeners answered for the updates emitted so far has ended (the
   * development controls answer after it, so a settled event's bets are settled when they do). */
  idle(): Promise<void>
  /** Finishes an event now (with this score when given) and settles its selections. */
  settleEvent(id: string, score?: [number, number]): EventUpdate | undefined
  /** Sets one selection's price now (operator or test); the market's random walk stops. */
  setPrice(selectionId: string, price: number): EventUpdate | undefined
  /** Suspends (true) or reopens (false) every market of an event until changed again. */
  hold(eventId: string, held: boolean): EventUpdate | undefined
  /** Stops (true) or restarts (false) the schedule: while paused no tick plays (no goals, no price
   * walk, no finish), so a demo or a test sees exactly the prices it set; on restart the skipped
   * time is played as after any clock jump. Settling and setting prices still work. */
  pause(paused: boolean): void
}

/**
 * The start hour of the tree a selection id was laid out in, the latest such hour not after
 * `near` (a feed's origin): a bet placed before a restart in a later hour names an earlier tree.
 */
export function treeOriginOf(selectionId: string, near: number): number | undefined {
  const match = /^e(\d{4,12})-/.exec(selectionId)
  if (!match) return undefined
  const hour = Math.floor(Number(match[1]) / 1000)
  const nearHour = Math.floor(near / HOUR)
  return (nearHour - (((nearHour % HOURS_IN_IDS) - hour + HOURS_IN_IDS) % HOURS_IN_IDS)) * HOUR
}

/** A selection as other parts see it: its market's kind and line, and the event it belongs to. */
function view(entry: SelectionEntry): SelectionView {
  const { event } = entry.model
  return {
    ...entry.selection,
    marketKind: entry.market.kind,
    ...(entry.market.line === undefined ? {} : { line: entry.market.line }),
    event: { id: event.id, treeId: event.treeId, section: event.section, sport: event.sport, league: event.league, home: event.home, away: event.away, state: event.state, startsAt: event.startsAt, score: event.score },
  }
}

/** The tree laid out around its origin: finished events settled, and the line full from the first
 * minute (missing live events start as already under way). */
function layOut(context: PlayContext, origin: number): void {
  const { seed, tree } = context
  tree.lay(fixtures(seed, origin), origin)
  for (const model of tree.models.values()) if (model.event.state === 'finished') settle(model, [])
  const atStart = emptyCounts()
  for (const model of tree.models.values()) countEvent(atStart, model.event, origin)
  schedule(context, origin, atStart, true)
}

type OperatorControls = Pick<Feed, 'settleEvent' | 'setPrice' | 'hold'>

/** What operators and tests do to the feed now: finish an event, set a price, hold an event's markets. */
function operatorControls(context: PlayContext, now: () => number): OperatorControls {
  const { seed, tree, emit } = context
  const emitted = (result: EventUpdate) => {
    emit([result])
    return result
  }
  return {
    settleEvent(id, score) {
      const model = tree.models.get(id)
      if (!model || model.event.state === 'finished') return undefined
      return emitted(finishEvent(tree, model, now(), randomFrom(mix(seed, context.tick(), model.event.treeId, 99)), score))
    },
    setPrice(selectionId, price) {
      const entry = tree.selections.get(selectionId)
      if (!entry || entry.selection.status === 'SETTLED' || !(price >= MIN_PRICE)) return undefined
      const previous = entry.selection.price
      entry.selection.price = Math.round(price * 100) / 100
      entry.model.pinned.add(entry.market.id)
      const change: SelectionChange = { id: selectionId, marketId: entry.market.id, main: entry.market.kind === 'main', price: entry.selection.price, previous, status: entry.selection.status }
      return emitted(eventUpdate(entry.model, now(), [change]))
    },
    hold(eventId, held) {
      const model = tree.models.get(eventId)
      if (!model || model.event.state === 'finished') return undefined
      model.held = held
      const changes: SelectionChange[] = []
      setStatus(model, held ? 'SUSPENDED' : 'OPEN', changes)
      return emitted(eventUpdate(model, now(), changes))
    },
  }
}

export function createFeed(options: FeedOptions): Feed {
  const seed = options.seed ?? 14
  // Hour-aligned: a restart within the hour rebuilds the same tree. Tree ids carry the hour, so an
  // id never names two different matches across restarts (a bet keeps pointing at its match).
  const origin = Math.floor(options.now() / HOUR) * HOUR
  const tree: EventTree = createEventTree(seed, origin)
  const listeners = createFeedListeners()
  let tick = 0
  const context: PlayContext = { seed, tree, tick: () => tick, emit: listeners.emit }
  layOut(context, origin)

  let paused = false
  return {
    seed,
    origin,
    pause(value) {
      paused = value
    },
    advanceTo(now = options.now(), { everyTick = false, only, maxTicks = Infinity } = {}) {
      if (paused) return
      // a clock jumped far ahead plays only the last hour of ticks (starts and finishes go by the
      // clock, so nothing is missed but the price moves of the skipped time)
      const target = Math.min(Math.floor((now - origin) / TICK_MS), tick + maxTicks)
      if (!everyTick && target - tick > HOUR / TICK_MS) tick = target - HOUR / TICK_MS
      while (tick < target) {
        tick++
        playTick(context, origin + tick * TICK_MS, only)
      }
    },
    events: (filter) => tree.events(filter),
    event: (id) => tree.models.get(id)?.event,
    selection(id) {
      const entry = tree.selections.get(id)
      return entry && view(entry)
    },
    elapsed: (event) => elapsedAt(event, options.now()),
    subscribe: listeners.subscribe,
    idle: listeners.idle,
    ...operatorControls(context, options.now),
  }
}
