/**
 * One event's tick in the demo feed (spec §7 "Real-time"): a live event may score (its markets
 * suspend for two ticks, unless its sport's scoring does not suspend, then reopen), its prices walk
 * leaning back towards the score's chances, and it finishes when its playing time is over (or a
 * side reaches the sport's winning score): its selections settle. Every change is an EventUpdate
 * with the event's next version.
 */
import { finalScore, homeScores, inPlayChances, type EventModel } from './generate'
import { repriceMarket, setStatus, settle } from './markets'
import type { EventUpdate, FeedEvent, SelectionChange } from './model'
import { normalise, walk } from './prices'
import type { Random } from './random'
import type { EventTree } from './tree'

/** Elapsed playing time of an event at `at` (ms), from 0 before the start to its duration after it. */
export const elapsedAt = (event: FeedEvent, at: number): number => Math.max(0, Math.min(event.durationMs, at - event.startsAt))

/** The update of an event's change: its next version, the selections that changed and what else. */
export function eventUpdate(model: EventModel, at: number, changes: SelectionChange[], extra: Partial<EventUpdate> = {}): EventUpdate {
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

/** Where the main market's chances stand now by the score and the time left. */
const modelChances = (model: EventModel, at: number) => inPlayChances(model.spec, model.strength, model.event.score, elapsedAt(model.event, at) / model.event.durationMs)

function scoreTick(model: EventModel, at: number, rng: Random, changes: SelectionChange[]): boolean {
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
function mainWalk(model: EventModel, at: number, rng: Random): number[] {
  const target = modelChances(model, at)
  const leaning = normalise(model.chances.get(model.event.markets[0].id)!.map((c, i) => Math.exp(0.85 * Math.log(c) + 0.15 * Math.log(target[i]))))
  return walk(leaning, rng)
}

/** Finishes an event (with this score, or a final score drawn from where it stands) and settles it. */
export function finishEvent(tree: EventTree, model: EventModel, at: number, rng: Random, score?: [number, number]): EventUpdate {
  const { event, spec } = model
  event.score = score ?? finalScore(spec, model.strength, event.score, rng)
  const changes: SelectionChange[] = []
  settle(model, changes)
  tree.prune(event.section)
  return eventUpdate(model, at, changes, { state: 'finished', score: event.score, elapsedMs: event.durationMs })
}

/** A live event's tick: its finish, a score, the end of a suspension, a price walk, or nothing. */
export function liveTick(tree: EventTree, model: EventModel, at: number, rng: Random): EventUpdate | undefined {
  const { event, spec } = model
  const changes: SelectionChange[] = []
  const winAt = spec.scoring.winAt
  if (at >= event.startsAt + event.durationMs || (winAt !== undefined && Math.max(...event.score) >= winAt)) return finishEvent(tree, model, at, rng)
  const scored = scoreTick(model, at, rng, changes)
  if (!scored && model.suspendedTicks > 0 && --model.suspendedTicks === 0 && !model.held) setStatus(model, 'OPEN', changes)
  if (!scored && rng.chance(0.35)) {
    const market = rng.chance(0.7) ? event.markets[0] : rng.pick(event.markets)
    if (!model.pinned.has(market.id)) repriceMarket(model, market, market === event.markets[0] ? mainWalk(model, at, rng) : walk(model.chances.get(market.id)!, rng), changes)
  }
  if (!scored && changes.length === 0) return undefined
  return eventUpdate(model, at, changes, scored ? { score: event.score, elapsedMs: elapsedAt(event, at) } : {})
}
