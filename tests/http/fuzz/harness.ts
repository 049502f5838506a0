/**
 * The route fuzzer's cases and judge. Routes come from the running app's router stack
 * (`servedRoutes`, the same walk the OpenAPI generator uses), so a new route is fuzzed without
 * editing anything here. Each route gets hostile path params, query strings, headers and bodies
 * (invalid JSON, wrong content types, wrong types per declared field, arrays for objects,
 * prototype keys, huge strings, 10 000-level nesting, NUL bytes, bad percent-encoding, unicode
 * edge cases) plus random JSON from a seeded fast-check generator, so a failure reproduces.
 */
import fc from 'fast-check'
import { request } from 'node:http'
import { servedRoutes, routeDocs, type ServedRoute } from '../../../server/auth/openapi'
import { isApiPath } from '../../../server/http/error-pages'
import type { Application } from 'express'
import { DEMO_ADMINS } from '../../../server/admin/accounts'
import { adminSignInRaw } from '../../support/admin-sign-in'
import { rawRequest } from '../../support/server'

export interface FuzzCase {
  label: string
  method: string
  path: string
  headers?: Record<string, string>
  body?: string | Buffer
}

export interface FuzzResponse {
  status: number
  contentType: string
  body: string
}

/** Credentials the fuzzer sends so it reaches past the session checks. */
export interface Sessions {
  admin?: { cookie: string; csrf: string }
  punter?: { hash: string; accessToken: string }
}

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype']
/** Already percent-encoded: hostile path segments. */
const PARAM_VALUES = [
  ...PROTOTYPE_KEYS,
  'hasOwnProperty',
  'toString',
  '%00',
  'a%00b',
  '%ZZ',
  '%E0%A4%A',
  '%C0%AF',
  '%ED%A0%80', // a lone surrogate in UTF-8
  '%F0%9F%98%80',
  '%EF%BB%BF',
  '%E2%80%AE', // right-to-left override
  '..%2F..%2Fetc%2Fpasswd',
  '-1',
  '1e309',
  '99999999999999999999999',
  'x'.repeat(4000),
]
const QUERY_VALUES = [...PROTOTYPE_KEYS, '%00', '%ZZ', '%E0%A4%A', '%F0%9F%98%80', '%ED%A0%80', 'x'.repeat(3000), '', '-1', '1e309']
const COMMON_QUERY_NAMES = ['section', 'id', 'locale', 'state', 'preview', 'to', 'q', 'token', 'file', 'before', 'limit', ...PROTOTYPE_KEYS]
/** Values of the wrong type for any declared body field. */
const BAD_FIELD_VALUES: unknown[] = [null, 0, -1, 1e308, -0.5, true, [], {}, [[[]]], { __proto__: null, a: 1 }, 'a\u0000b', '\ud800', '\u202e', '__proto__', 'x'.repeat(20_000), ['x'], { $: 'user.id' }]

const PLAUSIBLE_PARAMS: Record<string, string> = { kind: 'screen', id: '1', locale: 'en', file: 'app.js', token: 'x', rest: 'x' }

const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)
const deepObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)

/** Raw bodies with the content type they claim. */
const RAW_BODIES: [string, string | undefined, string | Buffer][] = [
  ['invalid JSON', 'application/json', '{"a":'],
  ['empty JSON body', 'application/json', ''],
  ['JSON array for an object', 'application/json', '[1,2,3]'],
  ['JSON string for an object', 'application/json', '"text"'],
  ['JSON number', 'application/json', '123'],
  ['JSON null', 'application/json', 'null'],
  ['prototype keys', 'application/json', '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"prototype":{"x":1}}'],
  ['10000-level array', 'application/json', deepArray(10_000)],
  ['10000-level object', 'application/json', deepObject(10_000)],
  ['NUL bytes', 'application/json', '{"a":"\\u0000","\\u0000":1}'],
  ['lone surrogates', 'application/json', '{"a":"\\ud800","\\udfff":"\\udc00"}'],
  ['invalid UTF-8', 'application/json', Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe, 0xc0, 0xaf]), Buffer.from('"}')])],
  ['UTF-16 charset', 'application/json; charset=utf-16', '{}'],
  ['too large', 'application/json', JSON.stringify({ a: 'x'.repeat(70_000) })],
  ['just under the limit', 'application/json', JSON.stringify({ a: 'x'.repeat(60_000) })],
  ['text/plain', 'text/plain', 'hello'],
  ['XML', 'application/xml', '<a>1</a>'],
  ['form with prototype keys', 'application/x-www-form-urlencoded', 'a=1&__proto__[polluted]=1&constructor[prototype][x]=1&state=%ZZ'],
  ['multipart with a traversal name', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="file"; filename="../../a.png"\r\nContent-Type: image/png\r\n\r\nabc\r\n--x--\r\n'],
  ['broken multipart', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data\r\n\r\n'],
  ['no content type', undefined, '{"a":1}'],
]

const HOSTILE_HEADERS: Record<string, string>[] = [
  { 'x-parlay-target': '__proto__', 'x-parlay-source': 'constructor', 'accept-language': '__proto__;q=1,constructor' },
  { host: 'constructor', 'x-parlay-version': '1.2.3-__proto__' },
  { 'punter-session-hash': '__proto__', authorization: 'Bearer __proto__', cookie: 'parlay_admin=__proto__; parlay_preview=constructor' },
  { 'if-none-match': '"' + 'x'.repeat(4000) + '"', 'accept-language': 'x'.repeat(4000) },
]

/** `count` items of a list starting at `from`, wrapping around. */
const rotate = <T>(list: readonly T[], from: number, count: number): T[] => Array.from({ length: count }, (_, k) => list[(from + k) % list.length])

const hasBody = (method: string) => method !== 'get' && method !== 'head'

function fillPath(route: ServedRoute, value: (name: string) => string): string {
  return route.path.replace(/\{([^}]+)\}/g, (_m, name: string) => value(name))
}

const plausible = (route: ServedRoute) => fillPath(route, (name) => PLAUSIBLE_PARAMS[name] ?? 'x')

function fieldsOf(schema: object | undefined): string[] {
  const properties = (schema as { properties?: Record<string, unknown> } | undefined)?.properties
  return properties ? Object.keys(properties) : []
}

/** Seeded random JSON bodies: declared field names, prototype keys and arbitrary keys, any values. */
function randomBodies(fields: string[], seed: number, count: number): string[] {
  const key = fc.oneof(fc.constantFrom(...(fields.length ? fields : ['a']), ...PROTOTYPE_KEYS), fc.string({ unit: 'binary', maxLength: 12 }))
  const leaf = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null))
  const value = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(key, tie('node'), { maxKeys: 4 })),
  })).node
  return fc.sample(fc.dictionary(key, value, { maxKeys: 6 }), { seed, numRuns: count }).map((body) => JSON.stringify(body))
}

/** Every case for one route. */
export function casesFor(route: ServedRoute, seed: number, randomRuns: number): FuzzCase[] {
  const method = route.method.toUpperCase()
  const base = plausible(route)
  const docs = routeDocs(route)
  const cases: FuzzCase[] = []
  // Path params, each hostile in turn.
  const params = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])
  for (const param of params)
    for (const value of PARAM_VALUES) cases.push({ label: `param ${param}=${value.slice(0, 20)}`, method, path: fillPath(route, (name) => (name === param ? value : (PLAUSIBLE_PARAMS[name] ?? 'x'))) })
  // Query strings.
  // Each query name gets one hostile value, rotating with the seed, so across routes every value
  // meets every name.
  const names = [...new Set([...fieldsOf(docs.query), ...COMMON_QUERY_NAMES])]
  for (const [i, name] of names.entries())
    for (const value of rotate(QUERY_VALUES, seed + i, 1)) cases.push({ label: `query ${name}=${value.slice(0, 20)}`, method, path: `${base}?${name}=${value}` })
  cases.push({ label: 'repeated and bracketed query', method, path: `${base}?section=a&section=b&id[x]=1&a[__proto__][b]=1&locale=en&locale[]=ru` })
  cases.push({ label: 'very long URL', method, path: `${base}?q=${'y'.repeat(12_000)}` })
  cases.push({ label: 'URL past the header limit', method, path: `${base}?q=${'z'.repeat(40_000)}` })
  cases.push({ label: 'bad percent-encoding in the path', method, path: `${base}%ZZ%` })
  for (const headers of rotate(HOSTILE_HEADERS, seed, 2)) cases.push({ label: `hostile headers #${HOSTILE_HEADERS.indexOf(headers)}`, method, path: base, headers })
  if (!hasBody(route.method)) return cases
  // Bodies.
  for (const [label, type, body] of RAW_BODIES) cases.push({ label: `body: ${label}`, method, path: base, headers: type ? { 'content-type': type } : {}, body })
  const fields = fieldsOf(docs.body)
  for (const [i, field] of [...fields, ...PROTOTYPE_KEYS].entries())
    for (const value of rotate(BAD_FIELD_VALUES, i * 4, 4)) cases.push({ label: `field ${field}=${JSON.stringify(value)?.slice(0, 20)}`, method, path: base, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ [field]: value }) })
  cases.push({ label: 'every field wrong', method, path: base, headers: { 'content-type': 'application/json' }, body: JSON.stringify(Object.fromEntries(fields.map((f, i) => [f, BAD_FIELD_VALUES[i % BAD_FIELD_VALUES.length]]))) })
  for (const [i, body] of randomBodies(fields, seed, randomRuns).entries())
    cases.push({ label: `random body #${i} (seed ${seed})`, method, path: base, headers: { 'content-type': 'application/json' }, body })
  return cases
}

/** Routes in an order that keeps sessions alive the longest (logouts last). */
export function routesToFuzz(app: Application): ServedRoute[] {
  const last = (r: ServedRoute) => (/logout/.test(r.path) ? 1 : 0)
  return [...servedRoutes(app)].sort((a, b) => last(a) - last(b))
}

export function withSessions(fuzz: FuzzCase, sessions: Sessions): FuzzCase {
  const headers: Record<string, string> = {}
  if (sessions.admin && fuzz.path.startsWith('/admin')) Object.assign(headers, { cookie: sessions.admin.cookie, 'x-csrf-token': sessions.admin.csrf })
  if (sessions.punter && !fuzz.path.startsWith('/admin'))
    Object.assign(headers, { 'punter-session-hash': sessions.punter.hash, authorization: `Bearer ${sessions.punter.accessToken}` })
  return { ...fuzz, headers: { ...headers, ...fuzz.headers } }
}

/** Sends a case as bytes on the wire (fetch would normalise the URL), on a connection of its own:
 * reusing a kept-alive socket races the server closing it when idle (an ECONNRESET on a busy
 * machine that says nothing about the server's answer). */
export function send(port: number, fuzz: FuzzCase): Promise<FuzzResponse> {
  return new Promise((done, fail) => {
    const headers: Record<string, string | number> = { host: 'localhost', 'x-forwarded-for': '10.9.9.9', ...fuzz.headers }
    if (fuzz.body !== undefined) headers['content-length'] = Buffer.byteLength(fuzz.body)
    const req = request({ host: '127.0.0.1', port, method: fuzz.method, path: fuzz.path, headers, insecureHTTPParser: false, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => done({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', fail)
    })
    req.on('error', fail)
    if (fuzz.body !== undefined) req.write(fuzz.body)
    req.end()
  })
}

/**
 * The experiment service speaks its own protocol, the spec's `{ "error": message }` with the
 * messages its client shows ('Please specify a token' …); refusals before it (headers, 404) and
 * every other API path use the envelope.
 */
const OWN_PROTOCOL = /^\/experiments\/api\//

const LEAKS = /\n\s+at |\bat [\w.<>]+ \(|\/work\/|node_modules|\.ts:\d+|SqliteError|TypeError|ReferenceError|RangeError|SyntaxError: /

/** Why a response is wrong, or null: no 5xx, no stack or file path, the envelope on API 4xx. */
export function judge(fuzz: FuzzCase, res: FuzzResponse): string | null {
  // Production without simulators: calls to an unconfigured provider (MitID, SMS) are a documented
  // 503 SERVICE_UNAVAILABLE in the envelope, not a crash.
  const unconfigured = res.status === 503 && /^\{"status":"ERROR","errorCode":"SERVICE_UNAVAILABLE"/.test(res.body)
  if (res.status >= 500 && !unconfigured) return `status ${res.status}`
  if (LEAKS.test(res.body)) return `leaks internals: ${LEAKS.exec(res.body)![0]}`
  const path = fuzz.path.split('?')[0]
  if (res.status >= 400 && OWN_PROTOCOL.test(path) && /^\{"error":"[^"]+"\}$/.test(res.body)) return null
  if (res.status >= 400 && isApiPath(path)) {
    let body: { status?: unknown; errorCode?: unknown } | undefined
    try {
      body = JSON.parse(res.body)
    } catch {
      return `API ${res.status} is not JSON (${res.contentType})`
    }
    if (body?.status !== 'ERROR' || typeof body.errorCode !== 'string' || body.errorCode === '') return `API ${res.status} without the error envelope`
  }
  return null
}

/** Runs cases with a little concurrency; returns the failures as readable lines. */
export async function runCases(port: number, cases: FuzzCase[], concurrency = 4): Promise<string[]> {
  const failures: string[] = []
  let next = 0
  const worker = async () => {
    while (next < cases.length) {
      const fuzz = cases[next++]
      try {
        const problem = judge(fuzz, await send(port, fuzz))
        if (problem) failures.push(`${fuzz.method} ${fuzz.path.slice(0, 120)} [${fuzz.label}]: ${problem}`)
      } catch (error) {
        failures.push(`${fuzz.method} ${fuzz.path.slice(0, 120)} [${fuzz.label}]: no answer (${(error as Error).message})`)
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return failures
}

/** Signs in the demo operator and a demo punter, so the fuzzer gets past the session checks. */
export async function signIn(port: number): Promise<Sessions> {
  const operator = DEMO_ADMINS.find((a) => a.email === 'operator@parlay.test')!
  const json = { 'content-type': 'application/json' }
  const admin = await adminSignInRaw(port, operator)
  const punter = await rawRequest(port, {
    method: 'POST',
    path: '/mobile-gate/api/v1/auth/v2/login',
    headers: { ...json, 'x-forwarded-for': '10.8.8.8' },
    body: JSON.stringify({ login: 'opened@demo.parlay.test', password: 'parlay-demo-1' }),
  })
  const punterPayload = punter.status === 200 ? punter.json().payload : undefined
  return {
    admin: admin.status === 200 ? { cookie: String(([] as string[]).concat(admin.headers['set-cookie'] ?? [])[0]).split(';')[0], csrf: admin.json().payload.csrf } : undefined,
    punter: punterPayload?.punterHash ? { hash: punterPayload.punterHash, accessToken: punterPayload.accessToken } : undefined,
  }
}

/** Every case of every route the app registers, with the sessions attached. */
export function allCases(app: Application, sessions: Sessions, seed: number, randomRuns: number): FuzzCase[] {
  return routesToFuzz(app).flatMap((route, i) => casesFor(route, seed + i, randomRuns).map((c) => withSessions(c, sessions)))
}
