/**
 * Which gateway reads the client answers from its cache (engine/core/client-cache.ts), and for how
 * long: the dictionaries (option lists of the settings screen, user location, sign-up settings)
 * for 15 minutes (the server's own location cache, spec §7), My bets' lists and the nickname flag
 * for the default 60 s. A change the client makes itself clears what it changes (a bet, a
 * cash-out → `bets`); the page clears `bets` on the punter socket's bet events and everything
 * punter-related when the session changes (browser-runtime). Only successful answers are kept;
 * two identical reads at once share one request.
 */
import type { Result } from '../../kernel/core/contracts'
import { CACHE_LIFETIMES, type CacheNamespace, type ClientCache } from './client-cache'
import type { CallOptions, Gateway } from './gateway'

export interface CacheRule {
  pattern: RegExp
  namespace: CacheNamespace
  ttlMs: number
}

const GATE = '/mobile-gate/api/v1'

export const CACHE_RULES: readonly CacheRule[] = [
  { pattern: new RegExp(`^${GATE}/dictionary/[A-Za-z0-9/_-]+(\\?[^#]*)?$`), namespace: 'cache', ttlMs: CACHE_LIFETIMES.long },
  { pattern: new RegExp(`^${GATE}/bets/(open|settled)$`), namespace: 'bets', ttlMs: CACHE_LIFETIMES.default },
  { pattern: new RegExp(`^${GATE}/nickname/enabled$`), namespace: 'default', ttlMs: CACHE_LIFETIMES.default },
]

/** Writes that change a namespace's answers: a bet placed, a cash-out. */
export const CLEARING_WRITES: ReadonlyArray<{ pattern: RegExp; namespace: CacheNamespace }> = [{ pattern: new RegExp(`^${GATE}/(bets|betslip)/`), namespace: 'bets' }]

export function cacheRuleFor(method: string, path: string): CacheRule | undefined {
  return method.toUpperCase() === 'GET' ? CACHE_RULES.find((rule) => rule.pattern.test(path)) : undefined
}

/**
 * The gateway with the cache in front of the reads of CACHE_RULES. `scope` names what else the
 * answer depends on (the site and the locale: the same path answers in another language).
 */
export function cachedGateway(gateway: Gateway, cache: ClientCache, scope: () => string): Gateway {
  const pending = new Map<string, Promise<Result<unknown>>>()
  return {
    call<T>(method: string, path: string, body?: unknown, options?: CallOptions): Promise<Result<T>> {
      const rule = body === undefined ? cacheRuleFor(method, path) : undefined
      if (!rule) {
        const result = gateway.call<T>(method, path, body, options)
        const cleared = method.toUpperCase() === 'GET' ? [] : CLEARING_WRITES.filter((write) => write.pattern.test(path))
        // cleared when the write starts and again when it is answered (a read in between kept the old list)
        for (const write of cleared) cache.clear(write.namespace)
        return cleared.length === 0 ? result : result.finally(() => cleared.forEach((write) => cache.clear(write.namespace)))
      }
      const key = `${scope()}|${path}`
      const hit = cache.get<T>(rule.namespace, key)
      if (hit !== undefined) return Promise.resolve({ ok: true, value: hit })
      const shared = pending.get(key)
      if (shared) return shared as Promise<Result<T>>
      const request = gateway.call<T>(method, path, undefined, options).then((result) => {
        pending.delete(key)
        if (result.ok && result.value !== undefined) cache.set(rule.namespace, key, result.value, rule.ttlMs)
        return result
      })
      pending.set(key, request)
      return request
    },
  }
}
