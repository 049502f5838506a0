/** The studio's "create a jurisdiction copy" (studio/copies.ts): where the copy lives and what it starts as. */
import { describe, expect, it } from 'vitest'
import { jurisdictionCopyFile, jurisdictionCopyText } from '../../../studio/copies'

describe('a jurisdiction copy of a shared document', () => {
  it("lives under jurisdictions/<id>/ at the shared document's path", () => {
    expect(jurisdictionCopyFile('menus/left-menu.json', 'spain')).toBe('jurisdictions/spain/menus/left-menu.json')
  })

  it('is not offered for a document that is already a jurisdiction copy, or for a bad jurisdiction id', () => {
    expect(jurisdictionCopyFile('jurisdictions/spain/menus/left-menu.json', 'italy')).toBeUndefined()
    expect(jurisdictionCopyFile('menus/left-menu.json', '../x')).toBeUndefined()
  })

  it('starts as the shared text, its $schema pointing at the kind schema from the deeper folder', () => {
    const text = jurisdictionCopyText(JSON.stringify({ $schema: '../kinds/menu.schema.json', kind: 'menu', id: 'left-menu', items: [] }), 'jurisdictions/spain/menus/left-menu.json')
    expect(JSON.parse(text)).toEqual({ $schema: '../../../kinds/menu.schema.json', kind: 'menu', id: 'left-menu', items: [] })
  })
})
