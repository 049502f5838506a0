/**
 * The OpenAPI 3.1 document of everything the server serves, at `GET /api/openapi.json`.
 *
 * It is generated from the running Express app so it cannot drift: the paths and methods are read
 * from the router stack (a new route appears without editing anything here), each request body or
 * query schema is the very object its validation middleware validates with (server/http/validate.ts
 * tags the middleware), and a session check's tag makes the operation secured. The notes listed in
 * server/openapi-notes.ts (summaries, error codes, non-envelope answers) are laid over the
 * generated operations, only for routes that are really served.
 */
import type { Application, Request, Response } from 'express'
import { GATEWAY, type ServerDeps } from '../deps'
import { mountApiPage } from '../http/api-page'
import { ERROR_ENVELOPE, type HttpMethod, type Operation } from '../http/openapi-registry'
import { documented, routeDocsOf, type RouteDocs, type SecurityScheme } from '../http/route-docs'
import { openApiNotes } from '../openapi-notes'

export { openapi, ERROR_ENVELOPE } from '../http/openapi-registry'

const MODULE_TAG = Symbol.for('parlay.moduleTag')
const METHODS: readonly HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete']

interface RouteLayer {
  handle: unknown
  method?: string
}
interface Layer {
  handle: { stack?: Layer[] } | unknown
  rawPath?: unknown
  route?: { path: unknown; methods: Record<string, boolean>; stack: RouteLayer[] }
  [MODULE_TAG]?: string
}

/** One method on one path, as the app serves it. */
export interface ServedRoute {
  method: HttpMethod
  /** OpenAPI form: `/admin/api/versions/{id}`. */
  path: string
  /** Express form: `/admin/api/versions/:id`. */
  expressPath: string
  /** The server module that mounted it. */
  module: string
  handlers: unknown[]
}

const stackOf = (app: Application): Layer[] => (app as unknown as { router: { stack: Layer[] } }).router.stack

/** How many layers the app has now; with `labelModuleLayers`, marks what a module mounts. */
export const layerCount = (app: Application): number => stackOf(app).length

/** Labels the layers added since `from` with the module's name (its operations' default tag). */
export function labelModuleLayers(app: Application, from: number, module: string): void {
  for (const layer of stackOf(app).slice(from)) layer[MODULE_TAG] ??= module
}

function joinPath(prefix: string, path: string): string {
  const joined = (prefix + (path === '/' ? '' : path)).replace(/\/{2,}/g, '/')
  return joined.length > 1 ? joined.replace(/\/$/, '') : '/'
}

/** `/a/:id/*rest` → `/a/{id}/{rest}`; an optional group `{…}` gives the path with and without it. */
export function openApiPaths(expressPath: string): string[] {
  const group = /\{([^{}]*)\}/.exec(expressPath)
  if (group) {
    const before = expressPath.slice(0, group.index)
    const after = expressPath.slice(group.index + group[0].length)
    return [...openApiPaths(before + group[1] + after), ...openApiPaths(before + after)]
  }
  return [joinPath('', expressPath.replace(/[:*]([A-Za-z_$][\w$]*)/g, '{$1}'))]
}

/** Mount paths as strings (a RegExp mount cannot be written as an OpenAPI path and is skipped). */
const pathsOf = (value: unknown): string[] => (typeof value === 'string' ? [value] : Array.isArray(value) ? value.flat(Infinity).filter((p): p is string => typeof p === 'string') : [])

const childStack = (layer: Layer): Layer[] | undefined => {
  const stack = (layer.handle as { stack?: unknown } | undefined)?.stack
  return Array.isArray(stack) ? (stack as Layer[]) : undefined
}

function routesOfLayer(layer: Layer, prefix: string, module: string): ServedRoute[] {
  const route = layer.route!
  const served: ServedRoute[] = []
  for (const method of METHODS.filter((m) => route.methods[m]))
    for (const mount of pathsOf(route.path)) {
      const expressPath = joinPath(prefix, mount)
      const handlers = route.stack.filter((l) => !l.method || l.method === method).map((l) => l.handle)
      for (const path of openApiPaths(expressPath)) served.push({ method, path, expressPath, module, handlers })
    }
  return served
}

/** Every route of the app, in the order Express matches them (duplicates merged, their handlers in order). */
export function servedRoutes(app: Application): ServedRoute[] {
  const found: ServedRoute[] = []
  const walk = (stack: Layer[], prefix: string, inherited: string) => {
    for (const layer of stack) {
      const module = layer[MODULE_TAG] ?? inherited
      const children = childStack(layer)
      if (layer.route) found.push(...routesOfLayer(layer, prefix, module))
      else if (children) for (const mount of pathsOf(layer.rawPath)) walk(children, joinPath(prefix, mount), module)
    }
  }
  walk(stackOf(app), '', 'meta')
  // a method and path registered twice (a guard, then the handler: the admin router's scope check
  // before the releases router's route) is one route whose handlers run in that order
  const byKey = new Map<string, ServedRoute>()
  for (const route of found) {
    const key = `${route.method} ${route.path}`
    const first = byKey.get(key)
    if (first) first.handlers = [...first.handlers, ...route.handlers]
    else byKey.set(key, { ...route })
  }
  return [...byKey.values()]
}

/** The accounts router's session check is a named function (server/auth/router.ts), not tagged. */
const NAMED_SESSION_CHECKS: Record<string, RouteDocs> = { requireSession: { security: ['punterSessionHash'] } }

/** What the route's middleware declares (validation schemas, session checks). */
export function routeDocs(route: Pick<ServedRoute, 'handlers'>): RouteDocs {
  return route.handlers.reduce<RouteDocs>((docs, handler) => {
    const own = routeDocsOf(handler) ?? (typeof handler === 'function' ? NAMED_SESSION_CHECKS[handler.name] : undefined)
    return own ? { ...docs, ...own, security: [...(docs.security ?? []), ...(own.security ?? [])] } : docs
  }, {})
}

/**
 * The admin API checks its session in one router-level middleware (server/admin/router.ts): every
 * `/admin/api` call but the sign-in steps needs the cookie, and a changing call also the x-csrf-token header.
 */
const ADMIN_API = '/admin/api/'
/** The sign-in steps (server/admin/sign-in.ts): the only admin calls without a session. */
const ADMIN_SIGN_IN = new Set(['/admin/api/login', '/admin/api/login/second-factor', '/admin/api/login/enrol'])

function securityOf(route: ServedRoute, docs: RouteDocs): SecurityScheme[] {
  if (route.path.startsWith(ADMIN_API) && !ADMIN_SIGN_IN.has(route.path)) return ['adminSession']
  return [...new Set(docs.security ?? [])]
}

function parametersOf(route: ServedRoute, docs: RouteDocs, security: SecurityScheme[]): object[] {
  const path = [...route.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }))
  const query = docs.query as { properties?: Record<string, object>; required?: readonly string[] } | undefined
  const queryParameters = Object.entries(query?.properties ?? {}).map(([name, schema]) => ({ name, in: 'query', required: query?.required?.includes(name) ?? false, schema }))
  const csrf = security.includes('adminSession') && route.method !== 'get' ? [{ name: 'x-csrf-token', in: 'header', required: true, schema: { type: 'string' }, description: 'The CSRF token of the admin session (GET /admin/api/session).' }] : []
  return [...path, ...queryParameters, ...csrf]
}

const words = (path: string) =>
  path
    .replace(GATEWAY.mobile, '')
    .split('/')
    .filter((s) => s && !s.startsWith('{'))
    .join(' ')

/** A stable operationId from the method and the path. */
const operationId = (route: ServedRoute) =>
  route.method +
  route.path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((s) => s[0].toUpperCase() + s.slice(1))
    .join('')

function generatedOperation(route: ServedRoute): Operation {
  const docs = routeDocs(route)
  const security = securityOf(route, docs)
  const parameters = parametersOf(route, docs, security)
  const responses: Record<string, object> = { 200: { $ref: '#/components/responses/Ok' } }
  if (docs.body || docs.query) responses[400] = { $ref: '#/components/responses/BadInput' }
  if (security.length > 0) responses[401] = { $ref: '#/components/responses/Unauthorized' }
  responses.default = { $ref: '#/components/responses/Error' }
  return {
    tags: [docs.tag ?? route.module],
    summary: `${route.method.toUpperCase()} ${words(route.path) || route.path}`,
    operationId: operationId(route),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(docs.body ? { requestBody: { required: !docs.bodyOptional, content: { 'application/json': { schema: docs.body } } } } : {}),
    ...(security.length > 0 ? { security: security.map((scheme) => ({ [scheme]: [] })) } : {}),
    responses,
  }
}

/** The generated operation with the registered note laid over it; the validated schema always wins. */
export function operationFor(route: ServedRoute): Operation {
  const generated = generatedOperation(route)
  const note = openApiNotes()[route.path]?.[route.method]
  if (!note) return generated
  const merged: Operation = { ...generated, ...note, responses: { ...(generated.responses as object), ...(note.responses as object | undefined) } }
  if (generated.requestBody) merged.requestBody = generated.requestBody
  if (generated.parameters || note.parameters) merged.parameters = [...((generated.parameters as object[]) ?? []), ...((note.parameters as object[]) ?? [])]
  return merged
}

const TAGS: Record<string, string> = {
  meta: 'The service itself: liveness and this document.',
  documents: 'Documents API: the site bootstrap, documents, remote config and translations, resolved per site, locale and platform (ETag, 304).',
  experiments: 'Experiment service: config, geo and web-builder pages for the experiment client.',
  accounts: 'Accounts calls behind the mobile gate (spec §7) not yet filed under session or user.',
  session: 'Session (spec §7): login by each method, captcha, token refresh, logout.',
  user: 'User (spec §7): heartbeat user data, settings, legal agreement, nickname, VIP, identity state.',
  validators: 'Precompiled form validators for flows, and the demo contact form.',
  content: 'Demo content for the lobby: games, events and their tiles.',
  signup: 'Registration and bonus (spec §7), behind the mobile gate.',
  dictionary: 'Dictionaries (spec §7): countries, currencies, settings, Italy provinces, address search, odds types, time zones, available timeouts, betting modes.',
  identity: 'Identity (spec §7): the Russian identity service, MitID, Belarus document upload.',
  development: 'Development extras (npm run dev only): the public outbox and the simulators\u2019 pages.',
  credentials: 'Credentials (spec §3 password flow modes, §7): lost password, create and change password, secret question, e-mail, one-time token logins, open-profile, join form save and load.',
  admin: 'Operators and compliance: drafts, reviews, publishing, waivers, the audit log, the message outbox.',
  payments: 'Money (issue 12): payment sources, deposits through the provider (3-D Secure, return via /threedsconfirm), deposit limits, promo-code bonuses.',
  bets: 'Bets (issue 14): the bet slip\'s selections, placing singles and accumulators once per idempotency key, open and settled bets, cash-out.',
  games: 'Games (issue 14): launching lobby games, rounds of the demo slot and crash engines through the balance, favourites per product.',
}

const COMPONENTS = {
  securitySchemes: {
    punterSessionHash: { type: 'apiKey', in: 'header', name: 'punter-session-hash', description: 'The session hash from login; an Authorization: Bearer access token may go with it and must then be live too.' },
    accessToken: { type: 'http', scheme: 'bearer' },
    adminSession: { type: 'apiKey', in: 'cookie', name: 'parlay_admin', description: 'The admin session cookie (HttpOnly, SameSite=Strict, Secure over TLS).' },
  },
  schemas: {
    ErrorEnvelope: ERROR_ENVELOPE,
    OkEnvelope: { type: 'object', required: ['status', 'payload'], properties: { status: { const: 'OK' }, payload: {} } },
  },
  responses: {
    Ok: { description: 'Done: the envelope with the payload.', content: { 'application/json': { schema: { $ref: '#/components/schemas/OkEnvelope' } } } },
    BadInput: { description: 'Bad input: ValidationError (payload names the field and the rule), MALFORMED_JSON, UNSUPPORTED_MEDIA_TYPE, PAYLOAD_TOO_LARGE.', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } },
    Unauthorized: { description: 'No live session: UNAUTHORIZED.', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } },
    Error: { description: 'Any other refusal, with a spec §8 code; never a stack trace.', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } },
  },
}

function pathsDocument(routes: ServedRoute[]): Record<string, Record<string, Operation>> {
  const paths: Record<string, Record<string, Operation>> = {}
  for (const route of [...routes].sort((a, b) => a.path.localeCompare(b.path))) (paths[route.path] ??= {})[route.method] = operationFor(route)
  return paths
}

function tagsOf(paths: Record<string, Record<string, Operation>>) {
  const used = new Set(Object.values(paths).flatMap((item) => Object.values(item).flatMap((op) => (op.tags as string[] | undefined) ?? [])))
  return [...used].sort().map((name) => ({ name, ...(TAGS[name] ? { description: TAGS[name] } : {}) }))
}

export function openApiDocument(app: Application, deps: Pick<ServerDeps, 'config'>) {
  const paths = pathsDocument(servedRoutes(app))
  return {
    openapi: '3.1.0',
    info: {
      title: 'Parlay',
      version: deps.config.version,
      description: `Every route the server serves, generated from its router. Gateway prefixes: mobile ${GATEWAY.mobile}, client ${GATEWAY.client} (the mobile gate's calls under its own prefix), uniweb ${GATEWAY.uniweb}. API answers are {"status":"OK","payload":…} or {"status":"ERROR","errorCode":"…"}. Any other GET path is the single-page app (200 for a page in the site's route manifest, 404 otherwise) or a built asset.`,
    },
    servers: [{ url: '/' }],
    tags: tagsOf(paths),
    paths,
    components: COMPONENTS,
  }
}

/** Serves the document, and the page that shows it (/docs/api); built once per app on first request (routes do not change after start). */
export function mountOpenApi(app: Application, deps: Pick<ServerDeps, 'config'>): void {
  let built: object | undefined
  let body: string | undefined
  const documentOf = (req: Request) => (built ??= openApiDocument(req.app, deps))
  const serve = (req: Request, res: Response) => {
    body ??= JSON.stringify(documentOf(req))
    res.setHeader('Cache-Control', 'no-cache')
    res.type('application/json').send(body)
  }
  app.get('/api/openapi.json', documented(serve, { tag: 'meta' }))
  mountApiPage(app, documentOf)
}
