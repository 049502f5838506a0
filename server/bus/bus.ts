/**
 * The bus (issue 16): what instances behind one load balancer share besides the database —
 * messages (punter events, big wins, "documents published") and short-lived counters (throttles,
 * cooldowns). One interface, two implementations: in this process (no REDIS_URL, one instance:
 * today's behaviour) and Redis (`REDIS_URL`: pub/sub and atomic counters with expiry). Callers
 * never ask which one they have.
 *
 * Counters are fixed windows: the first hit of a key opens a window of `windowMs`, and the key is
 * forgotten when it ends. On Redis the window runs on Redis's clock (the injected test clock does
 * not move it). When Redis is unreachable a counter call rejects with BusUnavailableError, and each
 * caller decides: guessing defences fail closed (503), analytics fail open.
 */
import { randomUUID } from 'node:crypto'
import { EventEmitter } from 'node:events'

/** What goes over the bus. Messages are JSON; each carries the instance that sent it. */
export type BusChannel = 'punter-events' | 'gambling' | 'documents-published'

export interface BusEnvelope {
  from: string
  body: unknown
}

export interface Bus {
  readonly kind: 'process' | 'redis'
  /** This process's name on the bus (messages it sent come back with it: the relays skip them). */
  readonly instanceId: string
  /** Sends to every instance (this one included). Never throws; lost while Redis is away. */
  publish(channel: BusChannel, body: unknown): void
  subscribe(channel: BusChannel, handler: (envelope: BusEnvelope) => void): () => void
  /** Counts one hit of `key` and answers the hits inside the key's window, this one included. */
  hit(key: string, windowMs: number): Promise<number>
  /** The hits inside the key's window (0 when none). */
  count(key: string): Promise<number>
  /** Adds `amount` to the key's window (opened by the first add) and answers the total and when the window ends. */
  add(key: string, amount: number, windowMs: number): Promise<{ total: number; resetInMs: number }>
  forget(key: string): Promise<void>
  /** A cooldown: 0 for the first claim of `key` (held `ms` from now), else the milliseconds it is still held. */
  claim(key: string, ms: number): Promise<number>
  /** Can counters be read now? (false while Redis is away) */
  available(): boolean
  close(): Promise<void>
}

export class BusUnavailableError extends Error {
  override name = 'BusUnavailableError'
  constructor(detail: string) {
    super(`the shared bus is unavailable: ${detail}`)
  }
}

/** Keys on a shared Redis are namespaced, so one Redis can serve other things too. */
export const KEY_PREFIX = 'parlay:'

/** One process: an EventEmitter and a map of windows on the injected clock. */
export function createProcessBus(now: () => number = Date.now): Bus {
  const instanceId = randomUUID()
  const emitter = new EventEmitter()
  emitter.setMaxListeners(0)
  const windows = new Map<string, { count: number; until: number }>()
  const live = (key: string) => {
    const window = windows.get(key)
    if (window && window.until <= now()) windows.delete(key)
    return windows.get(key)
  }
  const prune = () => {
    if (windows.size < 50_000) return
    for (const [key, window] of windows) if (window.until <= now()) windows.delete(key)
  }
  return {
    kind: 'process',
    instanceId,
    publish(channel, body) {
      const envelope: BusEnvelope = { from: instanceId, body }
      queueMicrotask(() => emitter.emit(channel, envelope))
    },
    subscribe(channel, handler) {
      emitter.on(channel, handler)
      return () => emitter.off(channel, handler)
    },
    async hit(key, windowMs) {
      prune()
      const window = live(key) ?? { count: 0, until: now() + windowMs }
      window.count++
      windows.set(key, window)
      return window.count
    },
    async count(key) {
      return live(key)?.count ?? 0
    },
    async add(key, amount, windowMs) {
      prune()
      const window = live(key) ?? { count: 0, until: now() + windowMs }
      window.count += amount
      windows.set(key, window)
      return { total: window.count, resetInMs: Math.max(1, window.until - now()) }
    },
    async forget(key) {
      windows.delete(key)
    },
    async claim(key, ms) {
      const held = live(key)
      if (held) return Math.max(1, held.until - now())
      prune()
      windows.set(key, { count: 1, until: now() + ms })
      return 0
    },
    available: () => true,
    async close() {
      emitter.removeAllListeners()
    },
  }
}
