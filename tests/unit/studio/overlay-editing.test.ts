/**
 * Editing an overlay in the studio (studio/overlay-editing.ts): the editor shows the whole document
 * the site is served; saving stores only the difference from the shared document, and a save that
 * changes nothing gives back the stored overlay exactly.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { editableText, textToSave } from '../../../studio/overlay-editing'

const SCHEMAS = join(import.meta.dirname, '..', '..', '..', 'schemas')
const FILE = 'jurisdictions/spain/flows/signup-email.json'
const stored = readFileSync(join(SCHEMAS, FILE), 'utf8')
const base = { file: 'bases/flows/signup-email.json', doc: JSON.parse(readFileSync(join(SCHEMAS, 'bases/flows/signup-email.json'), 'utf8')) }

describe("an overlay in the studio's editor", () => {
  it('is shown as the whole document Spain is served, and saved unchanged as the very same overlay', () => {
    const shown = JSON.parse(editableText(FILE, stored, base))
    expect(shown.$overlay).toBeUndefined()
    expect(shown.steps.map((s: { id: string }) => s.id)).toEqual(['account', 'personal', 'confirm'])
    expect(textToSave(FILE, editableText(FILE, stored, base), base)).toEqual({ ok: true, content: stored })
  })

  it('saves an edit as one more entry of the patch, not as a copy', () => {
    const shown = JSON.parse(editableText(FILE, stored, base))
    shown.steps[1].schema.properties.firstName.maxLength = 40
    const saved = textToSave(FILE, JSON.stringify(shown), base)
    if (!saved.ok) throw new Error(saved.problem)
    const patch = JSON.parse(saved.content)
    expect(patch.$overlay).toBe(base.file)
    expect(patch.steps.find((s: { id: string }) => s.id === 'personal').schema.properties.firstName).toEqual({ maxLength: 40 })
    expect(saved.content.length).toBeLessThan(stored.length + 120)
  })

  it('refuses to save text that does not parse, saying why; a document that is not an overlay is saved as typed', () => {
    expect(textToSave(FILE, '{"kind": ', base)).toMatchObject({ ok: false, problem: expect.stringContaining('does not parse') })
    expect(textToSave('popups/info.json', '{"kind": ', undefined)).toEqual({ ok: true, content: '{"kind": ' })
  })
})
