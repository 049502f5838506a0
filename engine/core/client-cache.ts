/**
 * The client's cache (spec §3 "client cache namespaces images, bets, cache, default"; §9 cache
 * lifetimes): answers kept in memory under a namespace, each with its own lifetime, so a screen
 * entered again within the lifetime does not ask the server again. Namespaces are cleared on
 * their own (`bets` after a bet, all on logout); each holds a bounded number of entries (the least
 * recently used goes first). Pure: the clock is injected. See docs/adr/0083-client-cache-namespaces.md.
 */

/** Cache lifetimes (spec §9). */
export const CACHE_LIFETIMES = { hour: 3_600_000, long: 900_000, medium: 300_000, short: 60_000, default: 60_000 } as const

/** Image cache lifetime (spec §9 "image cache TTL 60 s, webp"). */
export const IMAGE_CACHE_TTL_MS = 60_000

export const CACHE_NAMESPACES = ['images', 'bets', 'cache', 'default'] as const
export type CacheNamespace = (typeof CACHE_NAMESPACES)[number]

/** Entries kept per namespace before the least recently used is dropped. */
export const CACHE_MAX_ENTRIES = 200

export interface ClientCache {
  /** The value stored under the key, or undefined when absent or expired (at storedAt + lifetime exactly). */
  get<T>(namespace: CacheNamespace, key: string): T | undefined
  /** Stores a value for `ttlMs` (default 60000 ms). */
  set(namespace: CacheNamespace, key: string, value: unknown, ttlMs?: number): void
  /** Empties one namespace, or all of them. */
  clear(namespace?: CacheNamespace): void
  /** Entries held in a namespace (expired ones included until read or evicted). */
  size(namespace: CacheNamespace): number
}

export interface ClientCacheOptions {
  now: () => number
  maxEntries?: number
}

export function createClientCache({ now, maxEntries = CACHE_MAX_ENTRIES }: ClientCacheOptions): ClientCache {
  const spaces = new Map<CacheNamespace, Map<string, { value: unknown; expiresAt: number }>>(CACHE_NAMESPACES.map((name) => [name, new Map()]))
  const space = (namespace: CacheNamespace) => {
    const found = spaces.get(namespace)
    if (!found) throw new Error(`unknown cache namespace ${String(namespace)}`)
    return found
  }
  return {
    get<T>(namespace: CacheNamespace, key: string): T | undefined {
      const entries = space(namespace)
      const entry = entries.get(key)
      if (!entry) return undefined
      entries.delete(key)
      if (now() >= entry.expiresAt) return undefined
      entries.set(key, entry) // most recently used last
      return entry.value as T
    },
    set(namespace, key, value, ttlMs = CACHE_LIFETIMES.default) {
      const entries = space(namespace)
      entries.delete(key)
      entries.set(key, { value, expiresAt: now() + ttlMs })
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string)
    },
    clear(namespace) {
      if (namespace) space(namespace).clear()
      else spaces.forEach((entries) => entries.clear())
    },
    size: (namespace) => space(namespace).size,
  }
}
