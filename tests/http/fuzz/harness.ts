/**
 * The route fuzzer's cases and judge. Routes come from the running app's router stack
 * (`servedRoutes`, the same walk the OpenAPI generator uses), so a new route is fuzzed without
 * editing anything here. Each route gets hostile path params, query strings, headers and bodies
 * (invalid JSON, wrong content types, prototype keys, huge strings, 10 000-level nesting, NUL bytes,
 * bad percent-encoding, unicode edge cases) plus random JSON from a seeded fast-check generator, so
 * a failure reproduces.
 *
 * Issue 30 item 8: a route with a request schema is fuzzed from a VALID body built from that schema
 * with real values (./valid-body.ts: a live selection, an open bet, the punter's session), sent under
 * every site, then varied one field at a time (wrong types, values just past the schema's bounds, the
 * field left out), so the cases reach the handlers instead of stopping at validation; path params
 * are real ids where the route names one. Every case goes to one of the sites, by Host or by the
 * x-parlay-target header in turn. The money and audit checks after a run: `expectMoneyAndAuditKept`
 * (the ledger verified as `npm run ledger:verify` does), `auditIntact`.
 */
import fc from 'fast-check'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { request } from 'node:http'
import { servedRoutes, routeDocs, type ServedRoute } from '../../../server/auth/openapi'
import { isApiPath } from '../../../server/http/error-pages'
import type { Application } from 'express'
import { DEMO_ADMINS } from '../../../server/admin/accounts'
import { adminSignInRaw } from '../../support/admin-sign-in'
import { rawRequest, type TestServer } from '../../support/server'
import { verifyAuditDatabase, verifyAuditFile } from '../../../tools/audit-verify'
import { describeVerification, verifyLedger } from '../../../server/punters/ledger-verify'
import { edgeValues, validBody, type Hints, type Schema } from './valid-body'

export interface FuzzCase {
  label: string
  method: string
  path: string
  headers?: Record<string, string>
  body?: string | Buffer
  /** The site it goes to (an index into the context's sites); by turns when unset. */
  site?: number
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
const JSON_TYPE = { 'content-type': 'application/json' }

/** What the fuzzer knows of the running server: sessions, sites, real values (`fuzzContext`). */
export interface FuzzContext {
  sessions: Sessions
  /** Each site with a host name it answers on. */
  sites: { id: string; host: string }[]
  /** Real values by body field or path param name (./valid-body.ts). */
  hints: Hints
  /** 0 or 1: whether site k is named by Host or by header first (the production run takes the other). */
  parity: number
}

/** A path param: a real id where the route's name for it is known, else a plausible one. */
function realParam(route: ServedRoute, name: string, ctx: FuzzContext): string {
  if (name === 'id') {
    if (route.path.includes('/documents/{kind}/')) return 'casino-lobby'
    if (route.path.startsWith('/api/flows/')) return 'login'
    if (route.path.startsWith('/admin/api/versions/')) return String(ctx.hints.versionId ?? 1)
    if (/promotions/.test(route.path)) return 'casino-welcome-package'
  }
  const hint = ctx.hints[name]
  return typeof hint === 'string' || typeof hint === 'number' ? String(hint) : (PLAUSIBLE_PARAMS[name] ?? 'x')
}

function fillPath(route: ServedRoute, value: (name: string) => string): string {
  return route.path.replace(/\{([^}]+)\}/g, (_m, name: string) => value(name))
}

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

/** The values one field takes in turn: wrong types (rotating with the seed), the schema's edges. */
const variantsOf = (schema: Schema | undefined, seed: number, hostile: number) => [...rotate(BAD_FIELD_VALUES, seed, hostile), ...edgeValues(schema)]

/** A valid body varied one field at a time (one level down too: an object field's fields, an array's first item's). */
function fieldVariations(base: Record<string, unknown>, schema: Schema, seed: number): [string, unknown][] {
  const properties: Record<string, Schema> = schema.properties ?? {}
  const out: [string, unknown][] = []
  for (const [i, field] of Object.keys(properties).entries()) {
    for (const value of variantsOf(properties[field], seed + i * 3, 3)) out.push([`${field}=${JSON.stringify(value)?.slice(0, 20)}`, { ...base, [field]: value }])
    if (field in base) out.push([`without ${field}`, Object.fromEntries(Object.entries(base).filter(([key]) => key !== field))])
    const inner = base[field]
    const item = Array.isArray(inner) && inner[0] && typeof inner[0] === 'object' ? (inner[0] as Record<string, unknown>) : undefined
    const object = !Array.isArray(inner) && inner && typeof inner === 'object' ? (inner as Record<string, unknown>) : undefined
    const innerSchema: Schema | undefined = item ? properties[field].items : object ? properties[field] : undefined
    for (const [j, key] of Object.keys(innerSchema?.properties ?? {}).entries())
      for (const value of variantsOf(innerSchema!.properties[key], seed + j, 1)) {
        const changed = { ...(item ?? object), [key]: value }
        out.push([`${field}.${key}=${JSON.stringify(value)?.slice(0, 20)}`, { ...base, [field]: item ? [changed, ...(inner as unknown[]).slice(1)] : changed }])
      }
  }
  for (const key of PROTOTYPE_KEYS) out.push([`${key} beside valid fields`, { ...base, [key]: { polluted: true } }])
  out.push(['an unknown field', { ...base, fuzzUnknownField: 1 }])
  return out
}

/** The body cases: from a valid body when the schema gives one (sent first under every site), else field by field from an empty one. */
function bodyCases(route: ServedRoute, method: string, path: string, ctx: FuzzContext, seed: number, randomRuns: number): FuzzCase[] {
  const docs = routeDocs(route)
  const json = (label: string, body: unknown): FuzzCase => ({ label, method, path, headers: { ...JSON_TYPE }, body: JSON.stringify(body) })
  const cases: FuzzCase[] = RAW_BODIES.map(([label, type, body]): FuzzCase => ({ label: `body: ${label}`, method, path, headers: type ? { 'content-type': type } : {}, body }))
  const schema = docs.body as Schema | undefined
  const base = validBody(schema, ctx.hints, seed)
  if (base) {
    ctx.sites.forEach((_, k) => cases.unshift({ ...json('valid body', base), site: k }))
    for (const [label, body] of fieldVariations(base, schema!, seed)) cases.push(json(`valid body but ${label}`, body))
  } else {
    for (const [i, field] of [...fieldsOf(schema), ...PROTOTYPE_KEYS].entries())
      for (const value of rotate(BAD_FIELD_VALUES, i * 4, 4)) cases.push(json(`field ${field}=${JSON.stringify(value)?.slice(0, 20)}`, { [field]: value }))
  }
  for (const [i, body] of randomBodies(fieldsOf(schema), seed, randomRuns).entries()) cases.push({ label: `random body #${i} (seed ${seed})`, method, path, headers: { ...JSON_TYPE }, body })
  return cases
}

/** Every case for one route. */
export function casesFor(route: ServedRoute, ctx: FuzzContext, seed: number, randomRuns: number): FuzzCase[] {
  const method = route.method.toUpperCase()
  const real = (name: string) => realParam(route, name, ctx)
  const base = fillPath(route, real)
  const docs = routeDocs(route)
  const cases: FuzzCase[] = []
  // Path params, each hostile in turn, the others real.
  const params = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])
  for (const param of params)
    for (const value of PARAM_VALUES) cases.push({ label: `param ${param}=${value.slice(0, 20)}`, method, path: fillPath(route, (name) => (name === param ? value : real(name))) })
  // Query strings. Each query name gets one hostile value, rotating with the seed, so across routes
  // every value meets every name.
  const names = [...new Set([...fieldsOf(docs.query), ...COMMON_QUERY_NAMES])]
  for (const [i, name] of names.entries())
    for (const value of rotate(QUERY_VALUES, seed + i, 1)) cases.push({ label: `query ${name}=${value.slice(0, 20)}`, method, path: `${base}?${name}=${value}` })
  cases.push({ label: 'repeated and bracketed query', method, path: `${base}?section=a&section=b&id[x]=1&a[__proto__][b]=1&locale=en&locale[]=ru` })
  cases.push({ label: 'very long URL', method, path: `${base}?q=${'y'.repeat(12_000)}` })
  cases.push({ label: 'URL past the header limit', method, path: `${base}?q=${'z'.repeat(40_000)}` })
  cases.push({ label: 'bad percent-encoding in the path', method, path: `${base}%ZZ%` })
  for (const headers of rotate(HOSTILE_HEADERS, seed, 2)) cases.push({ label: `hostile headers #${HOSTILE_HEADERS.indexOf(headers)}`, method, path: base, headers })
  if (!hasBody(route.method)) return [{ label: 'plain', method, path: base }, ...cases]
  return [...bodyCases(route, method, base, ctx, seed, randomRuns), ...cases]
}

/**
 * Routes in an order that keeps the sessions and the punter usable the longest: what a valid body
 * ends (self-exclusion, a password change, blocking, the dev clock, a loss limit that refuses every
 * later stake) and logouts come last.
 */
const ENDS_SOMETHING = /self-exclu|password\/change|\/block|\/dev\/clock|account\/close|loss-limits/
export function routesToFuzz(app: Application): ServedRoute[] {
  const rank = (r: ServedRoute) => (/logout/.test(r.path) ? 2 : ENDS_SOMETHING.test(r.path) ? 1 : 0)
  return [...servedRoutes(app)].sort((a, b) => rank(a) - rank(b))
}

/** The headers that put a case on site k: its host, or the default host and the target header (by turns). */
function onSite(fuzz: FuzzCase, ctx: FuzzContext, k: number): FuzzCase {
  const site = ctx.sites[k % ctx.sites.length]
  const byHost = (Math.floor(k / ctx.sites.length) + ctx.parity) % 2 === 0
  const headers: Record<string, string> = byHost ? { host: site.host } : { host: 'localhost', 'x-parlay-target': site.id }
  return { ...fuzz, label: `${fuzz.label} @${site.id}${byHost ? '' : ' (header)'}`, headers: { ...headers, ...fuzz.headers } }
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

/** Runs cases with a little concurrency; returns the failures as readable lines. `seen` gets every answer. */
export async function runCases(port: number, cases: FuzzCase[], concurrency = 4, seen?: (fuzz: FuzzCase, res: FuzzResponse) => void): Promise<string[]> {
  const failures: string[] = []
  let next = 0
  const worker = async () => {
    while (next < cases.length) {
      const fuzz = cases[next++]
      try {
        const res = await send(port, fuzz)
        seen?.(fuzz, res)
        const problem = judge(fuzz, res)
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

/** The valid bodies a route accepted (a 2xx under some site): proof the cases reach the handlers. */
export function acceptedValidBodies(): { seen: (fuzz: FuzzCase, res: FuzzResponse) => void; routes: Set<string> } {
  const routes = new Set<string>()
  return { routes, seen: (fuzz, res) => void (fuzz.label.startsWith('valid body @') && res.status < 300 && routes.add(`${fuzz.method} ${fuzz.path.split('?')[0]}`)) }
}

/** After a fuzz run: no 5xx was the judge's; here the money and the audit log. The ledger verifies
 * as `npm run ledger:verify` verifies it (every account of every punter recomputed from its
 * entries, each entry's balance-after, nothing below zero, withdrawable), no balance is negative,
 * and the audit log verifies. */
export async function expectMoneyAndAuditKept(server: TestServer, _before: Awaited<ReturnType<typeof moneyState>>): Promise<Awaited<ReturnType<typeof moneyState>>> {
  const after = await moneyState(server)
  const problems: string[] = []
  const ledger = await verifyLedger(server.deps.data.db)
  if (!ledger.ok) problems.push(`ledger: ${describeVerification(ledger)}`)
  if (after.negative > 0) problems.push(`${after.negative} negative balances`)
  const audit = await auditIntact(server)
  if (!audit.ok) problems.push(`audit log: ${audit.reason}`)
  if (problems.length > 0) throw new Error(problems.join('; '))
  return after
}

/** Every case of every route the app registers, each on a site in turn, with the sessions attached. */
export function allCases(app: Application, ctx: FuzzContext, seed: number, randomRuns: number): FuzzCase[] {
  let k = 0
  return routesToFuzz(app).flatMap((route, i) => casesFor(route, ctx, seed + i, randomRuns).map((c) => withSessions(onSite(c, ctx, c.site ?? k++), ctx.sessions)))
}

let keys = 0
const DRAFTED = 'popups/info.json'
/** A fresh idempotency key per body. */
const freshKey = () => `fuzz-${process.pid}-${++keys}`

/**
 * The real values the valid bodies and path params use: the punter's live selection and its price
 * (priced and unheld through the dev feed when it is there), an open bet and its cash-out offer, a
 * started deposit, a draft version, the sites and their hosts.
 */
export async function fuzzContext(server: TestServer, sessions: Sessions, parity: number): Promise<FuzzContext> {
  const call = (method: string, path: string, body?: unknown) =>
    rawRequest(server.port, { method, path, headers: { ...JSON_TYPE, 'x-forwarded-for': '10.8.8.9', 'punter-session-hash': sessions.punter?.hash ?? '', authorization: `Bearer ${sessions.punter?.accessToken ?? ''}` }, body: body === undefined ? undefined : JSON.stringify(body) })
  const line = (await call('GET', '/api/content/line?section=sport&state=live')).json().payload as { id: string; main: { selections: { id: string; price: number }[] } | null }[]
  const event = line.find((e) => e.main)!
  let selection = event.main!.selections[0]
  if (server.deps.config.development) {
    await call('POST', '/api/dev/feed/hold', { eventId: event.id, held: false })
    selection = { id: selection.id, price: (await call('POST', '/api/dev/feed/price', { selectionId: selection.id, price: 2.5 })).json().payload.selections[0].price }
  }
  const bet = (await call('POST', '/mobile-gate/api/v1/bets/place', { kind: 'single', selections: [{ selectionId: selection.id, price: selection.price }], stake: 1, idempotencyKey: freshKey() })).json().payload
  const payment = (await call('POST', '/mobile-gate/api/v1/payments/deposit', { amount: 10, method: 'card' })).json().payload
  const hints: Hints = {
    selectionId: selection.id,
    price: selection.price,
    eventId: event.id,
    stake: 1,
    amount: 10,
    idempotencyKey: freshKey,
    method: 'card',
    confirmation: 'ALWAYS',
    promoCode: 'casino25',
    login: 'opened@demo.parlay.test',
    password: 'parlay-demo-1',
    currentPassword: 'parlay-demo-1',
    punterHash: sessions.punter?.hash,
    product: 'casino',
    gameId: 'book-of-ra',
    locale: 'en',
    source: 'web',
    period: 'P6M',
    daysCount: 1,
    betId: bet?.betId,
    paymentId: payment?.paymentId,
    versionId: 1,
    // an operator's draft of a real document, changed a little
    file: DRAFTED,
    content: JSON.stringify({ ...JSON.parse(readFileSync(join(server.documentsDir, DRAFTED), 'utf8')), animation: 'slide' }, null, 2),
  }
  const sites = server.deps.documents.sites().map((site) => ({ id: site.id, host: site.hosts[0] ?? 'localhost' }))
  return { sessions, sites, hints, parity }
}

/** The counts that show money moved (ledger entries, bets) and how many balances are negative. */
export async function moneyState(server: TestServer): Promise<{ negative: number; entries: number; bets: number }> {
  const db = server.deps.data.db
  const negative = Number((await db.selectFrom('punters').select((eb) => eb.fn.countAll<number>().as('n')).where('balance_minor', '<', 0).executeTakeFirstOrThrow()).n)
  const entries = Number((await db.selectFrom('ledger_entries').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)
  const bets = Number((await db.selectFrom('bets').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)
  return { negative, entries, bets }
}

/** The audit log's verification, as `npm run audit:verify` does it on this server's engine. */
export async function auditIntact(server: TestServer): Promise<{ ok: boolean; entries: number; reason?: string }> {
  const dataDir = server.deps.config.dataDir
  const result = server.databaseUrl ? await verifyAuditDatabase(server.databaseUrl, dataDir) : verifyAuditFile(dataDir)
  return { ok: result.ok, entries: result.entries, ...(result.ok ? {} : { reason: result.reason }) }
}
