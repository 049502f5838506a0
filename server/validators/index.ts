/**
 * Server module `validators`: precompiled form validators for the browser, and the same rules on
 * the server.
 *
 * HTTP
 *   GET  /api/flows/{flowId}/validator      → {"url": "/api/validators/{flowId}.{hash}.js", "flow", "hash"}
 *        (the flow resolved for the request's site, like the documents API; Cache-Control no-cache)
 *   GET  /api/validators/{flowId}.{hash}.js → the ES module (text/javascript, immutable, 1 year)
 *   POST /api/demo/contact                  → the `demo-contact` flow's submit: stored (server/contact/routes.ts)
 *
 * Node API (for endpoints of other modules, e.g. sign-up)
 *   validateFlowStep(flow, stepId, data)    → {field, code}[] (empty = valid)
 *   validateFlowData(flow, data, stepIds?)  → the same over several steps' merged data
 *   resolveFlow(deps, req, flowId)          → the flow document served to this request's site
 *
 * Caching: compiled schemas and bundled modules are kept in memory by a hash of the flow's step
 * schemas, so each document version compiles once (and a changed title does not recompile).
 */
import type { Application, Request, Response } from 'express'
import { Router } from 'express'
import type { FlowDocument } from '../../kernel/documents/types'
import { checkDefaultDateBounds, isoDate } from '../../kernel/core/date-rules'
import type { ServerDeps } from '../deps'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { siteContext } from '../http/site'
import { previewJurisdiction, resolvePreview } from '../store/preview'
import { inCandidate } from '../documents/candidate'
import type { ServerModule } from '../module'
import { createContactRouter } from '../contact/routes'
import {
  bundleFlowValidators,
  cachedFlowSchemas,
  flowSchemaKey,
  toFieldErrors,
  type CompiledFlowSchemas,
  type CompiledFlowValidators,
  type FieldError,
  type FlowLike,
} from './compile'

export { compileFlowValidators, compileFlowSchemas, normalizeStepSchema, stepSchemaId, toFieldErrors } from './compile'
export type { CompiledFlowValidators, FieldError, FlowLike } from './compile'

export const VALIDATORS_PATH = '/api/validators'
const MAX_CACHED = 200

const moduleCache = new Map<string, Promise<CompiledFlowValidators>>()
const modulesByHash = new Map<string, CompiledFlowValidators>()
/** Hashes of modules compiled from a served flow: anyone may fetch these. A hash only a draft
 * preview produced is served only to the admin session of that preview (see the module route). */
const servedHashes = new Set<string>()

function remember<V>(map: Map<string, V>, key: string, value: V): V {
  map.delete(key)
  map.set(key, value)
  while (map.size > MAX_CACHED) map.delete(map.keys().next().value as string)
  return value
}

/** The ajv side of a flow, compiled once per version of its step schemas. */
export function flowSchemas(flow: FlowLike): CompiledFlowSchemas {
  return cachedFlowSchemas(flow)
}

/** The browser module of a flow, bundled once per version of its step schemas. */
export function flowValidatorModule(flow: FlowLike): Promise<CompiledFlowValidators> {
  const key = flowSchemaKey(flow)
  const cached = moduleCache.get(key)
  if (cached) return cached
  const pending = (async () => {
    const compiled = await bundleFlowValidators(flowSchemas(flow))
    remember(modulesByHash, compiled.hash, compiled)
    return compiled
  })()
  pending.catch(() => moduleCache.delete(key))
  return remember(moduleCache, key, pending)
}

/** The exports of a flow's browser module, as the browser's `import()` of it answers. */
export interface ValidatorModuleExports {
  flow: string
  schemas: Record<string, Record<string, unknown>>
  validators: Record<string, unknown>
}
const importedModules = new Map<string, Promise<ValidatorModuleExports>>()

/**
 * The flow's browser module imported here, the very code the browser imports: the server renders a
 * page's forms with it (engine/ssr.tsx, issue 10), so their markup is the browser's.
 * Imported once per module hash (a data: URL; Node keeps each, as it keeps any imported module:
 * one per version of a flow's step schemas).
 */
export async function importFlowValidatorModule(flow: FlowLike): Promise<ValidatorModuleExports> {
  const compiled = await flowValidatorModule(flow)
  const known = importedModules.get(compiled.hash)
  if (known) return known
  const pending = (import(`data:text/javascript;base64,${Buffer.from(compiled.code).toString('base64')}`) as Promise<ValidatorModuleExports>).then(
    ({ flow: id, schemas, validators }) => ({ flow: id, schemas, validators }),
  )
  pending.catch(() => importedModules.delete(compiled.hash))
  importedModules.set(compiled.hash, pending)
  return pending
}

export const validatorUrl = (compiled: Pick<CompiledFlowValidators, 'flowId' | 'hash'>): string =>
  `${VALIDATORS_PATH}/${compiled.flowId}.${compiled.hash}.js`

export interface ValidateOptions {
  /** Clock for the default date bounds (max = today); defaults to Date.now. */
  now?: number
}

/** "Today" on the server: the latest calendar date anywhere (UTC+14), so no punter's today is refused. */
const serverToday = (now: number) => isoDate(now, 14 * 60)

/**
 * Validates one step's data with the same compiled schema the browser module carries, plus the
 * default date bounds (spec §5). Returns `{field, code}[]`; empty means valid.
 * Throws for a step id the flow does not have (a programming error, not bad input).
 */
export function validateFlowStep(flow: FlowLike, stepId: string, data: unknown, options: ValidateOptions = {}): FieldError[] {
  const compiled = flowSchemas(flow)
  const validate = compiled.validate[stepId]
  if (!validate) throw new Error(`flow ${flow.id} has no step ${JSON.stringify(stepId)}`)
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return [{ field: '', code: 'type' }]
  const errors = validate(data) ? [] : toFieldErrors(validate.errors)
  const dates = checkDefaultDateBounds(compiled.schemas[stepId], data, serverToday(options.now ?? Date.now()))
  return [...errors, ...dates]
}

/**
 * Validates the merged data of several steps (by default every step): each step gets the fields
 * its schema declares; a field no step declares is `unknownField`.
 */
export function validateFlowData(flow: FlowLike, data: unknown, stepIds?: readonly string[], options: ValidateOptions = {}): FieldError[] {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return [{ field: '', code: 'type' }]
  const record = data as Record<string, unknown>
  const steps = flow.steps.filter((s) => !stepIds || stepIds.includes(s.id))
  const claimed = new Set<string>()
  const errors: FieldError[] = []
  for (const step of steps) {
    const fields = Object.keys((step.schema.properties as Record<string, unknown> | undefined) ?? {})
    for (const f of fields) claimed.add(f)
    const slice = Object.fromEntries(Object.entries(record).filter(([k]) => fields.includes(k)))
    errors.push(...validateFlowStep(flow, step.id, slice, options))
  }
  for (const key of Object.keys(record)) if (!claimed.has(key)) errors.push({ field: key, code: 'unknownField' })
  return errors
}

/** The flow document served to this request's site (jurisdiction, locale, platform). */
export function resolveFlow(deps: Pick<ServerDeps, 'documents'>, req: Request, flowId: string): FlowDocument | undefined {
  const record = deps.documents.resolve('flow', flowId, siteContext(req, deps))
  return record?.source as unknown as FlowDocument | undefined
}

const asFlow = (doc: FlowDocument): FlowLike => doc as unknown as FlowLike
const FLOW_ID = /^[a-z0-9][a-z0-9-]{0,79}$/
const MODULE_FILE = /^([a-z0-9][a-z0-9-]{0,79})\.([0-9a-f]{16})\.js$/

async function compileLogged(deps: ServerDeps, flow: FlowLike): Promise<CompiledFlowValidators> {
  const fresh = !moduleCache.has(flowSchemaKey(flow))
  const compiled = await flowValidatorModule(flow)
  if (fresh)
    deps.log.info('validators.compiled', {
      flow: flow.id,
      compileMs: Math.round(compiled.compileMs * 10) / 10,
      bundleMs: Math.round(compiled.bundleMs * 10) / 10,
      bytes: compiled.code.length,
      url: validatorUrl(compiled),
    })
  return compiled
}

/** The demo rule only the server knows (the browser cannot check it): shows a server field error. */
export const DEMO_TAKEN_EMAIL = 'taken@example.com'

export function createValidatorsRouter(deps: ServerDeps): Router {
  const router = Router()

  router.get('/api/flows/:id/validator', async (req: Request, res: Response) => {
    const id = String(req.params.id)
    if (!FLOW_ID.test(id)) return sendError(res, 400, 'INVALID_DOCUMENT_ID')
    // An admin's draft preview (server/store/preview.ts): the draft's step schemas, only for the session
    // that made it; anyone else (or a preview without the flows cookie) gets the published module.
    const preview = typeof req.query.preview === 'string' ? await resolvePreview(req.query.preview, 'flow', id, siteContext(req, deps), deps.now(), req.headers.cookie) : undefined
    const draft = preview?.status === 'draft'
    const flow = draft ? (preview.record.source as unknown as FlowDocument) : resolveFlow(deps, req, id)
    if (!flow) return sendError(res, 404, HTTP_ERRORS.notFound)
    try {
      const compiled = await compileLogged(deps, asFlow(flow))
      // a publish gate's candidate (server/documents/candidate.ts) is no served module either
      if (!draft && !inCandidate()) servedHashes.add(compiled.hash)
      res.setHeader('Cache-Control', 'no-cache')
      res.setHeader('Vary', 'Host, Accept-Language, x-parlay-source, x-parlay-target')
      // A draft's own module is fetched with its preview token (and the viewer's cookie) only.
      const url = draft && !servedHashes.has(compiled.hash) ? `${validatorUrl(compiled)}?preview=${encodeURIComponent(String(req.query.preview))}` : validatorUrl(compiled)
      res.json({ url, flow: compiled.flowId, hash: compiled.hash })
    } catch (error) {
      deps.log.error('validators.compile.failed', { flow: id, error: (error as Error).message })
      sendError(res, 500, HTTP_ERRORS.internal)
    }
  })

  router.get(`${VALIDATORS_PATH}/:file`, async (req: Request, res: Response) => {
    const match = MODULE_FILE.exec(String(req.params.file))
    if (!match) return sendError(res, 404, HTTP_ERRORS.notFound)
    const [, flowId, hash] = match
    // Not known as a served module (a restart, an eviction, or a draft's): compile every served variant of that flow.
    if (!servedHashes.has(hash))
      for (const record of deps.documents.list('flow').filter((r) => r.id === flowId)) {
        try {
          servedHashes.add((await compileLogged(deps, asFlow(record.source as unknown as FlowDocument))).hash)
        } catch {
          // a broken variant does not hide the others
        }
      }
    const compiled = modulesByHash.get(hash)
    if (!compiled || compiled.flowId !== flowId) return sendError(res, 404, HTTP_ERRORS.notFound)
    if (!servedHashes.has(hash)) return sendDraftModule(req, res, compiled)
    res.setHeader('Content-Type', 'text/javascript; charset=utf-8')
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable')
    res.send(compiled.code)
  })

  /** A module only a draft produced: for the admin session whose preview shows that draft, never cached. */
  const sendDraftModule = async (req: Request, res: Response, compiled: CompiledFlowValidators) => {
    const token = typeof req.query.preview === 'string' ? req.query.preview : ''
    // A module import carries no site header: the token names the site its preview renders.
    const site = { ...siteContext(req, deps), jurisdiction: previewJurisdiction(token, deps.now()) ?? '' }
    const answer = token ? await resolvePreview(token, 'flow', compiled.flowId, site, deps.now(), req.headers.cookie) : undefined
    const draftHash = answer?.status === 'draft' ? (await flowValidatorModule(asFlow(answer.record.source as unknown as FlowDocument))).hash : undefined
    if (draftHash !== compiled.hash) return sendError(res, 404, HTTP_ERRORS.notFound)
    res.setHeader('Content-Type', 'text/javascript; charset=utf-8')
    res.setHeader('Cache-Control', 'private, no-store')
    res.send(compiled.code)
  }

  // the contact form's submit: stored, throttled, answered with its reference (server/contact/routes.ts)
  router.use(
    createContactRouter(deps, (req) => {
      const flow = resolveFlow(deps, req, 'demo-contact')
      if (!flow) return 'NO_FLOW'
      const errors = validateFlowData(asFlow(flow), req.body, undefined, { now: deps.now() })
      if (errors.length > 0) return errors
      const body = req.body as { email?: string }
      return String(body.email).trim().toLowerCase() === DEMO_TAKEN_EMAIL ? [{ field: 'email', code: 'DUPLICATE_EMAIL' }] : []
    }),
  )

  return router
}

/** Compiles every flow at start (in the background) so the first punter does not wait for it. */
function warmUp(deps: ServerDeps): void {
  const flows = deps.documents.list('flow')
  void (async () => {
    for (const record of flows) {
      try {
        servedHashes.add((await compileLogged(deps, asFlow(record.source as unknown as FlowDocument))).hash)
      } catch (error) {
        deps.log.error('validators.compile.failed', { flow: record.id, file: record.file, error: (error as Error).message })
      }
    }
  })()
}

export function createValidatorsModule(): ServerModule {
  return {
    name: 'validators',
    mount(app: Application, deps: ServerDeps) {
      app.use(createValidatorsRouter(deps))
      warmUp(deps)
    },
  }
}
