/**
 * The overlay merge (kernel/documents/overlay-merge.ts; docs/adr/0005-jurisdiction-overlays.md)
 * against hand-written expected documents: objects merge by key (null removes), lists of items with
 * an id (or a name) merge item by item, other lists are replaced, directives replace and reorder.
 */
import { describe, expect, it } from 'vitest'
import { listKeyOf, mergePatch, type PatchProblem } from '../../../kernel/documents/overlay-merge'

const menu = {
  kind: 'menu',
  id: 'left-menu',
  items: [
    { name: 'results', label: 'menu.results', icon: 'results' },
    { name: 'quiz', label: 'menu.quiz', when: 'flags.quiz' },
    { name: 'loyalty', label: 'menu.loyalty', loginOnly: true },
  ],
}

function merge(base: unknown, patch: unknown): { value: unknown; problems: PatchProblem[] } {
  const problems: PatchProblem[] = []
  return { value: mergePatch(base, patch, '', problems), problems }
}

describe('objects merge key by key (RFC 7396)', () => {
  it('a patch key replaces a value in its place; a new key goes after the shared ones; null removes a key', () => {
    const { value } = merge({ a: 1, b: { c: 2, d: 3 }, e: 'x' }, { b: { d: 4, f: 5 }, e: null, g: true })
    expect(JSON.stringify(value)).toBe(JSON.stringify({ a: 1, b: { c: 2, d: 4, f: 5 }, g: true }))
  })

  it('an object over a value that is not one is the object itself, without its nulls', () => {
    expect(merge({ a: 'text' }, { a: { key: 'k', values: null } }).value).toEqual({ a: { key: 'k' } })
  })

  it('{"$patch": "replace"} replaces an object whole instead of merging into it', () => {
    expect(merge({ a: { b: 1, c: 2 } }, { a: { $patch: 'replace', d: 3 } }).value).toEqual({ a: { d: 3 } })
  })

  it('never writes a __proto__ key, and says so', () => {
    const { value, problems } = merge({ a: 1 }, JSON.parse('{"__proto__": {"polluted": true}}'))
    expect(value).toEqual({ a: 1 })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(problems).toEqual([{ pointer: '/__proto__', message: 'the key __proto__ is not allowed' }])
  })
})

describe('lists of items with an id or a name merge item by item', () => {
  it('a menu list is keyed by name, a list of steps by id, a list of plain values by nothing', () => {
    expect(listKeyOf(menu.items)).toBe('name')
    expect(listKeyOf([{ id: 'account', name: 'x' }, { id: 'personal' }])).toBe('id')
    expect(listKeyOf(['email', 'password'])).toBeUndefined()
    expect(listKeyOf([{ name: 'a' }, { name: 'a' }])).toBeUndefined()
    expect(listKeyOf([{ type: 'text' }])).toBeUndefined()
  })

  it('a patch item changes the shared item of its name, in place, leaving the others as they are', () => {
    const { value } = merge(menu, { items: [{ name: 'loyalty', label: 'menu.loyalty.belarus' }] })
    expect(value).toEqual({
      ...menu,
      items: [menu.items[0], menu.items[1], { name: 'loyalty', label: 'menu.loyalty.belarus', loginOnly: true }],
    })
  })

  it('{"$patch": "delete"} removes an item; an unknown name adds one at the end', () => {
    const { value } = merge(menu, { items: [{ name: 'quiz', $patch: 'delete' }, { name: 'vip', label: 'menu.vip' }] })
    expect((value as typeof menu).items).toEqual([menu.items[0], menu.items[2], { name: 'vip', label: 'menu.vip' }])
  })

  it('a later shared change reaches the overlay: the shared list without quiz, merged with a patch of loyalty', () => {
    const shared = { ...menu, items: menu.items.filter((i) => i.name !== 'quiz') }
    const { value } = merge(shared, { items: [{ name: 'loyalty', label: 'menu.loyalty.belarus' }] })
    expect((value as typeof menu).items.map((i) => i.name)).toEqual(['results', 'loyalty'])
  })

  it('"$setElementOrder/items" puts the named items first in that order, the others after', () => {
    const { value } = merge(menu, { '$setElementOrder/items': ['loyalty', 'results'] })
    expect((value as typeof menu).items.map((i) => i.name)).toEqual(['loyalty', 'results', 'quiz'])
  })

  it('an order naming an item the shared list no longer has skips it (the review reports the conflict)', () => {
    const { value, problems } = merge(menu, { '$setElementOrder/items': ['gone', 'quiz'] })
    expect((value as typeof menu).items.map((i) => i.name)).toEqual(['quiz', 'results', 'loyalty'])
    expect(problems).toEqual([])
  })

  it('a list starting with {"$patch": "replace"} replaces the shared list whole', () => {
    const { value } = merge(menu, { items: [{ $patch: 'replace' }, { name: 'lobby', label: 'menu.lobby' }] })
    expect((value as typeof menu).items).toEqual([{ name: 'lobby', label: 'menu.lobby' }])
  })

  it('a patch item without the list key is a problem at its pointer, and the list is left as it was', () => {
    const { value, problems } = merge(menu, { items: [{ label: 'menu.nameless' }] })
    expect((value as typeof menu).items).toEqual(menu.items)
    expect(problems).toEqual([{ pointer: '/items/0', message: 'each item needs its "name": the shared list is merged by name' }])
  })
})

describe('other lists are replaced whole', () => {
  it('a required list (plain values) is the patch’s list', () => {
    expect(merge({ required: ['email', 'password', 'countryId'] }, { required: ['email', 'password'] }).value).toEqual({ required: ['email', 'password'] })
  })

  it('an action chain (items without ids) is the patch’s chain', () => {
    const base = { submit: [{ do: 'join.start', with: { variant: 'curacao' } }, { do: 'nav.go' }] }
    expect(merge(base, { submit: [{ do: 'join.start', with: { variant: 'spain' } }] }).value).toEqual({ submit: [{ do: 'join.start', with: { variant: 'spain' } }] })
  })

  it('an unknown $patch directive is a problem', () => {
    expect(merge({ a: { b: 1 } }, { a: { $patch: 'drop' } }).problems[0]).toMatchObject({ pointer: '/a/$patch' })
  })
})
