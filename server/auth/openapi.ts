/**
 * The OpenAPI 3.1 document of the gateway, served at `GET /api/openapi.json`.
 * Each server module adds its own operations with `registerOpenApiPaths` at import time; the
 * request schemas are the same objects the routes validate with, so the document cannot drift.
 */
import type { Application } from 'express'
import { GATEWAY } from '../deps'
import type { ServerDeps } from '../deps'

type Operation = Record<string, unknown>
type PathItem = Partial<Record<'get' | 'post' | 'put' | 'delete', Operation>>

const paths: Record<string, PathItem> = {}

export function registerOpenApiPaths(items: Record<string, PathItem>): void {
  for (const [path, item] of Object.entries(items)) paths[path] = { ...paths[path], ...item }
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
  session: [{ punterSessionHash: [] as string[] }],
}

export function openApiDocument(deps: Pick<ServerDeps, 'config'>) {
  return {
    openapi: '3.1.0',
    info: { title: 'Parlay gateway', version: deps.config.version, description: `Gateway prefixes: mobile ${GATEWAY.mobile}, client ${GATEWAY.client}, uniweb ${GATEWAY.uniweb}. Every answer is {"status":"OK","payload":…} or {"status":"ERROR","errorCode":"…"}.` },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        punterSessionHash: { type: 'apiKey', in: 'header', name: 'punter-session-hash' },
        accessToken: { type: 'http', scheme: 'bearer' },
      },
      schemas: { ErrorEnvelope: ERROR_ENVELOPE },
    },
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
  }
}

export function mountOpenApi(app: Application, deps: Pick<ServerDeps, 'config'>): void {
  app.get('/api/openapi.json', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache')
    res.json(openApiDocument(deps))
  })
}
