/**
 * The actions have one source (issue 17): kernel/actions/. The registry's handlers,
 * the lint core and the editor schemas are derived from it; this test fails when a definition has
 * no handler or a handler no definition, so the two cannot drift apart.
 */
import { describe, expect, it } from 'vitest'
import { actionDefinitions } from '../../../kernel/actions/index'
import { actionRegistry, registerAllActions } from '../../../engine/actions/index'
import { formActions } from '../../../engine/renderers/form/actions'

// the page's registry, filled as the browser runtime fills it (nothing registers by being imported)
registerAllActions()

const defined = Object.keys(actionDefinitions).sort()
const implemented = [...new Set([...actionRegistry.keys(), ...formActions.map((a) => a.name)])].sort()

describe('every action is defined once, as data, and implemented by a handler', () => {
  it('every definition has a handler (registered, or a form action)', () => {
    expect(defined.filter((name) => !implemented.includes(name))).toEqual([])
  })

  it('every handler implements a definition', () => {
    expect(implemented.filter((name) => !defined.includes(name))).toEqual([])
  })

  it("a registered action carries its definition's description and params schema", () => {
    for (const action of [...actionRegistry.values(), ...formActions]) {
      const definition = actionDefinitions[action.name as keyof typeof actionDefinitions]
      expect(action.params, action.name).toBe(definition.params)
      expect(action.description, action.name).toBe(definition.description)
    }
  })
})
