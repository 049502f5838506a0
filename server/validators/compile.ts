/**
 * Precompiled form validators.
 *
 * The browser must not compile JSON Schemas (ajv compiles with `new Function`, the site's CSP
 * forbids `unsafe-eval`), so the server compiles every step schema of a flow with ajv's standalone
 * mode, bundles the generated code with esbuild into one self-contained ES module (no bare
 * imports, no eval) and serves it content-hashed. The SAME ajv instance that generated the code
 * validates the step on the server: one declaration, enforced twice, by the same compiled rules.
 *
 * The module exports:
 *   flow        the flow id
 *   schemas     { [stepId]: the normalized step schema (with its $id) } — the client renders THESE
 *               so rjsf's precompiled validator sees exactly the root schema it was compiled for
 *   validators  { [$id or rjsf schema hash]: validate function } — for `createPrecompiledValidator`
 */
import { schemaParser, type RJSFSchema } from '@rjsf/utils'
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import standaloneCode from 'ajv/dist/standalone/index.js'
import { build, type Plugin } from 'esbuild'
import { createHash } from 'node:crypto'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { AJV_SOURCE, ajvCacheKey, loadCachedModule, storeCachedModule } from '../../tools/schema-lint'

/** Where `require("ajv/…")` and `require("ajv-formats/…")` in the generated code resolve from. */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** The ajv options of @rjsf/validator-ajv8 (AJV_CONFIG), so rjsf sees the errors it expects. */
export const AJV_OPTIONS = { allErrors: true, multipleOfPrecision: 8, strict: false, verbose: true, discriminator: false } as const

export interface FlowStepLike {
  id: string
  schema: Record<string, unknown>
}
export interface FlowLike {
  id: string
  steps: readonly FlowStepLike[]
}

export interface CompiledFlowValidators {
  flowId: string
  /** Content hash of `code`: the cache-busting part of the URL. */
  hash: string
  /** The bundled ES module. */
  code: string
  /** Normalized step schemas by step id (with `$id`). */
  schemas: Record<string, Record<string, unknown>>
  /** Server-side validators by step id, from the same ajv instance that generated `code`. */
  validate: Record<string, ValidateFunction>
  /** ajv compile + standalone code generation, ms. */
  compileMs: number
  /** esbuild bundling, ms. */
  bundleMs: number
}

export const STEP_SCHEMA_BASE = 'https://parlay.example/flows/'
export const stepSchemaId = (flowId: string, stepId: string): string => `${STEP_SCHEMA_BASE}${flowId}/${stepId}.json`

const COMPOSITION_KEYS = ['allOf', 'anyOf', 'oneOf', 'if', 'dependencies', 'dependentSchemas', 'patternProperties', 'unevaluatedProperties', '$ref']

/**
 * The step schema as both sides enforce it: `$id` derived from flow id + step id (rjsf looks the
 * root validator up by `$id`), and — for a plain object schema that does not say otherwise —
 * `additionalProperties: false`, so the server rejects unknown fields (no mass assignment).
 */
export function normalizeStepSchema(flowId: string, step: FlowStepLike): Record<string, unknown> {
  const schema: Record<string, unknown> = { ...structuredClone(step.schema), $id: stepSchemaId(flowId, step.id) }
  delete schema.$schema
  const plainObject = schema.type === 'object' && !COMPOSITION_KEYS.some((k) => k in schema)
  if (plainObject && schema.additionalProperties === undefined) schema.additionalProperties = false
  return schema
}

function virtualModule(name: string, contents: string, resolveDir: string): Plugin {
  return {
    name: `virtual-${name}`,
    setup(b) {
      b.onResolve({ filter: new RegExp(`^virtual:${name}$`) }, () => ({ path: name, namespace: 'parlay-virtual' }))
      b.onLoad({ filter: /.*/, namespace: 'parlay-virtual' }, () => ({ contents, loader: 'js', resolveDir }))
    },
  }
}

/** The ajv side of a flow: normalized schemas, server validators, standalone code. Synchronous. */
export interface CompiledFlowSchemas {
  flowId: string
  /** Hash of what the validators depend on (flow id, step ids, step schemas). */
  key: string
  schemas: Record<string, Record<string, unknown>>
  validate: Record<string, ValidateFunction>
  standalone: string
  compileMs: number
}

/** Hash of the parts of a flow its validators depend on: a new title does not recompile. */
export function flowSchemaKey(flow: FlowLike): string {
  const relevant = { id: flow.id, steps: flow.steps.map((s) => ({ id: s.id, schema: s.schema })) }
  return createHash('sha256').update(JSON.stringify(relevant)).digest('hex').slice(0, 20)
}

/** Compiles every step schema of a flow with one ajv instance. Throws on an invalid schema. */
export function compileFlowSchemas(flow: FlowLike): CompiledFlowSchemas {
  const started = performance.now()
  const schemas: Record<string, Record<string, unknown>> = {}
  const all = new Map<string, RJSFSchema>()
  for (const step of flow.steps) {
    const schema = normalizeStepSchema(flow.id, step)
    schemas[step.id] = schema
    // The root and every sub-schema rjsf will call isValid() with (anyOf/oneOf options, …).
    for (const [key, sub] of Object.entries(schemaParser(schema as RJSFSchema))) if (!all.has(key)) all.set(key, sub)
  }
  const { validate, standalone } = stepValidators(flow, all)
  return { flowId: flow.id, key: flowSchemaKey(flow), schemas, validate, standalone, compileMs: performance.now() - started }
}

/** The steps' validators and their standalone module: compiled, or loaded from the ajv cache (tools/schema-lint/documents/ajv-cache.ts). */
function stepValidators(flow: FlowLike, all: Map<string, RJSFSchema>): { validate: Record<string, ValidateFunction>; standalone: string } {
  const cacheKey = ajvCacheKey('flow', AJV_OPTIONS, [...all.entries()])
  const stored = loadCachedModule(cacheKey)
  const ajv = stored ? undefined : new Ajv({ ...AJV_OPTIONS, ...AJV_SOURCE, schemas: [...all.values()] })
  if (ajv) addFormats(ajv)
  const validate: Record<string, ValidateFunction> = {}
  for (const step of flow.steps) {
    const id = stepSchemaId(flow.id, step.id)
    const fn = stored ? stored.exports[id] : ajv!.getSchema(id)
    if (!fn) throw new Error(`flow ${flow.id}: step ${step.id}: schema did not compile`)
    validate[step.id] = fn as ValidateFunction
  }
  if (stored) return { validate, standalone: stored.code }
  const standalone = standaloneCode(ajv!)
  storeCachedModule(cacheKey, standalone)
  return { validate, standalone }
}

const schemaCache = new Map<string, CompiledFlowSchemas>()
const MAX_CACHED_SCHEMAS = 200

/** The ajv side of a flow, compiled once per version of its step schemas (the served set's check
 * at install, server/documents/set-check.ts, and the validators module share it). */
export function cachedFlowSchemas(flow: FlowLike): CompiledFlowSchemas {
  const key = flowSchemaKey(flow)
  const known = schemaCache.get(key)
  if (known) return known
  const compiled = compileFlowSchemas(flow)
  schemaCache.set(key, compiled)
  while (schemaCache.size > MAX_CACHED_SCHEMAS) schemaCache.delete(schemaCache.keys().next().value as string)
  return compiled
}

/** Bundles the standalone code into one self-contained ES module (esbuild). */
export async function bundleFlowValidators(compiled: CompiledFlowSchemas): Promise<CompiledFlowValidators> {
  const started = performance.now()
  const entry = [
    `import validators from 'virtual:standalone'`,
    `export const flow = ${JSON.stringify(compiled.flowId)}`,
    `export const schemas = ${JSON.stringify(compiled.schemas)}`,
    `export { validators }`,
    `export default validators`,
  ].join('\n')
  const result = await build({
    stdin: { contents: entry, resolveDir: ROOT, loader: 'js', sourcefile: `${compiled.flowId}.validators.js` },
    plugins: [virtualModule('standalone', compiled.standalone, ROOT)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  })
  const code = `/* Parlay precompiled validators: flow ${compiled.flowId} */\n${result.outputFiles[0].text}`
  if (/new Function|(^|[^A-Za-z0-9_$.])eval\(/.test(code)) throw new Error(`flow ${compiled.flowId}: generated validator module contains eval/new Function`)
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16)
  return {
    flowId: compiled.flowId,
    hash,
    code,
    schemas: compiled.schemas,
    validate: compiled.validate,
    compileMs: compiled.compileMs,
    bundleMs: performance.now() - started,
  }
}

/** Compiles and bundles the validators of every step of a flow. Throws on an invalid schema. */
export async function compileFlowValidators(flow: FlowLike): Promise<CompiledFlowValidators> {
  return bundleFlowValidators(compileFlowSchemas(flow))
}

export interface FieldError {
  field: string
  /** ajv keyword (`required`, `format`, `minLength` …), `unknownField`, or a product error code. */
  code: string
  /** The bound of a minLength, maxLength, minimum, maximum, formatMinimum … error: its text shows it. */
  limit?: number | string
}

/** ajv errors → `{field, code}` (dotted field path), one entry per field and code. */
export function toFieldErrors(errors: readonly ErrorObject[] | null | undefined): FieldError[] {
  const out: FieldError[] = []
  const seen = new Set<string>()
  for (const error of errors ?? []) {
    // if/then wrappers repeat the real error.
    if (error.keyword === 'if') continue
    const base = error.instancePath.replace(/^\//, '').split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')).filter(Boolean).join('.')
    let field = base
    let code = error.keyword
    if (error.keyword === 'required') field = [base, String(error.params.missingProperty)].filter(Boolean).join('.')
    if (error.keyword === 'additionalProperties') {
      field = [base, String(error.params.additionalProperty)].filter(Boolean).join('.')
      code = 'unknownField'
    }
    const key = `${field}\u0000${code}`
    if (seen.has(key)) continue
    seen.add(key)
    const limit = (error.params as { limit?: unknown }).limit
    out.push(typeof limit === 'number' || typeof limit === 'string' ? { field, code, limit } : { field, code })
  }
  return out
}
