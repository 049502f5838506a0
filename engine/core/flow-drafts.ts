/**
 * Form progress kept across a reload (issue 31 item 5: "a reload loses everything"). A flow whose
 * document says `keepProgress: true` (the sign-up flows) keeps what the punter typed and the step
 * reached in the tab's sessionStorage, keyed by site + flow + the flow's version (its step schemas:
 * a changed form never receives values shaped for another), for DRAFT_TTL_MS after the last change.
 *
 * Never kept: a secret. A field is secret when its schema says `format: "password"` or
 * `writeOnly: true` (the document's flag, standard JSON Schema), or its widget is `password`,
 * `code` (a one-time code) or `file`. The draft is removed when the flow completes and when read
 * after its time. Framework-free, in the forms chunk; the `form` node asks whether a draft is kept
 * with its own few lines (../renderers/nodes/form-ready.ts `draftKept`, the same key prefix): an
 * import of this module from the page's first script made the bundler split that script in five.
 */
import { pageSessionStorage } from './web-storage'

/** How long a draft is kept after the last change. */
export const DRAFT_TTL_MS = 30 * 60_000
const PREFIX = 'parlay.draft:'

export interface FlowDraft {
  stepId: string
  values: Record<string, unknown>
  savedAt: number
}

interface FlowShape {
  id: string
  keepProgress?: boolean
  steps: readonly { id: string; schema: Record<string, unknown>; uiSchema?: Record<string, unknown> }[]
}

const SECRET_WIDGETS = new Set(['password', 'code', 'file'])

/** FNV-1a of a text, base 36: a short, stable version of a flow's step schemas. */
function hashOf(text: string): string {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return (h >>> 0).toString(36)
}

export const draftPrefix = (site: string, flowId: string) => `${PREFIX}${site}:${flowId}:`
export const draftKey = (site: string, flow: FlowShape) => `${draftPrefix(site, flow.id)}${hashOf(JSON.stringify(flow.steps.map((s) => [s.id, s.schema])))}`

/** The fields of a flow that are never kept. */
export function secretFields(flow: FlowShape): Set<string> {
  const secret = new Set<string>()
  for (const step of flow.steps) {
    const properties = (step.schema.properties ?? {}) as Record<string, { format?: unknown; writeOnly?: unknown }>
    for (const [field, schema] of Object.entries(properties)) {
      const widget = (step.uiSchema?.[field] as Record<string, unknown> | undefined)?.['ui:widget']
      if (schema?.format === 'password' || schema?.writeOnly === true || (typeof widget === 'string' && SECRET_WIDGETS.has(widget))) secret.add(field)
    }
  }
  return secret
}

/** The kept draft of this version of the flow, if it is not older than DRAFT_TTL_MS (else removed). */
export function readDraft(site: string, flow: FlowShape, now: number, storage = pageSessionStorage()): FlowDraft | undefined {
  if (!flow.keepProgress || !storage) return undefined
  const key = draftKey(site, flow)
  try {
    const draft = JSON.parse(storage.getItem(key) ?? 'null') as FlowDraft | null
    if (!draft || typeof draft.stepId !== 'string' || typeof draft.values !== 'object' || draft.values === null) return undefined
    if (!(now - draft.savedAt < DRAFT_TTL_MS)) {
      storage.removeItem(key)
      return undefined
    }
    const secret = secretFields(flow)
    return { ...draft, values: Object.fromEntries(Object.entries(draft.values).filter(([field]) => !secret.has(field))) }
  } catch {
    return undefined
  }
}

/** Keeps the step and the values, secrets left out; other versions of the flow's draft go. */
export function writeDraft(site: string, flow: FlowShape, stepId: string, values: Record<string, unknown>, now: number, storage = pageSessionStorage()): void {
  if (!flow.keepProgress || !storage) return
  const secret = secretFields(flow)
  const kept = Object.fromEntries(Object.entries(values).filter(([field, value]) => !secret.has(field) && value !== undefined))
  const key = draftKey(site, flow)
  clearDraft(site, flow.id, storage, key)
  try {
    storage.setItem(key, JSON.stringify({ stepId, values: kept, savedAt: now } satisfies FlowDraft))
  } catch {
    // storage full or refused: the form works without it
  }
}

/** Removes the flow's drafts (every version), except `keep`. */
export function clearDraft(site: string, flowId: string, storage = pageSessionStorage(), keep?: string): void {
  if (!storage) return
  const prefix = draftPrefix(site, flowId)
  const keys: string[] = []
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i)
    if (key?.startsWith(prefix) && key !== keep) keys.push(key)
  }
  for (const key of keys) storage.removeItem(key)
}
