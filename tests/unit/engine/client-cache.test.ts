/**
 * The client cache (spec §3 "client cache namespaces images, bets, cache, default"; §9 lifetimes
 * hour 3600000, long 900000, medium 300000, short/default 60000), on an injected clock: an entry
 * is gone exactly at its lifetime, namespaces are cleared on their own, each is bounded (least
 * recently used first); the gateway in front of it asks again only after the lifetime, and a bet
 * empties `bets`.
 */
import { describe, expect, it } from 'vitest'
import { CACHE_LIFETIMES, CACHE_NAMESPACES, createClientCache, IMAGE_CACHE_TTL_MS } from '../../../engine/core/client-cache'
import { cachedGateway } from '../../../engine/core/cached-gateway'
import type { Gateway } from '../../../engine/core/gateway'

function clock() {
  let at = 1_000_000
  return { now: () => at, advance: (ms: number) => void (at += ms) }
}

describe('client cache', () => {
  it('has the spec namespaces and lifetimes', () => {
    expect([...CACHE_NAMESPACES]).toEqual(['images', 'bets', 'cache', 'default'])
    expect(CACHE_LIFETIMES).toEqual({ hour: 60 * 60 * 1000, long: 15 * 60 * 1000, medium: 5 * 60 * 1000, short: 60 * 1000, default: 60 * 1000 })
    expect(IMAGE_CACHE_TTL_MS).toBe(60 * 1000)
  })

  it('an entry lives its lifetime (default 60000 ms) and is gone exactly at it', () => {
    const time = clock()
    const cache = createClientCache({ now: time.now })
    cache.set('default', 'k', 'v')
    cache.set('cache', 'k', 'long', CACHE_LIFETIMES.long)
    time.advance(59_999)
    expect(cache.get('default', 'k')).toBe('v')
    time.advance(1)
    expect(cache.get('default', 'k')).toBeUndefined()
    time.advance(900_000 - 60_000 - 1)
    expect(cache.get('cache', 'k')).toBe('long')
    time.advance(1)
    expect(cache.get('cache', 'k')).toBeUndefined()
  })

  it('namespaces are apart: the same key in two, one cleared alone, then all', () => {
    const cache = createClientCache({ now: clock().now })
    for (const ns of CACHE_NAMESPACES) cache.set(ns, 'k', ns)
    expect(CACHE_NAMESPACES.map((ns) => cache.get(ns, 'k'))).toEqual(['images', 'bets', 'cache', 'default'])
    cache.clear('bets')
    expect(CACHE_NAMESPACES.map((ns) => cache.get(ns, 'k'))).toEqual(['images', undefined, 'cache', 'default'])
    cache.clear()
    expect(CACHE_NAMESPACES.map((ns) => cache.size(ns))).toEqual([0, 0, 0, 0])
  })

  it('a namespace holds at most maxEntries, dropping the least recently used', () => {
    const cache = createClientCache({ now: clock().now, maxEntries: 3 })
    for (const key of ['a', 'b', 'c']) cache.set('default', key, key)
    cache.get('default', 'a') // a used: b is now the oldest
    cache.set('default', 'd', 'd')
    expect(cache.size('default')).toBe(3)
    expect(['a', 'b', 'c', 'd'].map((key) => cache.get('default', key))).toEqual(['a', undefined, 'c', 'd'])
    expect(cache.size('bets')).toBe(0)
  })
})

describe('cached gateway', () => {
  function counting() {
    const calls: string[] = []
    const gateway: Gateway = {
      call: async <T,>(method: string, path: string) => {
        calls.push(`${method} ${path}`)
        return { ok: true, value: { n: calls.length } as T }
      },
    }
    return { calls, gateway }
  }
  const GATE = '/mobile-gate/api/v1'

  it('a dictionary read is asked once within 15 minutes and again at 15 minutes', async () => {
    const time = clock()
    const { calls, gateway } = counting()
    const cached = cachedGateway(gateway, createClientCache({ now: time.now }), () => 'site|en')
    await cached.call('GET', `${GATE}/dictionary/odds-types`)
    time.advance(CACHE_LIFETIMES.long - 1)
    expect(await cached.call('GET', `${GATE}/dictionary/odds-types`)).toEqual({ ok: true, value: { n: 1 } })
    time.advance(1)
    expect(await cached.call('GET', `${GATE}/dictionary/odds-types`)).toEqual({ ok: true, value: { n: 2 } })
  })

  it('another locale is another entry; reads outside the rules are never cached', async () => {
    let scope = 'site|en'
    const { calls, gateway } = counting()
    const cached = cachedGateway(gateway, createClientCache({ now: clock().now }), () => scope)
    await cached.call('GET', `${GATE}/dictionary/odds-types`)
    scope = 'site|es'
    await cached.call('GET', `${GATE}/dictionary/odds-types`)
    await cached.call('GET', `${GATE}/heartbeat`)
    await cached.call('GET', `${GATE}/heartbeat`)
    expect(calls).toHaveLength(4)
  })

  it('My bets is asked again after a bet is placed, not before', async () => {
    const { calls, gateway } = counting()
    const cached = cachedGateway(gateway, createClientCache({ now: clock().now }), () => 's')
    await cached.call('GET', `${GATE}/bets/open`)
    await cached.call('GET', `${GATE}/bets/open`)
    expect(calls).toEqual([`GET ${GATE}/bets/open`])
    await cached.call('POST', `${GATE}/bets/place`, { stake: 1 })
    await cached.call('GET', `${GATE}/bets/open`)
    expect(calls.filter((c) => c.endsWith('/bets/open'))).toHaveLength(2)
  })

  it('two identical reads at once share one request; a failure is not kept', async () => {
    const calls: string[] = []
    const gateway: Gateway = { call: async <T,>(_m: string, path: string) => (calls.push(path), calls.length === 1 ? { ok: false as const, code: 'NETWORK_ERROR' } : { ok: true as const, value: 'x' as T }) }
    const cached = cachedGateway(gateway, createClientCache({ now: clock().now }), () => 's')
    const [a, b] = await Promise.all([cached.call('GET', `${GATE}/dictionary/currencies`), cached.call('GET', `${GATE}/dictionary/currencies`)])
    expect([a.ok, b.ok, calls.length]).toEqual([false, false, 1])
    expect((await cached.call('GET', `${GATE}/dictionary/currencies`)).ok).toBe(true)
    expect(calls).toHaveLength(2)
  })
})
