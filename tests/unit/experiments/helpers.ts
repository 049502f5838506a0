import type { FetchLike } from '../../../kernel/experiments/client'
import type { ExperimentsConfig, KeyValueStorage } from '../../../kernel/experiments/types'

/** Map-backed storage that records every write, so tests can see what the client stored and when. */
export function memoryStorage(): KeyValueStorage & { map: Map<string, string>; writes: string[] } {
  const map = new Map<string, string>()
  const writes: string[] = []
  return {
    map,
    writes,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => {
      writes.push(key)
      map.set(key, value)
    },
    removeItem: (key) => {
      map.delete(key)
    },
  }
}

/** A clock the test moves by hand: no sleeps. */
export function manualClock(start = Date.UTC(2026, 0, 15, 12, 0, 0)) {
  let now = start
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms
    },
    set: (ms: number) => {
      now = ms
    },
  }
}

/** Deterministic random source (mulberry32). */
export function seededRandom(seed = 1): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export interface FakeService {
  fetch: FetchLike
  calls: Array<{ url: string; headers: Record<string, string> }>
  config: ExperimentsConfig | string
  /** 'ok' answers 200; a number answers that status; 'network' throws. Applies to config.json. */
  mode: 'ok' | 'network' | number
  geo: 'ok' | 'fail'
}

/** An in-process experiment service for the client's unit tests. */
export function fakeService(config: ExperimentsConfig): FakeService {
  const service: FakeService = {
    calls: [],
    config,
    mode: 'ok',
    geo: 'ok',
    fetch: async (url, init) => {
      service.calls.push({ url, headers: { ...(init?.headers ?? {}) } })
      const path = new URL(url, 'http://local').pathname
      if (path.endsWith('/geo')) {
        if (service.geo === 'fail') throw new TypeError('network down')
        return { status: 200, text: async () => JSON.stringify({ code: 'BR', country: 'Brazil' }) }
      }
      if (path.endsWith('/config.json')) {
        if (service.mode === 'network') throw new TypeError('network down')
        if (typeof service.mode === 'number')
          return { status: service.mode, text: async () => JSON.stringify({ error: 'Token is not active' }) }
        const body = typeof service.config === 'string' ? service.config : JSON.stringify(service.config)
        return { status: 200, text: async () => body }
      }
      return { status: 404, text: async () => '' }
    },
  }
  return service
}

export const noCookies = () => undefined

export function twoGroupExperiment(name: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    salt: `${name}-salt`,
    allocation: 100,
    groups: [{ name: 'a' }, { name: 'b' }],
    params: [{ name: 'variant', type: 'string' as const, values: [{ group: 'a', value: 'a-control' }, { group: 'b', value: 'b-test' }] }],
    ...extra,
  }
}
