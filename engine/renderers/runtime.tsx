/**
 * What every renderer needs from the engine, as one React context.
 *
 * The framework-free core (stores, context projection, actions, documents, i18n) knows nothing of
 * React; the shell builds an `EngineRuntime` from it once (`shell/browser-runtime.ts`) and the
 * renderers only ever talk to this interface. Tests and previews can pass their own.
 */
import { createContext, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react'
import { buildContext, evaluateCondition, isBinding, resolveBindings, type EvaluationContext } from '../core/context'
import type { EngineStores } from '../core/stores'
import type { ActionChain, Text } from '../documents/types'

export type DocumentKindName = 'screen' | 'popup' | 'menu' | 'footer' | 'header' | 'flow'

/** A document load: the served document, or why there is none. */
export type DocumentResult<T> = { ok: true; value: T } | { ok: false; code: string; status?: number }

export interface EngineRuntime {
  stores: EngineStores
  /** Runs an action chain; never throws (failures are reported by the core). */
  run(chain: ActionChain | readonly unknown[] | undefined, extra?: { item?: unknown; params?: Record<string, unknown> }): Promise<void>
  /** Loads a served document (ETag-revalidated; the last good copy when the network fails). */
  load<T>(kind: DocumentKindName, id: string): Promise<DocumentResult<T>>
  /** The last good copy of a document, synchronously, if this browser has one (shown while the
   * fresh copy loads, so a repeat visit paints at once and a failed fetch never blanks it). */
  peek<T>(kind: DocumentKindName, id: string): T | undefined
  /** Fetches a screen data source (`/api/...`), unwrapping the gateway envelope. */
  fetchData(url: string): Promise<unknown>
  /** Translates an i18n key (i18next options: interpolation values, count). */
  t(key: string, options?: Record<string, unknown>): string
  /** A locale-aware href for an in-app path (adds the locale prefix when needed). */
  href(path: string): string
  /** Bumps when the server's documents change, so mounted documents re-fetch. */
  subscribeDocuments(listener: () => void): () => void
  documentsVersion(): number
  development: boolean
}

const RuntimeContext = createContext<EngineRuntime | null>(null)
/** The evaluation scope: the context projection plus per-subtree extras (list item, popup params). */
const ScopeContext = createContext<{ item?: unknown; params?: Record<string, unknown> }>({})

export function RuntimeProvider({ runtime, children }: { runtime: EngineRuntime; children: ReactNode }) {
  return <RuntimeContext.Provider value={runtime}>{children}</RuntimeContext.Provider>
}

/** The runtime when there is one: the error page also shows before the engine has booted. */
export function useOptionalRuntime(): EngineRuntime | null {
  return useContext(RuntimeContext)
}

export function useRuntime(): EngineRuntime {
  const runtime = useContext(RuntimeContext)
  if (!runtime) throw new Error('Parlay renderers need a <RuntimeProvider>')
  return runtime
}

export function ScopeProvider({ item, params, children }: { item?: unknown; params?: Record<string, unknown>; children: ReactNode }) {
  const outer = useContext(ScopeContext)
  const value = useMemo(() => ({ item: item ?? outer.item, params: params ?? outer.params }), [item, params, outer])
  return <ScopeContext.Provider value={value}>{children}</ScopeContext.Provider>
}

export function useScopeExtras() {
  return useContext(ScopeContext)
}

/** Re-renders when any engine store changes (the context is a projection of all of them). */
function useStoresVersion(stores: EngineStores): number {
  const subscribe = useMemo(() => {
    let version = 0
    const listeners = new Set<() => void>()
    const bump = () => {
      version++
      for (const listener of listeners) listener()
    }
    const unsubscribers: (() => void)[] = []
    return {
      get: () => version,
      subscribe(listener: () => void) {
        if (listeners.size === 0) for (const store of Object.values(stores)) unsubscribers.push(store.subscribe(bump))
        listeners.add(listener)
        return () => {
          listeners.delete(listener)
          if (listeners.size === 0) for (const un of unsubscribers.splice(0)) un()
        }
      },
    }
  }, [stores])
  return useSyncExternalStore(subscribe.subscribe, subscribe.get, subscribe.get)
}

/** The evaluation context for this subtree, kept current with the stores. */
export function useEvaluationContext(): EvaluationContext {
  const runtime = useRuntime()
  const extras = useScopeExtras()
  const version = useStoresVersion(runtime.stores)
  return useMemo(
    () => buildContext(runtime.stores, { item: extras.item, ...(extras.params ? { data: { params: extras.params } } : {}) }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [runtime.stores, extras.item, extras.params, version],
  )
}

/** Evaluators bound to this subtree's context: conditions, bindings and texts. */
export function useEvaluate() {
  const runtime = useRuntime()
  const ctx = useEvaluationContext()
  return useMemo(() => {
    const value = (v: unknown): unknown => resolveBindings(v, ctx)
    const text = (t: Text | { $: unknown } | undefined | null): string => {
      if (t === undefined || t === null) return ''
      if (typeof t === 'string') return runtime.t(t)
      if (isBinding(t)) {
        const resolved = value(t)
        return resolved === undefined || resolved === null ? '' : String(resolved)
      }
      const options: Record<string, unknown> = {}
      if (t.values) for (const [k, v] of Object.entries(t.values)) options[k] = value(v)
      if (t.count !== undefined) {
        const count = Number(value(t.count))
        options.count = Number.isFinite(count) ? count : 0
      }
      return runtime.t(t.key, options)
    }
    return { ctx, when: (expression: unknown) => evaluateCondition(expression, ctx), value, text }
  }, [ctx, runtime])
}
