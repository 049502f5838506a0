/**
 * Words the router stack cannot say about a route: its summary, its tag, its documented error
 * codes, a response that is not the envelope (HTML, JavaScript, a raw document). Each part writes
 * these as data by path, listed once in server/openapi-notes.ts; the generator (server/auth/openapi.ts)
 * lays them over the operations it derives from the running app, and only for routes that are
 * really served, so a stale note never invents a route. A leaf module: the types and helpers the
 * notes are written with, and the merge; it holds no state.
 */
export type Operation = Record<string, unknown>
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete'
export type PathItem = Partial<Record<HttpMethod, Operation>>

/**
 * Merges notes by OpenAPI path (`/a/{id}`) and lower-case method, in the order given: a later note
 * on the same operation adds its keys over the earlier one's.
 */
export function mergeNotes(lists: readonly Readonly<Record<string, PathItem>>[]): Record<string, PathItem> {
  const notes: Record<string, PathItem> = {}
  for (const items of lists)
    for (const [path, item] of Object.entries(items)) {
      const merged: PathItem = { ...notes[path] }
      for (const [method, operation] of Object.entries(item) as [HttpMethod, Operation][]) merged[method] = { ...merged[method], ...operation }
      notes[path] = merged
    }
  return notes
}

const envelopeOk = (payload: object = {}) => ({
  type: 'object',
  required: ['status', 'payload'],
  properties: { status: { const: 'OK' }, payload },
})

export const ERROR_ENVELOPE = {
  type: 'object',
  required: ['status', 'errorCode'],
  properties: { status: { const: 'ERROR' }, errorCode: { type: 'string', description: 'A spec §8 code.' }, payload: {} },
}

/** Helpers for modules describing their operations. */
export const openapi = {
  json: (schema: object) => ({ required: true, content: { 'application/json': { schema } } }),
  ok: (description: string, payload?: object) => ({ description, content: { 'application/json': { schema: envelopeOk(payload) } } }),
  error: (description: string, codes: string[]) => ({
    description: `${description}: ${codes.join(', ')}`,
    content: { 'application/json': { schema: { ...ERROR_ENVELOPE, properties: { ...ERROR_ENVELOPE.properties, errorCode: { enum: codes } } } } },
  }),
  /** A 200 answer that is not the envelope: HTML, JavaScript, CSS, SVG or raw JSON. */
  raw: (description: string, mediaType: string, schema: object = mediaType.includes('json') ? { type: 'object' } : { type: 'string' }) => ({
    description,
    content: { [mediaType]: { schema } },
  }),
  session: [{ punterSessionHash: [] as string[] }],
}
