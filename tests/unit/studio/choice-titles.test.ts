/** The studio's generated forms name every choice (studio/choice-titles.ts): never rjsf's "Option 1". */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { choiceTitle, humanize, withChoiceTitles } from '../../../studio/choice-titles'
import { formSchemaOf, FORM_KINDS } from '../../../studio/FormView'

type Json = Record<string, unknown>
const kindSchema = (kind: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../../../schemas/kinds', `${kind}.schema.json`), 'utf8')) as Json

/** Every choice's branch titles, at any depth. */
function choices(node: unknown, out: string[][] = []): string[][] {
  if (Array.isArray(node)) node.forEach((n) => choices(n, out))
  else if (node && typeof node === 'object')
    for (const [key, value] of Object.entries(node)) {
      if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(value)) out.push(value.map((b) => (b as Json).title as string))
      if (key !== 'const' && key !== 'enum') choices(value, out)
    }
  return out
}

describe('choices of a generated form', () => {
  it.each(FORM_KINDS.filter((k) => k !== 'flow'))('every choice of the %s form has a distinct, non-numbered name', (kind) => {
    const all = choices(formSchemaOf(kindSchema(kind)))
    if (['menu', 'footer', 'popup', 'jurisdiction'].includes(kind)) expect(all.length).toBeGreaterThan(0)
    for (const titles of all) {
      for (const title of titles) expect(title, JSON.stringify(titles)).toMatch(/\S/)
      expect(titles.some((t) => /^Option \d+$/.test(t))).toBe(false)
      expect(new Set(titles).size).toBe(titles.length)
    }
  })

  it("names an action by its name, a reference by its definition, a computed value by its description and a plain value by its type", () => {
    const root = { $defs: { actionBinding: { type: 'object' }, textRef: { title: 'Text with values', type: 'object' } } }
    expect(choiceTitle({ const: 'account.load', description: 'Loads…' }, root)).toBe('account.load')
    expect(choiceTitle({ $ref: '#/$defs/actionBinding' }, root)).toBe('Action binding')
    expect(choiceTitle({ $ref: '#/$defs/textRef' }, root)).toBe('Text with values')
    expect(choiceTitle({ type: 'object', required: ['$'], description: 'A value computed from the context: {"$": "user.firstName"}.' }, root)).toBe('A value computed from the context')
    expect(choiceTitle({ type: 'object', properties: { type: { const: 'link' } } }, root)).toBe('link')
    expect(choiceTitle({ type: 'string', pattern: '^x' }, root)).toBe('Text')
    expect(choiceTitle({ type: ['string', 'number', 'boolean'] }, root)).toBe('Plain value')
    expect(choiceTitle({ type: 'object', required: ['key', 'values'] }, root)).toBe('Fields: key, values')
  })

  it('keeps a title the schema gives, tells equal names apart, and leaves values (const, enum) alone', () => {
    const schema = withChoiceTitles({ anyOf: [{ type: 'string', title: 'Text key' }, { type: 'string' }, { type: 'string' }], properties: { a: { enum: [{ anyOf: [] }] } } })
    expect(schema.anyOf.map((b) => b.title)).toEqual(['Text key', 'Text', 'Text (2)'])
    expect(schema.properties.a.enum).toEqual([{ anyOf: [] }])
  })

  it('humanizes definition names', () => {
    expect(humanize('actionBinding')).toBe('Action binding')
    expect(humanize('text_ref')).toBe('Text ref')
  })
})
