/**
 * What every renderer needs from the engine, as one React context.
 *
 * The framework-free core (stores, context projection, actions, documents, i18n) knows nothing of
 * React; the shell builds an `EngineRuntime` from it once (`shell/browser-runtime.ts`) and the
 * renderers only ever talk to this interface. Tests and previews can pass their own.
 */
import { createContext, useContext, useLayoutEffect, useMemo, useReducer, useSyncExternalStore, type ReactNode } from 'react'
import { buildContext, evaluateCondition, isBinding, resolveBindings, type EvaluationContext } from '../core/context'
import type { Result } from '../../kernel/core/contracts'
import type { EngineStores } from '../core/stores'
import type { ActionChain, Text } from '../../kernel/documents/types'
import type { CurrencyDisplays } from '../../kernel/core/format'
import { useStore } from 'zustand'

export type DocumentKindName = 'screen' | 'popup' | 'menu' | 'footer' | 'header' | 'flow'

/** A document load: the served document, or why there is none. */
export type DocumentResult<T> = { ok: true; value: T } | { ok: false; code: string; status?: number }

export interface EngineRuntime {
  stores: EngineStores
  /** Runs an action chain; never throws (failures are reported by the core). Answers the chain's
   * result: the last step's, or the failure that stopped it (an empty chain is ok). `form` is the
   * values a form's chain binds over (`form.<field>`). */
  run(
    chain: ActionChain | readonly unknown[] | undefined,
    extra?: { item?: unknown; params?: Record<string, unknown>; form?: Record<string, unknown> },
  ): Promise<Result<unknown>>
  /** Loads a served document (ETag-revalidated; the last good copy when the network fails). */
  load<T>(kind: DocumentKindName, id: string): Promise<DocumentResult<T>>
  /** The last good copy of a document, synchronously, if this browser has one (shown while the
   * fresh copy loads, so a repeat visit paints at once and a failed fetch never blanks it). */
  peek<T>(kind: DocumentKindName, id: string): T | undefined
  /** Fetches a screen data source (`/api/...`), unwrapping the gateway envelope. */
  fetchData(url: string): Promise<unknown>
  /** A screen data source's answer when it is already in (the page's first screen, which the
   * server rendered with it): the first render shows it at once, as the server's markup did. */
  peekData?(url: string): { value: unknown } | undefined
  /** Translates an i18n key (i18next options: interpolation values, count). */
  t(key: string, options?: Record<string, unknown>): string
  /** A locale-aware href for an in-app path (adds the locale prefix when needed). */
  href(path: string): string
  /** Bumps when the server's documents change, so mounted documents re-fetch. */
  subscribeDocuments(listener: () => void): () => void
  documentsVersion(): number
  development: boolean
  /** Rendering on the server (engine/ssr.tsx): a lazy part renders its placeholder,
   * as the browser's first render does, and nothing suspends (renderToString cannot wait). */
  server?: boolean
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

/** How the site writes amounts per currency (its jurisdiction document's currencyDisplay): formatMoney's last argument. */
export function useCurrencyDisplays(): CurrencyDisplays | undefined {
  return useStore(useRuntime().stores.site, (s) => s.bootstrap?.site.currencyDisplay)
}

export function ScopeProvider({ item, params, children }: { item?: unknown; params?: Record<string, unknown>; children: ReactNode }) {
  const outer = useContext(ScopeContext)
  const value = useMemo(() => ({ item: item ?? outer.item, params: params ?? outer.params }), [item, params, outer])
  return <ScopeContext.Provider value={value}>{children}</ScopeContext.Provider>
}

export function useScopeExtras() {
  return useContext(ScopeContext)
}

/**
 * Whether this subtree is one of a list's first rows, on screen at the first paint on a phone:
 * its images load at once and at high priority (the lobby's largest paint is its first game
 * tile), not lazily after layout like the rows below the fold.
 */
const LeadingRowContext = createContext(false)
export const LeadingRow = LeadingRowContext.Provider
export function useLeadingRow(): boolean {
  return useContext(LeadingRowContext)
}

type StoreName = keyof EngineStores

/**
 * Which stores each root of the evaluation context is projected from (`buildContext`). A node
 * re-renders only when a store behind a root it has read changes: a popup opening (the ui store,
 * in no root) or the screen data arriving no longer re-renders every node that evaluates
 * something. `site` counts as always read: a few renderers read the bootstrap directly, and the
 * site (locale, bootstrap) changes rarely and then changes everything.
 */
const ROOT_STORES: Record<keyof EvaluationContext, readonly StoreName[]> = {
  site: ['site'],
  session: ['session'],
  user: ['user'],
  settings: ['settings'],
  remoteConfig: [],
  flags: ['flags'],
  experiments: ['experiments'],
  route: ['route'],
  data: ['screenData'],
  form: [],
  item: [],
  now: [],
}
const ALWAYS_READ: readonly StoreName[] = ['site']

/**
 * One subscription per store for all nodes. Whether a store changed is told by its state object
 * (zustand replaces it on each change), never by counting notifications: a change made while no
 * node was subscribed yet (between the first render and React's subscribing effect, when the
 * heartbeat answers fast) would be missed by a counter, and the node would keep its stale context.
 */
interface StoresClock {
  subscribe(listener: () => void): () => void
}

const clocks = new WeakMap<EngineStores, StoresClock>()

function storesClock(stores: EngineStores): StoresClock {
  let clock = clocks.get(stores)
  if (clock) return clock
  const listeners = new Set<() => void>()
  const unsubscribers: (() => void)[] = []
  const start = () => {
    for (const store of Object.values(stores) as EngineStores[StoreName][])
      unsubscribers.push(
        store.subscribe(() => {
          for (const listener of [...listeners]) listener()
        }),
      )
  }
  clock = {
    subscribe(listener) {
      if (listeners.size === 0) start()
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
        if (listeners.size === 0) for (const un of unsubscribers.splice(0)) un()
      }
    },
  }
  clocks.set(stores, clock)
  return clock
}

/** The context with each root behind a getter that notes the stores it comes from as read. */
function readTracked(context: EvaluationContext, reads: Set<StoreName>): EvaluationContext {
  const tracked = {} as EvaluationContext
  for (const root of Object.keys(context) as (keyof EvaluationContext)[])
    Object.defineProperty(tracked, root, {
      enumerable: true,
      get() {
        for (const name of ROOT_STORES[root] ?? []) reads.add(name)
        return context[root]
      },
    })
  return tracked
}

/**
 * The context of one subtree as an external store: its snapshot is rebuilt only when a store the
 * subtree has read changed since it was built (state objects compared, so a root first read after the
 * render never forces a second one).
 */
export function contextTracker(stores: EngineStores, item: unknown, params: Record<string, unknown> | undefined) {
  const clock = storesClock(stores)
  const reads = new Set<StoreName>(ALWAYS_READ)
  let built: { context: EvaluationContext; at: Partial<Record<StoreName, unknown>> } | null = null
  const stale = () => built === null || [...reads].some((name) => stores[name].getState() !== built!.at[name])
  return {
    subscribe: clock.subscribe,
    /** A store this subtree has read changed since its context was built. */
    stale,
    get(): EvaluationContext {
      if (stale()) {
        const at: Partial<Record<StoreName, unknown>> = {}
        for (const name of Object.keys(stores) as StoreName[]) at[name] = stores[name].getState()
        built = { context: readTracked(buildContext(stores, { item, ...(params ? { data: { params } } : {}) }), reads), at }
      }
      return built!.context
    },
  }
}

/**
 * The evaluation context for this subtree, kept current with the stores it reads.
 *
 * A root can be read for the first time in a render that no store change caused — the header
 * document arrives after the heartbeat, and only then is `user.vip` evaluated. The context handed
 * to that render was built before the store changed, and React re-checks an external store after
 * a commit only when the snapshot itself changed. So every commit checks: if a store read in this
 * render moved since the context was built, render once more with a fresh one.
 */
export function useEvaluationContext(): EvaluationContext {
  const runtime = useRuntime()
  const extras = useScopeExtras()
  const tracker = useMemo(() => contextTracker(runtime.stores, extras.item, extras.params), [runtime.stores, extras.item, extras.params])
  const context = useSyncExternalStore(tracker.subscribe, tracker.get, tracker.get)
  const [, rerender] = useReducer((n: number) => n + 1, 0)
  useLayoutEffect(() => {
    if (tracker.stale()) rerender()
  })
  return context
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
