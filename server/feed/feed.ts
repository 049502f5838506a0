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
 */
import type { EventState, EventUpdate, FeedEvent, FeedMarket, FeedSection, FeedSelection, SelectionChange, SelectionResult } from './model'
import { HOUR, TICK_MS, finalScore, fixtures, homeScores, inPlayChances, makeEvent, type EventModel, type Fixture } from './generate'
import { MIN_PRICE, normalise, priceOf, walk } from './prices'
import { firstDraw, mix, randomFrom, type Random } from './random'
import { countEvent, emptyCounts, fixturesNeeded, isShort, type SectionCounts } from './schedule'

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

/** A listener may answer a promise of the work the updates started (see Feed.idle); any other answer is ignored. */
export type FeedListener = (updates: EventUpdate[]) => unknown

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

const RESULTS_KEPT = 40

/** Walks one market (or the main one after a score) and records the selections that moved. */
function repriceMarket(model: EventModel, market: FeedMarket, chances: number[], changes: SelectionChange[]): void {
  model.chances.set(market.id, chances)
  market.selections.forEach((selection, i) => {
    const price = priceOf(chances[i])
    if (price === selection.price) return
    changes.push({ id: selection.id, marketId: market.id, main: market.kind === 'main', price, previous: selection.price, status: selection.status })
    selection.price = price
  })
}

function setStatus(model: EventModel, status: 'OPEN' | 'SUSPENDED', changes: SelectionChange[]): void {
  for (const market of model.event.markets)
    for (const selection of market.selections) {
      if (selection.status === status || selection.status === 'SETTLED') continue
      selection.status = status
      changes.push({ id: selection.id, marketId: market.id, main: market.kind === 'main', price: selection.price, previous: selection.price, status })
    }
}

function outcome(market: FeedMarket, code: string, [home, away]: [number, number]): SelectionResult {
  switch (market.kind) {
    case 'main':
      return code === (home > away ? '1' : home < away ? '2' : 'X') ? 'WIN' : 'LOSE'
    case 'total':
      return (home + away > (market.line ?? 0)) === (code === 'over') ? 'WIN' : 'LOSE'
    case 'both-score':
      return (home > 0 && away > 0) === (code === 'yes') ? 'WIN' : 'LOSE'
    case 'handicap':
      return (home + (market.line ?? 0) > away) === (code === '1') ? 'WIN' : 'LOSE'
  }
}

function settle(model: EventModel, changes: SelectionChange[]): void {
  model.event.state = 'finished'
  for (const market of model.event.markets)
    for (const selection of market.selections) {
      selection.status = 'SETTLED'
      selection.result = outcome(market, selection.code, model.event.score)
      changes.push({ id: selection.id, marketId: market.id, main: market.kind === 'main', price: selection.price, previous: selection.price, status: 'SETTLED', result: selection.result })
    }
}

/** Hours are numbered modulo a million in tree ids (`((origin / HOUR) % 1_000_000) * 1000 + n`). */
const HOURS_IN_IDS = 1_000_000

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

export function createFeed(options: FeedOptions): Feed {
  const seed = options.seed ?? 14
  // Hour-aligned: a restart within the hour rebuilds the same tree. Tree ids carry the hour, so an
  // id never names two different matches across restarts (a bet keeps pointing at its match).
  const origin = Math.floor(options.now() / HOUR) * HOUR
  const models = new Map<string, EventModel>()
  const selections = new Map<string, { model: EventModel; market: FeedMarket; selection: FeedSelection }>()
  const listeners = new Set<FeedListener>()
  let nextTreeId = ((origin / HOUR) % HOURS_IN_IDS) * 1000 + 1
  let tick = 0

  const add = (model: EventModel) => {
    models.set(model.event.id, model)
    for (const market of model.event.markets) for (const selection of market.selections) selections.set(selection.id, { model, market, selection })
  }
  const lay = (list: Fixture[], at: number) => list.forEach((fixture) => add(makeEvent(seed, nextTreeId++, fixture, at)))
  lay(fixtures(seed, origin), origin)
  for (const model of models.values()) if (model.event.state === 'finished') settle(model, [])

  const working = new Set<Promise<void>>()
  const emit = (updates: EventUpdate[]) => {
    if (updates.length === 0) return
    for (const listener of listeners)
      try {
        const work = listener(updates)
        if (work instanceof Promise) {
          // a failing listener must not stop the feed or the other listeners (nor end the process)
          const tracked: Promise<void> = work.catch(() => undefined).finally(() => working.delete(tracked))
          working.add(tracked)
        }
      } catch {
        // a failing listener must not stop the feed or the other listeners
      }
  }

  const elapsed = (event: FeedEvent, at = options.now()) => Math.max(0, Math.min(event.durationMs, at - event.startsAt))

  const update = (model: EventModel, at: number, changes: SelectionChange[], extra: Partial<EventUpdate> = {}): EventUpdate => {
    model.event.version++
    return {
      eventId: model.event.id,
      treeId: model.event.treeId,
      version: model.event.version,
      at,
      ...(changes.length ? { selections: changes } : {}),
      ...extra,
    }
  }

  /** Results are kept for a while (RESULTS_KEPT per section): older ones leave the tree. */
  const prune = (section: FeedSection) => {
    const finished = [...models.values()].filter((m) => m.event.state === 'finished' && m.event.section === section)
    finished.sort((a, b) => b.event.startsAt - a.event.startsAt)
    for (const old of finished.slice(RESULTS_KEPT)) {
      models.delete(old.event.id)
      for (const market of old.event.markets) for (const s of market.selections) selections.delete(s.id)
    }
  }

  /** The rolling schedule: each section's missing fixtures, drawn from (seed, tick). */
  const schedule = (at: number, counts: Record<FeedSection, SectionCounts>, underWay = false) => {
    if (!(Object.keys(counts) as FeedSection[]).some((section) => isShort(section, counts[section]))) return
    const events = [...models.values()].map((m) => m.event)
    const rng = randomFrom(mix(seed, tick, 0x5c4ed))
    for (const section of Object.keys(counts) as FeedSection[]) lay(fixturesNeeded(section, counts[section], events, at, rng, underWay), at)
  }

  /** Where the main market's chances stand now by the score and the time left. */
  const modelChances = (model: EventModel, at: number) => inPlayChances(model.spec, model.strength, model.event.score, elapsed(model.event, at) / model.event.durationMs)

  const scoreTick = (model: EventModel, at: number, rng: Random, changes: SelectionChange[]): boolean => {
    const { event, spec } = model
    if (!rng.chance(spec.scoring.rate)) return false
    const main = event.markets[0]
    const side = homeScores(spec, model.strength, event.score, rng) ? 0 : 1
    event.score = [...event.score] as [number, number]
    event.score[side] += rng.pick(spec.scoring.points)
    if (!model.pinned.has(main.id)) repriceMarket(model, main, modelChances(model, at), changes)
    if (spec.scoring.suspends === false) return true
    model.suspendedTicks = 2
    setStatus(model, 'SUSPENDED', changes)
    return true
  }

  /** A price walk on the main market that leans back towards the score's chances (no drift to 1.01). */
  const mainWalk = (model: EventModel, at: number, rng: Random): number[] => {
    const target = modelChances(model, at)
    const leaning = normalise(model.chances.get(model.event.markets[0].id)!.map((c, i) => Math.exp(0.85 * Math.log(c) + 0.15 * Math.log(target[i]))))
    return walk(leaning, rng)
  }

  const liveTick = (model: EventModel, at: number, rng: Random): EventUpdate | undefined => {
    const { event, spec } = model
    const changes: SelectionChange[] = []
    const winAt = spec.scoring.winAt
    if (at >= event.startsAt + event.durationMs || (winAt !== undefined && Math.max(...event.score) >= winAt)) return finish(model, at, rng)
    const scored = scoreTick(model, at, rng, changes)
    if (!scored && model.suspendedTicks > 0 && --model.suspendedTicks === 0 && !model.held) setStatus(model, 'OPEN', changes)
    if (!scored && rng.chance(0.35)) {
      const market = rng.chance(0.7) ? event.markets[0] : rng.pick(event.markets)
      if (!model.pinned.has(market.id)) repriceMarket(model, market, market === event.markets[0] ? mainWalk(model, at, rng) : walk(model.chances.get(market.id)!, rng), changes)
    }
    if (!scored && changes.length === 0) return undefined
    return update(model, at, changes, scored ? { score: event.score, elapsedMs: elapsed(event, at) } : {})
  }

  const finish = (model: EventModel, at: number, rng: Random, score?: [number, number]): EventUpdate => {
    const { event, spec } = model
    event.score = score ?? finalScore(spec, model.strength, event.score, rng)
    const changes: SelectionChange[] = []
    settle(model, changes)
    prune(event.section)
    return update(model, at, changes, { state: 'finished', score: event.score, elapsedMs: event.durationMs })
  }

  const playTick = (at: number, only?: ReadonlySet<string>) => {
    const updates: EventUpdate[] = []
    const counts = emptyCounts()
    for (const model of only ? [...only].flatMap((id) => models.get(id) ?? []) : [...models.values()]) {
      const { event } = model
      const draw = mix(seed, tick, event.treeId)
      if (event.state === 'prematch' && at >= event.startsAt) {
        event.state = 'live'
        updates.push(update(model, at, [], { state: 'live', score: event.score, elapsedMs: elapsed(event, at) }))
      } else if (event.state === 'live') {
        const change = liveTick(model, at, randomFrom(draw))
        if (change) updates.push(change)
        // a pre-match price moves one tick in a hundred: the generator is made only then
      } else if (event.state === 'prematch' && firstDraw(draw) < 0.01 && !model.pinned.has(event.markets[0].id)) {
        const rng = randomFrom(draw)
        rng.next()
        const changes: SelectionChange[] = []
        repriceMarket(model, event.markets[0], walk(model.chances.get(event.markets[0].id)!, rng, 0.03), changes)
        if (changes.length) updates.push(update(model, at, changes))
      }
      countEvent(counts, event, at)
    }
    // events laid out later are not created in a replay of some matches only
    if (!only) schedule(at, counts)
    emit(updates)
  }

  const view = (entry: { model: EventModel; market: FeedMarket; selection: FeedSelection }): SelectionView => {
    const { event } = entry.model
    return {
      ...entry.selection,
      marketKind: entry.market.kind,
      ...(entry.market.line === undefined ? {} : { line: entry.market.line }),
      event: { id: event.id, treeId: event.treeId, section: event.section, sport: event.sport, league: event.league, home: event.home, away: event.away, state: event.state, startsAt: event.startsAt, score: event.score },
    }
  }

  // the line is full from the first minute: missing live events start as already under way
  const atStart = emptyCounts()
  for (const model of models.values()) countEvent(atStart, model.event, origin)
  schedule(origin, atStart, true)

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
        playTick(origin + tick * TICK_MS, only)
      }
    },
    events(filter = {}) {
      const list = [...models.values()]
        .map((m) => m.event)
        .filter((e) => (!filter.section || e.section === filter.section) && (!filter.state || e.state === filter.state))
      return filter.state === 'finished' ? list.sort((a, b) => b.startsAt - a.startsAt) : list.sort((a, b) => a.startsAt - b.startsAt || a.treeId - b.treeId)
    },
    event: (id) => models.get(id)?.event,
    selection(id) {
      const entry = selections.get(id)
      return entry && view(entry)
    },
    elapsed: (event) => elapsed(event),
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async idle() {
      while (working.size) await Promise.all(working)
    },
    settleEvent(id, score) {
      const model = models.get(id)
      if (!model || model.event.state === 'finished') return undefined
      const result = finish(model, options.now(), randomFrom(mix(seed, tick, model.event.treeId, 99)), score)
      emit([result])
      return result
    },
    setPrice(selectionId, price) {
      const entry = selections.get(selectionId)
      if (!entry || entry.selection.status === 'SETTLED' || !(price >= MIN_PRICE)) return undefined
      const previous = entry.selection.price
      entry.selection.price = Math.round(price * 100) / 100
      entry.model.pinned.add(entry.market.id)
      const change: SelectionChange = { id: selectionId, marketId: entry.market.id, main: entry.market.kind === 'main', price: entry.selection.price, previous, status: entry.selection.status }
      const result = update(entry.model, options.now(), [change])
      emit([result])
      return result
    },
    hold(eventId, held) {
      const model = models.get(eventId)
      if (!model || model.event.state === 'finished') return undefined
      model.held = held
      const changes: SelectionChange[] = []
      setStatus(model, held ? 'SUSPENDED' : 'OPEN', changes)
      const result = update(model, options.now(), changes)
      emit([result])
      return result
    },
  }
}
