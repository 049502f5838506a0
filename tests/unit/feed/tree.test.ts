/**
 * The demo feed's event tree (server/feed/tree.ts): events listed in start order (results newest
 * first), filtered by section and state; tree ids carry the origin's hour; and pruning keeps only
 * the newest RESULTS_KEPT results of a section, with their selections, leaving other sections and
 * unfinished events alone.
 */
import { describe, expect, it } from 'vitest'
import { HOUR, fixtures } from '../../../server/feed/generate'
import { createEventTree, HOURS_IN_IDS, RESULTS_KEPT } from '../../../server/feed/tree'

const origin = Math.floor(Date.UTC(2026, 0, 15, 12, 30) / HOUR) * HOUR

function laidOut() {
  const tree = createEventTree(14, origin)
  tree.lay(fixtures(14, origin), origin)
  return tree
}

describe('event tree', () => {
  it("tree ids start at the origin's hour (modulo a million) times 1000, plus one", () => {
    const tree = laidOut()
    const first = Math.min(...[...tree.models.values()].map((m) => m.event.treeId))
    expect(first).toBe(((origin / HOUR) % HOURS_IN_IDS) * 1000 + 1)
  })

  it('lists events by start time (then tree id), results newest first, filtered by section and state', () => {
    const tree = laidOut()
    const all = [...tree.models.values()].map((m) => m.event)
    const sport = tree.events({ section: 'sport' })
    expect(sport.map((e) => e.id)).toEqual(all.filter((e) => e.section === 'sport').sort((a, b) => a.startsAt - b.startsAt || a.treeId - b.treeId).map((e) => e.id))
    for (const event of all.slice(0, 6)) event.state = 'finished'
    const finished = tree.events({ state: 'finished' })
    expect(finished.map((e) => e.id).sort()).toEqual(all.filter((e) => e.state === 'finished').map((e) => e.id).sort())
    expect(finished.length).toBeGreaterThanOrEqual(6)
    for (let i = 1; i < finished.length; i++) expect(finished[i - 1].startsAt).toBeGreaterThanOrEqual(finished[i].startsAt)
  })

  it("pruning keeps a section's newest RESULTS_KEPT results and their selections only", () => {
    const tree = createEventTree(14, origin)
    // enough fixtures for more results than are kept
    for (let hour = 0; tree.events({ section: 'sport' }).length <= RESULTS_KEPT + 5; hour++) tree.lay(fixtures(14, origin + hour * HOUR), origin)
    const sport = tree.events({ section: 'sport' })
    for (const event of sport) event.state = 'finished'
    const kept = [...sport].sort((a, b) => b.startsAt - a.startsAt).slice(0, RESULTS_KEPT)
    const dropped = sport.filter((e) => !kept.includes(e))
    const others = tree.events().filter((e) => e.section !== 'sport').length
    tree.prune('sport')
    expect(tree.events({ section: 'sport' }).map((e) => e.id).sort()).toEqual(kept.map((e) => e.id).sort())
    expect(tree.events().filter((e) => e.section !== 'sport')).toHaveLength(others)
    for (const event of dropped) for (const market of event.markets) for (const selection of market.selections) expect(tree.selections.has(selection.id)).toBe(false)
    for (const event of kept) expect(tree.selections.has(event.markets[0].selections[0].id)).toBe(true)
  })
})
