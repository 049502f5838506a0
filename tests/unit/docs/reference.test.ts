/**
 * The documents reference (docs/reference/documents.md, `npm run docs:reference`) is generated from
 * the kinds' schemas and the action definitions: it names every document kind, node kind and
 * action with each of its fields, its examples are the real values at the file and JSON pointer it
 * cites, and the checked-in file is what the generator writes now (stale = failing).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { actionDefinitions } from '../../../kernel/actions'
import { DOCUMENT_KINDS, NODE_KINDS } from '../../../kernel/documents/kinds'
import { shorten } from '../../../tools/docs/examples'
import { buildReference, REFERENCE_FILE } from '../../../tools/docs-reference'

const ROOT = join(import.meta.dirname, '..', '..', '..')
const reference = buildReference(ROOT)

/** The text of one `### <heading>` section. */
function section(heading: string): string {
  const start = reference.indexOf(`\n### ${heading}\n`)
  expect(start, heading).toBeGreaterThan(-1)
  const end = reference.indexOf('\n### ', start + 1)
  return reference.slice(start, end < 0 ? undefined : end)
}

function atPointer(value: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((inner, key) => (inner as Record<string, unknown>)[key], value)
}

describe('the documents reference', () => {
  it('has a section for every document kind, every node kind the renderers know and every action defined', () => {
    for (const kind of DOCUMENT_KINDS) section(`Document: ${kind}`)
    for (const kind of NODE_KINDS) section(`Node: ${kind}`)
    for (const name of Object.keys(actionDefinitions)) section(`Action: ${name}`)
  })

  it("lists every parameter of every action in the action's own section, required ones marked", () => {
    for (const [name, definition] of Object.entries(actionDefinitions)) {
      const params = definition.params as { properties?: Record<string, unknown>; required?: readonly string[] }
      const text = section(`Action: ${name}`)
      for (const param of Object.keys(params.properties ?? {})) {
        const row = text.split('\n').find((line) => line.startsWith(`| \`${param}\` |`))
        expect(row, `${name} ${param}`).toBeDefined()
        expect(row!.split('|')[2].trim(), `${name} ${param} required`).toBe(params.required?.includes(param) ? 'yes' : '')
      }
    }
  })

  it('shows as each example the real value at the file and JSON pointer it cites (or that value shortened as it says)', () => {
    const examples = [...reference.matchAll(/^Example, from `([^`]+)`(?: at `([^`]*)`)?( \([^)]*\))?:\n\n```json\n([\s\S]*?)\n```/gm)]
    expect(examples.length).toBeGreaterThan(80)
    for (const [, file, pointer, shortened, body] of examples) {
      const real = atPointer(JSON.parse(readFileSync(join(ROOT, file), 'utf8')), pointer ?? '')
      const shown = JSON.parse(body)
      if (!shortened) expect(shown, `${file}${pointer ?? ''}`).toEqual(real)
      else expect(JSON.stringify(real).length, `${file}${pointer ?? ''}`).toBeGreaterThan(JSON.stringify(shown).length)
    }
  })

  it('shortens a long value by cutting arrays to their first item, and leaves out optional fields of a document last first', () => {
    const value = { kind: 'k', items: Array.from({ length: 20 }, (_, i) => ({ n: i })), a: { b: 1 }, c: { d: 2 } }
    expect(shorten(value, 100)).toEqual({ value, shortened: '' })
    expect(shorten(value, 14).value).toEqual({ kind: 'k', items: [{ n: 0 }], a: { b: 1 }, c: { d: 2 } })
    expect(shorten(value, 11, ['kind', 'items'])).toEqual({ value: { kind: 'k', items: [{ n: 0 }], a: { b: 1 } }, shortened: 'arrays cut to their first item; left out: `c`' })
  })

  it('is checked in as the generator writes it now (npm run docs:reference after changing a kind or an action)', () => {
    expect(readFileSync(join(ROOT, REFERENCE_FILE), 'utf8')).toBe(reference)
  })
})
