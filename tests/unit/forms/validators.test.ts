/**
 * The served validator module validates exactly like the server's ajv; it is self-contained and
 * eval-free; the server rejects unknown fields and wrong types; the HTTP routes serve it
 * content-hashed and immutable.
 */
import createPrecompiledValidator from '@rjsf/validator-ajv8/lib/createPrecompiledValidator.js'
import express from 'express'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  compileFlowValidators,
  createValidatorsModule,
  stepSchemaId,
  toFieldErrors,
  validateFlowData,
  validateFlowStep,
  type CompiledFlowValidators,
  type FlowLike,
} from '../../../server/validators'
import { startTestServer, rawRequest, type TestServer } from '../../support/server'

const FLOW = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../schemas/flows/demo-contact.json'), 'utf8')) as FlowLike

interface ServedModule {
  flow: string
  schemas: Record<string, Record<string, unknown>>
  validators: Record<string, ((data: unknown) => boolean) & { errors?: unknown[] | null }>
}

let compiled: CompiledFlowValidators
let served: ServedModule
let dir: string

beforeAll(async () => {
  compiled = await compileFlowValidators(FLOW)
  dir = mkdtempSync(join(tmpdir(), 'parlay-validators-'))
  const file = join(dir, `${compiled.flowId}.${compiled.hash}.mjs`)
  writeFileSync(file, compiled.code)
  served = (await import(pathToFileURL(file).href)) as ServedModule
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const GOOD_ABOUT = { name: 'Ana María 2', email: 'ana@example.com', topic: 'payments' }
const GOOD_MESSAGE = { message: 'Where is my withdrawal?', consent: true }

const TABLE: [string, string, unknown][] = [
  ['about-you', 'valid', GOOD_ABOUT],
  ['about-you', 'cyrillic name', { ...GOOD_ABOUT, name: 'Анна Петрова' }],
  ['about-you', 'empty object', {}],
  ['about-you', 'missing email', { name: 'Ana', topic: 'other' }],
  ['about-you', 'bad email', { ...GOOD_ABOUT, email: 'ana@' }],
  ['about-you', 'name too short', { ...GOOD_ABOUT, name: 'A' }],
  ['about-you', 'double space in name', { ...GOOD_ABOUT, name: 'Ana  Maria' }],
  ['about-you', 'punctuation in name', { ...GOOD_ABOUT, name: 'Ana <script>' }],
  ['about-you', 'unknown topic', { ...GOOD_ABOUT, topic: 'poker' }],
  ['about-you', 'wrong type', { ...GOOD_ABOUT, email: 42 }],
  ['about-you', 'unknown field', { ...GOOD_ABOUT, isAdmin: true }],
  ['about-you', 'null', null],
  ['about-you', 'array', [GOOD_ABOUT]],
  ['about-you', 'long email', { ...GOOD_ABOUT, email: `${'a'.repeat(250)}@example.com` }],
  ['message', 'valid', GOOD_MESSAGE],
  ['message', 'no consent', { ...GOOD_MESSAGE, consent: false }],
  ['message', 'consent as string', { ...GOOD_MESSAGE, consent: 'true' }],
  ['message', 'short message', { ...GOOD_MESSAGE, message: 'hi' }],
  ['message', 'missing all', {}],
  ['message', 'extra field', { ...GOOD_MESSAGE, email: 'ana@example.com' }],
]

describe('the served validator module', () => {
  it('is one self-contained ES module: no bare imports, no require, no eval, no new Function', () => {
    const code = compiled.code
    expect(code).not.toMatch(/new Function/)
    expect(code).not.toMatch(/(^|[^A-Za-z0-9_$.])eval\(/)
    expect(code).not.toMatch(/\bimport\s*[("'{*]|\bfrom\s*["']/)
    expect(code).not.toMatch(/(^|[^A-Za-z0-9_$."'])require\(/)
    expect(served.flow).toBe('demo-contact')
  })

  it('carries the normalized step schemas with $ids derived from flow and step', () => {
    expect(Object.keys(served.schemas)).toEqual(['about-you', 'message'])
    expect(served.schemas['about-you'].$id).toBe(stepSchemaId('demo-contact', 'about-you'))
    expect(served.schemas['about-you'].additionalProperties).toBe(false)
    expect(served.validators[stepSchemaId('demo-contact', 'message')]).toBeTypeOf('function')
  })

  it('the hash is the content hash of the code', () => {
    expect(createHash('sha256').update(compiled.code).digest('hex').slice(0, 16)).toBe(compiled.hash)
  })

  it.each(TABLE)('%s / %s: browser module and server ajv agree', (stepId, _name, data) => {
    const browser = served.validators[stepSchemaId('demo-contact', stepId)]
    const browserValid = browser(data)
    const browserErrors = toFieldErrors(browser.errors as never)
    const serverErrors = validateFlowStep(FLOW, stepId, data)
    expect(browserValid).toBe(serverErrors.length === 0)
    if (data !== null && typeof data === 'object' && !Array.isArray(data)) expect(browserErrors).toEqual(serverErrors)
    // the server's own ajv function gives the same raw errors as the served module
    const serverFn = compiled.validate[stepId]
    expect(serverFn(data)).toBe(browserValid)
    expect(toFieldErrors(serverFn.errors)).toEqual(browserErrors)
  })

  it.each(TABLE)('%s / %s: rjsf precompiled validator agrees', (stepId, _name, data) => {
    if (data === null || typeof data !== 'object' || Array.isArray(data)) return
    const schema = served.schemas[stepId]
    const validator = createPrecompiledValidator(served.validators as never, schema as never)
    const result = validator.validateFormData(data, schema as never)
    expect(result.errors.length === 0).toBe(validateFlowStep(FLOW, stepId, data).length === 0)
  })

  // how long compiling takes (5 s budget) is `npm run bench checks`, not a test
})

describe('server-side validation', () => {
  it('rejects unknown fields and wrong types with {field, code}', () => {
    expect(validateFlowStep(FLOW, 'about-you', { ...GOOD_ABOUT, isAdmin: true })).toEqual([{ field: 'isAdmin', code: 'unknownField' }])
    expect(validateFlowStep(FLOW, 'about-you', { ...GOOD_ABOUT, email: 42 })).toEqual([{ field: 'email', code: 'type' }])
    expect(validateFlowStep(FLOW, 'about-you', { name: 'Ana', topic: 'other' })).toEqual([{ field: 'email', code: 'required' }])
    expect(validateFlowStep(FLOW, 'about-you', 'text')).toEqual([{ field: '', code: 'type' }])
    expect(() => validateFlowStep(FLOW, 'nope', {})).toThrow(/no step/)
  })

  it('validates merged data of every step; a field no step declares is unknown', () => {
    expect(validateFlowData(FLOW, { ...GOOD_ABOUT, ...GOOD_MESSAGE })).toEqual([])
    expect(validateFlowData(FLOW, { ...GOOD_ABOUT, ...GOOD_MESSAGE, role: 'admin' })).toEqual([{ field: 'role', code: 'unknownField' }])
    expect(validateFlowData(FLOW, { ...GOOD_ABOUT })).toEqual([
      { field: 'message', code: 'required' },
      { field: 'consent', code: 'required' },
    ])
  })

  it('applies the default date bounds (min 2000-01-01, max today, the latest date anywhere: UTC+14) unless the schema sets them; each error carries its bound for its text', () => {
    const flow: FlowLike = {
      id: 'dates',
      steps: [
        {
          id: 'one',
          schema: {
            type: 'object',
            properties: {
              day: { type: 'string', format: 'date' },
              birth: { type: 'string', format: 'date', formatMinimum: '1900-01-01', formatMaximum: '2008-01-01' },
            },
          },
        },
      ],
    }
    const now = Date.UTC(2025, 5, 15, 12)
    expect(validateFlowStep(flow, 'one', { day: '2025-06-15' }, { now })).toEqual([])
    expect(validateFlowStep(flow, 'one', { day: '1999-12-31' }, { now })).toEqual([{ field: 'day', code: 'formatMinimum', limit: '2000-01-01' }])
    expect(validateFlowStep(flow, 'one', { day: '2025-06-17' }, { now })).toEqual([{ field: 'day', code: 'formatMaximum', limit: '2025-06-16' }])
    expect(validateFlowStep(flow, 'one', { day: '2025-02-30' }, { now })).toEqual([{ field: 'day', code: 'format' }])
    expect(validateFlowStep(flow, 'one', { birth: '1950-01-01' }, { now })).toEqual([])
    expect(validateFlowStep(flow, 'one', { birth: '2010-01-01' }, { now })).toEqual([{ field: 'birth', code: 'formatMaximum', limit: '2008-01-01' }])
  })
})

describe('HTTP: validator URL, module, demo endpoint', () => {
  let server: TestServer
  let port: number
  let close: () => void
  beforeAll(async () => {
    server = await startTestServer()
    const app = express()
    app.use(express.json())
    await createValidatorsModule().mount(app, server.deps)
    const listener = app.listen(0, '127.0.0.1')
    await new Promise((done) => listener.once('listening', done))
    port = (listener.address() as AddressInfo).port
    close = () => listener.close()
  }, 60_000)
  afterAll(async () => {
    close?.()
    await server?.dispose()
  })

  it('names the content-hashed module and serves it immutable as text/javascript', async () => {
    const answer = await rawRequest(port, { path: '/api/flows/demo-contact/validator' })
    expect(answer.status).toBe(200)
    const { url } = answer.json() as { url: string }
    expect(url).toMatch(/^\/api\/validators\/demo-contact\.[0-9a-f]{16}\.js$/)
    const module = await rawRequest(port, { path: url })
    expect(module.status).toBe(200)
    expect(module.headers['content-type']).toMatch(/^text\/javascript/)
    expect(module.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    const hash = url.split('.')[1]
    expect(createHash('sha256').update(module.body).digest('hex').slice(0, 16)).toBe(hash)
    // compiled once: a second ask answers the same URL
    const again = await rawRequest(port, { path: '/api/flows/demo-contact/validator' })
    expect(again.json().url).toBe(url)
  })

  it('404 for an unknown flow or hash', async () => {
    expect((await rawRequest(port, { path: '/api/flows/no-such-flow/validator' })).status).toBe(404)
    expect((await rawRequest(port, { path: '/api/validators/demo-contact.0123456789abcdef.js' })).status).toBe(404)
    expect((await rawRequest(port, { path: '/api/validators/../../etc/passwd' })).status).toBe(404)
  })

  const post = (body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    rawRequest(port, { method: 'POST', path: '/api/demo/contact', headers, body: typeof body === 'string' ? body : JSON.stringify(body) })

  it('accepts a valid contact message', async () => {
    const answer = await post({ ...GOOD_ABOUT, ...GOOD_MESSAGE })
    expect(answer.status).toBe(200)
    expect(answer.json()).toMatchObject({ status: 'OK', payload: { reference: expect.stringMatching(/^C-[2-9A-HJKMNP-Z]{8}$/) } })
  })

  it('answers ValidationError with {field, code}[]: unknown fields, wrong types, server-only rules', async () => {
    const unknown = await post({ ...GOOD_ABOUT, ...GOOD_MESSAGE, isAdmin: true })
    expect(unknown.status).toBe(400)
    expect(unknown.json()).toEqual({ status: 'ERROR', errorCode: 'ValidationError', payload: [{ field: 'isAdmin', code: 'unknownField' }] })
    const wrongType = await post({ ...GOOD_ABOUT, ...GOOD_MESSAGE, consent: 'yes' })
    expect(wrongType.json().payload).toEqual([{ field: 'consent', code: 'type' }, { field: 'consent', code: 'const' }])
    const taken = await post({ ...GOOD_ABOUT, ...GOOD_MESSAGE, email: 'taken@example.com' })
    expect(taken.json().payload).toEqual([{ field: 'email', code: 'DUPLICATE_EMAIL' }])
    const notJson = await post('name=x', { 'content-type': 'text/plain' })
    expect(notJson.status).toBe(415)
  })
})
