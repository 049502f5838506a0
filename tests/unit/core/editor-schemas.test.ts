/**
 * The emitted editor schemas (schemas/kinds/*.schema.json, where every document's "$schema"
 * points) know the actions: an editor completes `do` from the registry's names and flags a `with`
 * parameter the action does not take or a literal of the wrong type, while bindings stay allowed.
 * Checked with ajv over the emitted files, as an editor would read them.
 */
import Ajv from 'ajv'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { actionDefinitions as definitions } from '../../../kernel/actions/index'

const ROOT = join(import.meta.dirname, '..', '..', '..')
const readJson = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'))

function editorValidator(kind: string) {
  const ajv = new Ajv({ strict: false, allErrors: true })
  return ajv.compile(readJson(`schemas/kinds/${kind}.schema.json`))
}

const popup = () => readJson('schemas/popups/info.json')

describe('the emitted editor schemas list every action with its params', () => {
  const screen = readJson('schemas/kinds/screen.schema.json')

  it('`do` offers every registered action name, each with its description', () => {
    const offered = screen.$defs.actionName.anyOf as { const: string; description: string }[]
    expect(offered.map((o) => o.const).sort()).toEqual(Object.keys(definitions).sort())
    expect(offered.every((o) => o.description.length > 0)).toBe(true)
    expect(offered.map((o) => o.const)).toContain('nav.go')
  })

  it('every shipped screen and popup document is valid against its editor schema', () => {
    for (const [folder, kind] of [['screens', 'screen'], ['popups', 'popup']] as const) {
      const validate = editorValidator(kind)
      for (const file of readdirSync(join(ROOT, 'schemas', folder)).filter((f) => f.endsWith('.json'))) {
        const valid = validate(readJson(`schemas/${folder}/${file}`))
        expect(valid, `${folder}/${file}: ${JSON.stringify(validate.errors?.slice(0, 2))}`).toBe(true)
      }
    }
  })

  it('a document with an unknown action name is rejected', () => {
    const validate = editorValidator('popup')
    const document = popup()
    document.buttons[0].actions = [{ do: 'account.explode' }]
    expect(validate(document)).toBe(false)
  })

  it('a document whose action has a parameter the action does not take is rejected', () => {
    const validate = editorValidator('popup')
    const document = popup()
    document.buttons[0].actions = [{ do: 'nav.go', with: { to: '/casino', colour: 'red' } }]
    expect(validate(document)).toBe(false)
    expect(JSON.stringify(validate.errors)).toContain('colour')
  })

  it('a literal of the wrong type or a missing required parameter is rejected; a binding is accepted', () => {
    const validate = editorValidator('popup')
    const document = popup()
    document.buttons[0].actions = [{ do: 'nav.go', with: { to: 42 } }]
    expect(validate(document)).toBe(false)
    document.buttons[0].actions = [{ do: 'nav.go', with: {} }]
    expect(validate(document)).toBe(false)
    document.buttons[0].actions = [{ do: 'nav.go', with: { to: { $: 'site.home' }, replace: true } }]
    expect(validate(document), JSON.stringify(validate.errors?.slice(0, 2))).toBe(true)
  })
})
