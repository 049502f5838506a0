/**
 * The studio editor's rules (studio/document-draft.ts): the kind a text names (the form view and
 * the schema follow it), the draft reopened for a new document (the latest this admin wrote,
 * whatever the case of the address), and the toolbar's lint line (errors counted apart).
 */
import { describe, expect, it } from 'vitest'
import { kindOf, latestDraftBy, lintSummary } from '../../../studio/document-draft'
import type { LintFinding } from '../../../studio/api'

describe("the studio editor's rules", () => {
  it('a text names its kind only as JSON with a string kind', () => {
    expect([kindOf('{"kind":"flow","id":"x"}'), kindOf('{"kind":3}'), kindOf('{"kind":"flow",'), kindOf(''), kindOf('[]'), kindOf('null')]).toEqual(['flow', undefined, undefined, undefined, undefined, undefined])
  })

  it("reopens the latest draft this admin wrote, never another admin's", () => {
    const drafts = [
      { id: 4, author: 'ana@example.com' },
      { id: 9, author: 'bo@example.com' },
      { id: 7, author: 'Ana@Example.com' },
      { id: 2, author: 'ana@example.com' },
    ]
    expect(latestDraftBy(drafts, 'ANA@example.com')).toBe(7)
    expect(latestDraftBy(drafts, 'cy@example.com')).toBeUndefined()
    expect(latestDraftBy([], 'ana@example.com')).toBeUndefined()
  })

  it('the lint line counts errors apart from the other findings', () => {
    const finding = (severity: LintFinding['severity']): LintFinding => ({ severity, file: 'flows/x.json', pointer: '/', message: 'm' })
    expect(lintSummary([])).toEqual({ errors: 0, text: 'Lint: no findings' })
    expect(lintSummary([finding('error'), finding('warning'), finding('error'), finding('note')])).toEqual({ errors: 2, text: 'Lint: 2 error(s), 2 other' })
    expect(lintSummary([finding('warning')])).toEqual({ errors: 0, text: 'Lint: 0 error(s), 1 other' })
  })
})
