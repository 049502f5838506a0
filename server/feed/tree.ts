/**
 * The demo feed's event tree: its events (with their models) by id and every selection by id, laid
 * out with tree ids that carry the hour of the tree's origin (so an id never names two different
 * matches across restarts), and pruned of the oldest results beyond RESULTS_KEPT per section.
 */
import { HOUR, makeEvent, type EventModel, type Fixture } from './generate'
import type { EventState, FeedEvent, FeedMarket, FeedSection, FeedSelection } from './model'

/** Results kept per section: older ones leave the tree. */
export const RESULTS_KEPT = 40
/** Hours are numbered modulo a million in tree ids (`((origin / HOUR) % 1_000_000) * 1000 + n`). */
export const HOURS_IN_IDS = 1_000_000

export interface SelectionEntry {
  model: EventModel
  market: FeedMarket
  selection: FeedSelection
}

export type EventTree = ReturnType<typeof createEventTree>

export function createEventTree(seed: number, origin: number) {
  const models = new Map<string, EventModel>()
  const selections = new Map<string, SelectionEntry>()
  let nextTreeId = ((origin / HOUR) % HOURS_IN_IDS) * 1000 + 1
  const add = (model: EventModel) => {
    models.set(model.event.id, model)
    for (const market of model.event.markets) for (const selection of market.selections) selections.set(selection.id, { model, market, selection })
  }
  return {
    models,
    selections,
    /** Puts fixtures on the line, each with the next tree id. */
    lay(list: Fixture[], at: number) {
      list.forEach((fixture) => add(makeEvent(seed, nextTreeId++, fixture, at)))
    },
    /** Results are kept for a while (RESULTS_KEPT per section): older ones leave the tree. */
    prune(section: FeedSection) {
      const finished = [...models.values()].filter((m) => m.event.state === 'finished' && m.event.section === section)
      finished.sort((a, b) => b.event.startsAt - a.event.startsAt)
      for (const old of finished.slice(RESULTS_KEPT)) {
        models.delete(old.event.id)
        for (const market of old.event.markets) for (const s of market.selections) selections.delete(s.id)
      }
    },
    /** Events of a section, by state; start time order (results newest first). */
    events(filter: { section?: FeedSection; state?: EventState } = {}): FeedEvent[] {
      const list = [...models.values()].map((m) => m.event).filter((e) => (!filter.section || e.section === filter.section) && (!filter.state || e.state === filter.state))
      return filter.state === 'finished' ? list.sort((a, b) => b.startsAt - a.startsAt) : list.sort((a, b) => a.startsAt - b.startsAt || a.treeId - b.treeId)
    },
  }
}
