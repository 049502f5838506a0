/**
 * One tick of the whole demo feed (every TICK_MS of clock time): pre-match events whose time has
 * come go live, live events play their tick (./event-tick.ts), a pre-match price moves one tick in
 * a hundred, and the rolling schedule (./schedule.ts) puts each section's missing fixtures on the
 * line. Each event's draws come from (seed, tick, its tree id) alone, so a replay of some events
 * ends as a full replay does.
 */
import type { EventModel } from './generate'
import { elapsedAt, eventUpdate, liveTick } from './event-tick'
import { repriceMarket } from './markets'
import type { EventUpdate, FeedSection, SelectionChange } from './model'
import { walk } from './prices'
import { firstDraw, mix, randomFrom } from './random'
import { countEvent, emptyCounts, fixturesNeeded, isShort, type SectionCounts } from './schedule'
import type { EventTree } from './tree'

export interface PlayContext {
  seed: number
  tree: EventTree
  /** The tick being played (the feed's count of ticks since its origin). */
  tick(): number
  emit(updates: EventUpdate[]): void
}

/** The rolling schedule: each section's missing fixtures, drawn from (seed, tick). */
export function schedule({ seed, tree, tick }: PlayContext, at: number, counts: Record<FeedSection, SectionCounts>, underWay = false): void {
  if (!(Object.keys(counts) as FeedSection[]).some((section) => isShort(section, counts[section]))) return
  const events = [...tree.models.values()].map((m) => m.event)
  const rng = randomFrom(mix(seed, tick(), 0x5c4ed))
  for (const section of Object.keys(counts) as FeedSection[]) tree.lay(fixturesNeeded(section, counts[section], events, at, rng, underWay), at)
}

/** One event's part of a tick, or undefined when nothing changed. */
function eventTick(tree: EventTree, model: EventModel, at: number, draw: number): EventUpdate | undefined {
  const { event } = model
  if (event.state === 'prematch' && at >= event.startsAt) {
    event.state = 'live'
    return eventUpdate(model, at, [], { state: 'live', score: event.score, elapsedMs: elapsedAt(event, at) })
  }
  if (event.state === 'live') return liveTick(tree, model, at, randomFrom(draw))
  // a pre-match price moves one tick in a hundred: the generator is made only then
  if (event.state === 'prematch' && firstDraw(draw) < 0.01 && !model.pinned.has(event.markets[0].id)) {
    const rng = randomFrom(draw)
    rng.next()
    const changes: SelectionChange[] = []
    repriceMarket(model, event.markets[0], walk(model.chances.get(event.markets[0].id)!, rng, 0.03), changes)
    if (changes.length) return eventUpdate(model, at, changes)
  }
  return undefined
}

/** Plays the tick at `at` (only these events when `only` is given) and emits its updates. */
export function playTick(context: PlayContext, at: number, only?: ReadonlySet<string>): void {
  const { seed, tree, tick } = context
  const updates: EventUpdate[] = []
  const counts = emptyCounts()
  for (const model of only ? [...only].flatMap((id) => tree.models.get(id) ?? []) : [...tree.models.values()]) {
    const change = eventTick(tree, model, at, mix(seed, tick(), model.event.treeId))
    if (change) updates.push(change)
    countEvent(counts, model.event, at)
  }
  // events laid out later are not created in a replay of some matches only
  if (!only) schedule(context, at, counts)
  context.emit(updates)
}
