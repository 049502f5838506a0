/** The studio's "create a jurisdiction's overlay" (studio/copies.ts): where it lives and what it starts as. */
import { describe, expect, it } from 'vitest'
import { resolveOverlaySet } from '../../../kernel/documents/overlay-set'
import { jurisdictionCopyFile, jurisdictionOverlayText } from '../../../studio/copies'

describe("a jurisdiction's overlay of a shared document", () => {
  it("lives under jurisdictions/<id>/ at the shared document's path (a base's without bases/)", () => {
    expect(jurisdictionCopyFile('menus/left-menu.json', 'spain')).toBe('jurisdictions/spain/menus/left-menu.json')
    expect(jurisdictionCopyFile('bases/flows/signup-email.json', 'russia')).toBe('jurisdictions/russia/flows/signup-email.json')
  })

  it('is not offered for a document that is already a jurisdiction’s, or for a bad jurisdiction id', () => {
    expect(jurisdictionCopyFile('jurisdictions/spain/menus/left-menu.json', 'italy')).toBeUndefined()
    expect(jurisdictionCopyFile('menus/left-menu.json', '../x')).toBeUndefined()
  })

  it('starts as an overlay that changes nothing: the site is served the shared document, with its own $schema', () => {
    const shared = { $schema: '../kinds/menu.schema.json', kind: 'menu', id: 'left-menu', items: [{ name: 'quiz', label: 'menu.quiz' }] }
    const file = 'jurisdictions/spain/menus/left-menu.json'
    const text = jurisdictionOverlayText({ file: 'menus/left-menu.json', kind: 'menu', id: 'left-menu' }, file)
    expect(JSON.parse(text)).toEqual({ $schema: '../../../kinds/overlay.schema.json', $overlay: 'menus/left-menu.json', kind: 'menu', id: 'left-menu' })
    const served = resolveOverlaySet(new Map([['menus/left-menu.json', JSON.stringify(shared)], [file, text]])).texts.get(file)!
    expect(JSON.parse(served)).toEqual({ ...shared, $schema: '../../../kinds/menu.schema.json' })
  })
})
