/**
 * Resolving a set's overlays (kernel/documents/overlay-set.ts) and writing an overlay from an edited
 * document (overlay-diff.ts): the served text is what a whole copy at that path would be; bases
 * are not served by themselves; what cannot be an overlay says why.
 */
import { describe, expect, it } from 'vitest'
import { overlayPatchOf } from '../../../kernel/documents/overlay-diff'
import { resolveOverlaySet } from '../../../kernel/documents/overlay-set'

const shared = { $schema: '../kinds/menu.schema.json', kind: 'menu', id: 'left-menu', items: [{ name: 'results', label: 'menu.results' }, { name: 'quiz', label: 'menu.quiz' }] }
const spain = { $schema: '../../../kinds/overlay.schema.json', $overlay: 'menus/left-menu.json', kind: 'menu', id: 'left-menu', items: [{ name: 'quiz', $patch: 'delete' }] }
const set = (files: Record<string, unknown>) => new Map(Object.entries(files).map(([file, doc]) => [file, typeof doc === 'string' ? doc : JSON.stringify(doc)]))

describe('a set with overlays resolves to what whole copies would serve', () => {
  it('the overlay file serves shared ⊕ overlay, with the $schema of a document at its path', () => {
    const resolved = resolveOverlaySet(set({ 'menus/left-menu.json': shared, 'jurisdictions/spain/menus/left-menu.json': spain }))
    expect(resolved.problems).toEqual([])
    expect(resolved.overlays.get('jurisdictions/spain/menus/left-menu.json')).toBe('menus/left-menu.json')
    expect(JSON.parse(resolved.texts.get('jurisdictions/spain/menus/left-menu.json')!)).toEqual({
      $schema: '../../../kinds/menu.schema.json',
      kind: 'menu',
      id: 'left-menu',
      items: [{ name: 'results', label: 'menu.results' }],
    })
  })

  it('a set without overlays passes through text for text', () => {
    const texts = set({ 'menus/left-menu.json': '{ "kind": "menu" }\n', 'popups/info.json': 'not json' })
    expect(resolveOverlaySet(texts).texts).toEqual(texts)
  })

  it('a base under bases/ is not served by itself; its overlays are', () => {
    const resolved = resolveOverlaySet(set({ 'bases/menus/left-menu.json': shared, 'jurisdictions/spain/menus/left-menu.json': { ...spain, $overlay: 'bases/menus/left-menu.json' } }))
    expect([...resolved.texts.keys()]).toEqual(['jurisdictions/spain/menus/left-menu.json'])
  })

  it.each([
    ['its shared document is gone', { 'jurisdictions/spain/menus/left-menu.json': spain }, /menus\/left-menu.json is not in the set/],
    ['it names another kind or id', { 'menus/left-menu.json': shared, 'jurisdictions/spain/menus/left-menu.json': { ...spain, id: 'other' } }, /kind and id/],
    ['it builds on another jurisdiction’s document', { 'jurisdictions/italy/menus/left-menu.json': shared, 'jurisdictions/spain/menus/left-menu.json': { ...spain, $overlay: 'jurisdictions/italy/menus/left-menu.json' } }, /is a jurisdiction’s document/],
    ['it is not in a jurisdiction’s folder', { 'menus/left-menu.json': shared, 'menus/other.json': spain }, /only a jurisdiction’s document/],
    ['it changes locales', { 'menus/left-menu.json': shared, 'jurisdictions/spain/menus/left-menu.json': { ...spain, locales: ['es'] } }, /locales or platforms/],
  ])('an overlay does not resolve when %s, and is not served', (_case, files, message) => {
    const resolved = resolveOverlaySet(set(files))
    expect(resolved.texts.has('jurisdictions/spain/menus/left-menu.json')).toBe(false)
    expect(resolved.problems.map((p) => p.message).join()).toMatch(message)
  })
})

describe('an edited document becomes the smallest overlay that gives it back exactly', () => {
  it('removing quiz and relabelling results is two patch items, keyed by name', () => {
    const edited = { ...shared, items: [{ name: 'results', label: 'menu.results.spain' }] }
    expect(overlayPatchOf(shared, edited)).toEqual({ ok: true, patch: { items: [{ name: 'results', label: 'menu.results.spain' }, { name: 'quiz', $patch: 'delete' }] } })
  })

  it('a reordered list is an element order', () => {
    const edited = { ...shared, items: [shared.items[1], shared.items[0]] }
    expect(overlayPatchOf(shared, edited)).toEqual({ ok: true, patch: { '$setElementOrder/items': ['quiz', 'results'] } })
  })

  it('a new key placed before a shared one replaces its object whole, so the key order is kept', () => {
    const base = { schema: { type: 'object', properties: { a: { type: 'string' } } } }
    const edited = { schema: { type: 'object', required: ['a'], properties: { a: { type: 'string' } } } }
    expect(overlayPatchOf(base, edited)).toEqual({ ok: true, patch: { schema: { $patch: 'replace', type: 'object', required: ['a'], properties: { a: { type: 'string' } } } } })
  })

  it('a null inside an object cannot be written by a merge patch: no overlay, and why', () => {
    const result = overlayPatchOf(shared, { ...shared, extra: { value: null } })
    expect(result.ok).toBe(false)
  })
})
