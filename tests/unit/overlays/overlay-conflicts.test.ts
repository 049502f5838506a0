/**
 * Conflicts between a shared change and the overlays on it (tools/schema-lint/diff/overlay-conflicts.ts):
 * each case is a hand-written shared change and overlay with the one sentence the review must show.
 */
import { describe, expect, it } from 'vitest'
import { overlayConflicts } from '../../../tools/schema-lint/diff/overlay-conflicts'

const SHARED = 'menus/left-menu.json'
const SPAIN = 'jurisdictions/spain/menus/left-menu.json'
const shared = {
  kind: 'menu',
  id: 'left-menu',
  description: 'The left menu.',
  items: [
    { name: 'results', label: 'menu.results', icon: 'results' },
    { name: 'quiz', label: 'menu.quiz' },
    { name: 'loyalty', label: 'menu.loyalty', loginOnly: true },
  ],
}
const overlay = (patch: Record<string, unknown>) => JSON.stringify({ $overlay: SHARED, kind: 'menu', id: 'left-menu', description: 'Spain', ...patch })

function found(change: (doc: typeof shared) => void, patch: Record<string, unknown>) {
  const after = structuredClone(shared)
  change(after)
  const before = new Map([[SHARED, JSON.stringify(shared)], [SPAIN, overlay(patch)]])
  return overlayConflicts(before, new Map([...before, [SHARED, JSON.stringify(after)]]))
}
const conflicts = (change: (doc: typeof shared) => void, patch: Record<string, unknown>) => found(change, patch).map((c) => c.message.replace(` (shared document ${SHARED})`, ''))
const severities = (change: (doc: typeof shared) => void, patch: Record<string, unknown>) => found(change, patch).map((c) => c.severity)

describe('a shared change and an overlay that meet are reported; those that do not, are not', () => {
  it('both change the same label: a warning, the overlay keeps its own', () => {
    expect(conflicts((d) => (d.items[2].label = 'menu.bonuses'), { items: [{ name: 'loyalty', label: 'menu.loyalty.spain' }] })).toEqual([
      "Spain's overlay changes /items[loyalty]/label, which this shared change also changes: Spain keeps its own",
    ])
    expect(severities((d) => (d.items[2].label = 'menu.bonuses'), { items: [{ name: 'loyalty', label: 'menu.loyalty.spain' }] })).toEqual(['warning'])
  })

  it('the shared change removes an item the overlay changes: an error (the overlay would add back a partial item)', () => {
    expect(conflicts((d) => d.items.splice(1, 1), { items: [{ name: 'quiz', loginOnly: true }] })).toEqual([
      "this shared change removes /items[quiz], which Spain's overlay changes (/items[quiz]/loginOnly): the overlay would add it back in part; change the overlay in the same release",
    ])
    expect(severities((d) => d.items.splice(1, 1), { items: [{ name: 'quiz', loginOnly: true }] })).toEqual(['error'])
  })

  it('both remove the same item: nothing to report', () => {
    expect(conflicts((d) => d.items.splice(1, 1), { items: [{ name: 'quiz', $patch: 'delete' }] })).toEqual([])
  })

  it('the overlay removes an item the shared change changes: the change does not reach Spain', () => {
    expect(conflicts((d) => (d.items[1].label = 'menu.quiz.new'), { items: [{ name: 'quiz', $patch: 'delete' }] })).toEqual([
      "Spain's overlay removes /items[quiz], so this shared change to /items[quiz]/label does not reach Spain",
    ])
  })

  it('the overlay replaces the whole list: no shared change inside it reaches Spain', () => {
    expect(conflicts((d) => (d.items[0].icon = 'chart'), { items: [{ $patch: 'replace' }, { name: 'results', label: 'menu.results' }] })).toEqual([
      "Spain's overlay replaces /items, so this shared change to /items[results]/icon does not reach Spain",
    ])
  })

  it('the overlay orders the list and the shared change adds an item: it comes last in Spain', () => {
    expect(conflicts((d) => d.items.push({ name: 'vip', label: 'menu.vip' }), { '$setElementOrder/items': ['loyalty', 'results', 'quiz'] })).toEqual([
      "Spain's overlay sets the order of /items: the item vip this shared change adds comes last there",
    ])
  })

  it('changes to different places of one item, or to the descriptions, do not conflict', () => {
    expect(conflicts((d) => (d.items[0].icon = 'chart'), { items: [{ name: 'results', label: 'menu.results.spain' }] })).toEqual([])
    expect(conflicts((d) => (d.description = 'Changed.'), { items: [{ name: 'results', label: 'menu.results.spain' }] })).toEqual([])
  })

  it('a shared document that did not change has no conflict, whatever its overlays change', () => {
    expect(conflicts(() => undefined, { items: [{ name: 'quiz', $patch: 'delete' }] })).toEqual([])
  })
})
