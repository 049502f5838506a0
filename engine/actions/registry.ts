/**
 * The typed action registry and the chain runner.
 *
 * An action is defined once, as data, in ./definitions (name, description, a JSON Schema of its
 * params); `defineAction` implements one by name with an async handler returning a Result, its
 * params typed from that schema with json-schema-to-ts. Documents invoke chains: `[{ "do": "nav.go", "with": {...}, "when": …, "onError": {…} }]`.
 * The runner never throws and never breaks the page: an unknown action is reported and stops the
 * chain with UNKNOWN_ACTION; a throwing handler becomes ACTION_FAILED.
 */
import type { FromSchema, JSONSchema } from 'json-schema-to-ts'
import type { Result } from '../../kernel/core/contracts'
import type { EvaluationContext } from '../../kernel/core/context-declaration'
import { evaluateCondition, resolveBindings } from '../core/context'
import type { DocumentClient } from '../core/documents'
import type { Gateway } from '../core/gateway'
import type { I18n } from '../core/i18n'
import { report } from '../core/report'
import { emitTelemetry } from '../core/telemetry'
import type { EngineStores } from '../core/stores'
import type { ActionChain, ActionInvocation } from '../../kernel/documents/types'
import type { ActionDefinitions, ParamSchema } from '../../kernel/actions/types'

export type { ActionDefinitions, ParamSchema }

/** Everything an action handler may touch. The shell builds one per page; tests build fakes. */
export interface ActionEnvironment {
  stores: EngineStores
  gateway: Gateway
  documents: DocumentClient
  i18n: I18n
  /** Client-side navigation to a full path (locale prefix already applied). */
  navigate(path: string, options?: { replace?: boolean }): void
  /** `canGoForward`/`forward` where the browser can tell (the Navigation API); absent: no step forward known. */
  history: { readonly length: number; canGoBack(): boolean; back(): void; canGoForward?(): boolean; forward?(): void }
  /** Full page load of a URL (locale change, external links). */
  reload(url: string): void
  now(): number
  platform: string
  /** The pathname in the address bar, prefix included (for the locale prefix rule). */
  currentPathname?(): string
  /**
   * Fetches the module of an action not registered yet (the browser's lazy domain actions): a
   * chain asks for it only when a step that names it is about to run, so a step whose `when` does
   * not hold (a guest's favourites on the lobby) downloads nothing.
   */
  loadAction?(name: string): Promise<unknown>
}

/** The params type of an action, derived from its JSON Schema literal with json-schema-to-ts. */
export type ParamsOf<S> = S extends JSONSchema ? FromSchema<S> : Record<string, unknown>

export interface ActionDefinition<P = unknown> {
  name: string
  description: string
  params: ParamSchema
  handler: (params: P, env: ActionEnvironment) => Promise<Result<unknown>>
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyAction = ActionDefinition<any>
export type ActionRegistry = Map<string, AnyAction>

type Handler<P> = (params: P, env: ActionEnvironment) => Promise<Result<unknown>>

/** Implements a defined action: its name picks the definition; the handler's params are typed from its schema. */
export function defineAction<const D extends ActionDefinitions, const N extends keyof D & string>(
  definitions: D,
  implementation: { name: N; handler: Handler<ParamsOf<D[N]['params']>> },
): ActionDefinition<ParamsOf<D[N]['params']>> {
  return implementAction<ParamsOf<D[N]['params']>>(definitions, implementation)
}

/**
 * Implements a defined action with params typed by hand (where the json-schema-to-ts derivation
 * hits TypeScript's instantiation depth limit, TS2589). An undefined name fails at load.
 */
export function implementAction<P>(definitions: ActionDefinitions, implementation: { name: string; handler: Handler<P> }): ActionDefinition<P> {
  const definition = definitions[implementation.name]
  if (!definition) throw new Error(`action ${implementation.name} has no definition in kernel/actions`)
  return { name: implementation.name, description: definition.description, params: definition.params, handler: implementation.handler }
}

/** The page's registry; `engine/actions/index.ts` registers the built-in actions into it. */
export const actionRegistry: ActionRegistry = new Map()

/** Adds actions to a registry (a later definition with the same name replaces the earlier). */
export function registerActions(actions: readonly AnyAction[], registry: ActionRegistry = actionRegistry): ActionRegistry {
  for (const action of actions) registry.set(action.name, action)
  return registry
}

function typeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}

/**
 * A tiny, eval-free check of params against an action's schema: required keys, primitive types,
 * enums, nested objects and array items. Returns the first problem, or null. (Full validation
 * happens in schema-lint; this guards against bindings that resolved to the wrong thing.)
 */
export function checkParams(schema: ParamSchema, value: unknown, path = 'params'): string | null {
  if (schema.type !== undefined) {
    const allowed = typeof schema.type === 'string' ? [schema.type] : schema.type
    const actual = typeOf(value)
    const fits = allowed.includes(actual) || (actual === 'integer' && allowed.includes('number'))
    if (!fits) return `${path} should be ${allowed.join(' or ')}, got ${actual}`
  }
  if (schema.enum && !schema.enum.includes(value)) return `${path} should be one of ${schema.enum.map(String).join(', ')}`
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const record = value as Record<string, unknown>
    for (const key of schema.required ?? []) if (record[key] === undefined) return `${path}.${key} is required`
    for (const [key, sub] of Object.entries(schema.properties ?? {})) {
      if (record[key] === undefined) continue
      const problem = checkParams(sub, record[key], `${path}.${key}`)
      if (problem) return problem
    }
  }
  if (Array.isArray(value) && schema.items) {
    for (let i = 0; i < value.length; i++) {
      const problem = checkParams(schema.items, value[i], `${path}[${i}]`)
      if (problem) return problem
    }
  }
  return null
}

const MAX_DEPTH = 16

type ContextSource = EvaluationContext | (() => EvaluationContext)

const isResult = (value: unknown): value is Result<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean'

/** Runs one invocation's action (no branches): lookup, bindings, param check, handler. */
export async function runAction(invocation: ActionInvocation, env: ActionEnvironment, ctx: EvaluationContext, registry: ActionRegistry = actionRegistry): Promise<Result<unknown>> {
  const action = registry.get(invocation.do)
  if (!action) {
    report({ kind: 'unknown-action', message: `unknown action ${invocation.do}`, detail: invocation })
    return { ok: false, code: 'UNKNOWN_ACTION', message: invocation.do }
  }
  const params = (resolveBindings(invocation.with ?? {}, ctx) ?? {}) as Record<string, unknown>
  const problem = checkParams(action.params, params)
  if (problem) {
    report({ kind: 'action-error', message: `${action.name}: ${problem}`, detail: params })
    return { ok: false, code: 'INVALID_PARAMS', message: problem }
  }
  try {
    const value = await action.handler(params, env)
    const result: Result<unknown> = isResult(value) ? value : { ok: true, value }
    emitTelemetry(result.ok ? { type: 'action', name: action.name, ok: true } : { type: 'action', name: action.name, ok: false, code: result.code })
    return result
  } catch (error) {
    report({ kind: 'action-error', message: `${action.name} failed: ${(error as Error)?.message ?? String(error)}`, detail: error })
    emitTelemetry({ type: 'action', name: action.name, ok: false, code: 'ACTION_FAILED' })
    return { ok: false, code: 'ACTION_FAILED', message: (error as Error)?.message }
  }
}

/**
 * Runs a chain in order. Per invocation: skipped when `when` is not true; otherwise the action runs,
 * then `onSuccess`, or on failure `onError[code] ?? onError['*']`. A failure stops the chain (its
 * error branch, if any, runs first) and is the chain's result; UNKNOWN_ACTION always stops it.
 * `ctx` may be a function so each step sees the state the previous step left.
 */
export async function runChain(chain: ActionChain | undefined, env: ActionEnvironment, ctx: ContextSource, registry: ActionRegistry = actionRegistry, depth = 0): Promise<Result<unknown>> {
  let last: Result<unknown> = { ok: true, value: undefined }
  if (!Array.isArray(chain)) return last
  if (depth > MAX_DEPTH) {
    report({ kind: 'action-error', message: 'action chains nested too deeply', detail: chain })
    return { ok: false, code: 'ACTION_FAILED', message: 'nested too deeply' }
  }
  const current = () => (typeof ctx === 'function' ? ctx() : ctx)
  for (const invocation of chain) {
    try {
      if (!evaluateCondition(invocation.when, current())) continue
      if (!registry.has(invocation.do) && env.loadAction) await env.loadAction(invocation.do)
      const result = await runAction(invocation, env, current(), registry)
      if (result.ok) {
        last = result
        if (invocation.onSuccess?.length) {
          const branch = await runChain(invocation.onSuccess, env, ctx, registry, depth + 1)
          if (!branch.ok) return branch
        }
        continue
      }
      const branch = invocation.onError?.[result.code] ?? invocation.onError?.['*']
      if (branch && result.code !== 'UNKNOWN_ACTION') await runChain(branch, env, ctx, registry, depth + 1)
      return result
    } catch (error) {
      // only a broken environment gets here (a throwing store or reporter): still never throw
      return { ok: false, code: 'ACTION_FAILED', message: (error as Error)?.message }
    }
  }
  return last
}
