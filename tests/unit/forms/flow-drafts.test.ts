/**
 * Sign-up progress kept across a reload (issue 31 item 5): the values and the step of a
 * keepProgress flow come back within 30 minutes of the last change, keyed by site, flow and the
 * flow's version; secrets (format password, writeOnly, password/code/file widgets) are never
 * written to storage at all; a flow without keepProgress keeps nothing.
 */
import { describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { loadDocuments } from '../../../tools/schema-lint/documents/loader'
import { clearDraft, DRAFT_TTL_MS, draftKey, readDraft, secretFields, writeDraft } from '../../../engine/core/flow-drafts'
import { draftKept } from '../../../engine/renderers/nodes/form-ready'

class MemoryStorage {
  private map = new Map<string, string>()
  get length() {
    return this.map.size
  }
  key(i: number) {
    return [...this.map.keys()][i] ?? null
  }
  getItem(key: string) {
    return this.map.get(key) ?? null
  }
  setItem(key: string, value: string) {
    this.map.set(key, value)
  }
  removeItem(key: string) {
    this.map.delete(key)
  }
  clear() {
    this.map.clear()
  }
  dump() {
    return [...this.map.values()].join('\n')
  }
}
const storageOf = () => new MemoryStorage() as unknown as Storage & { dump(): string }
/** The `form` node's check reads the page's sessionStorage: this one, for the test. */
const hasDraft = (site: string, flowId: string, storage: Storage) => {
  ;(globalThis as { sessionStorage?: Storage }).sessionStorage = storage
  try {
    return draftKept(site, flowId)
  } finally {
    delete (globalThis as { sessionStorage?: Storage }).sessionStorage
  }
}

// Spain's sign-up as the site is served it (its overlay on the shared base resolved)
const spain = structuredClone(
  loadDocuments(join(import.meta.dirname, '..', '..', '..', 'schemas')).records.find((r) => r.kind === 'flow' && r.id === 'signup-email' && r.file.includes('jurisdictions/spain/'))!.source,
) as any
const T0 = Date.UTC(2026, 10, 29, 10)
const typed = { email: 'lucia@example.es', password: 'a quiet orange lantern 42', countryId: 519, firstName: 'Lucía', birthDay: '1990-05-17', documentNumber: '12345678Z' }

describe('form progress kept across a reload', () => {
  it('the sign-up flows keep progress; the values and the step come back, the password never reaches storage', () => {
    const storage = storageOf()
    expect(spain.keepProgress).toBe(true)
    writeDraft('spain', spain, 'personal', typed, T0, storage)
    expect(storage.dump()).not.toContain(typed.password)
    const draft = readDraft('spain', spain, T0 + 60_000, storage)
    expect(draft?.stepId).toBe('personal')
    const { password: _password, ...withoutPassword } = typed
    expect(draft?.values).toEqual(withoutPassword)
    expect(hasDraft('spain', 'signup-email', storage)).toBe(true)
    expect(hasDraft('curacao', 'signup-email', storage)).toBe(false)
  })

  it('secrets by the document: format password, writeOnly, and the password, code and file widgets', () => {
    const flow = {
      id: 'f',
      keepProgress: true,
      steps: [
        {
          id: 'a',
          schema: { properties: { pin: { type: 'string', format: 'password' }, answer: { type: 'string', writeOnly: true }, secret: { type: 'string' }, otp: { type: 'string' }, scan: { type: 'string' }, name: { type: 'string' } } },
          uiSchema: { secret: { 'ui:widget': 'password' }, otp: { 'ui:widget': 'code' }, scan: { 'ui:widget': 'file' } },
        },
      ],
    }
    expect([...secretFields(flow)].sort()).toEqual(['answer', 'otp', 'pin', 'scan', 'secret'])
    const storage = storageOf()
    writeDraft('x', flow, 'a', { pin: '1234', answer: 'Rex', secret: 's3cret!!', otp: '123456', scan: 'id.png', name: 'Ana' }, T0, storage)
    expect(readDraft('x', flow, T0, storage)?.values).toEqual({ name: 'Ana' })
    for (const value of ['1234', 'Rex', 's3cret!!', '123456', 'id.png']) expect(storage.dump()).not.toContain(value)
  })

  it('a draft older than 30 minutes after its last change is gone; a changed flow version never gets it', () => {
    const storage = storageOf()
    writeDraft('spain', spain, 'personal', typed, T0, storage)
    expect(readDraft('spain', spain, T0 + DRAFT_TTL_MS - 1, storage)).toBeDefined()
    expect(readDraft('spain', spain, T0 + DRAFT_TTL_MS, storage)).toBeUndefined()
    expect(hasDraft('spain', 'signup-email', storage)).toBe(false)
    writeDraft('spain', spain, 'personal', typed, T0, storage)
    const changed = structuredClone(spain)
    changed.steps[1].schema.properties.documentNumber.maxLength = 9
    expect(draftKey('spain', changed)).not.toBe(draftKey('spain', spain))
    expect(readDraft('spain', changed, T0, storage)).toBeUndefined()
    // writing the new version replaces the old one
    writeDraft('spain', changed, 'account', {}, T0, storage)
    expect(storage.length).toBe(1)
  })

  it('a flow without keepProgress keeps nothing; clearing forgets every version', () => {
    const storage = storageOf()
    writeDraft('spain', { ...spain, keepProgress: false }, 'personal', typed, T0, storage)
    expect(storage.length).toBe(0)
    writeDraft('spain', spain, 'personal', typed, T0, storage)
    clearDraft('spain', 'signup-email', storage)
    expect(storage.length).toBe(0)
  })
})
