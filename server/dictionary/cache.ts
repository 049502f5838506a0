/**
 * Dictionary caching (spec §7 "Caching": 15 minutes; the key is the method name plus language,
 * site id and a hash of the params). In memory, per server process, on the injected clock.
 */
import { createHash } from 'node:crypto'

export const DICTIONARY_CACHE_MS = 15 * 60_000

export function cacheKey(method: string, language: string, siteId: string, params: unknown): string {
  const hash = createHash('sha256').update(JSON.stringify(params ?? null)).digest('hex').slice(0, 16)
  return `${method}|${language}|${siteId}|${hash}`
}

export function createDictionaryCache(now: () => number, ttlMs = DICTIONARY_CACHE_MS, maxEntries = 2000) {
  const entries = new Map<string, { value: unknown; expiresAt: number }>()
  let hits = 0
  let misses = 0
  return {
    get<T>(key: string, compute: () => T): { value: T; hit: boolean } {
      const entry = entries.get(key)
      if (entry && entry.expiresAt > now()) {
        hits++
        return { value: entry.value as T, hit: true }
      }
      misses++
      const value = compute()
      entries.set(key, { value, expiresAt: now() + ttlMs })
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string)
      return { value, hit: false }
    },
    stats: () => ({ hits, misses, size: entries.size }),
  }
}
