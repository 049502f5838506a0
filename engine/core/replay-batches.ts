/**
 * Session-replay batching of spec §9 (issue 18), framework-free: recorded events are sent in
 * batches of at most 1,000,000 bytes (the JSON body), each batch at the latest one interval
 * (500 ms to 10 s) after its first event; a failed upload is retried twice, waiting attempt × 1 s.
 * Encoding an event to JSON waits for idle time in a queue of at most 2,000 events (spec §9
 * "compression queue 2000"), so a burst of DOM mutations does not block a tap; when the queue is
 * full the waiting events are encoded at once — the queue bounds memory and delay, it never drops.
 * The recorder (rrweb), the idle scheduler and the transport are injected, so tests drive it with a fake clock.
 */
export const REPLAY_LIMITS = { maxBatchBytes: 1_000_000, minIntervalMs: 500, maxIntervalMs: 10_000, flushRetries: 2, retryBackoffMs: 1_000, compressionQueue: 2_000 } as const

/** The body of one upload (spec §7 replay ingest: version and events). */
export interface ReplayBatch {
  version: 1
  events: unknown[]
}

export interface ReplayBatcherOptions {
  /** Sends one batch's JSON; resolves true when the ingest took it. */
  transport: (body: string) => Promise<boolean>
  /** Runs `task` after `ms`; returns cancel. */
  schedule: (task: () => void, ms: number) => () => void
  /** Flush interval; clamped to 500 ms – 10 s. */
  intervalMs?: number
  maxBatchBytes?: number
  /** Runs `task` when the main thread is idle; without it each event is encoded as it comes. */
  idle?: (task: () => void) => void
  /** An event that alone is over the batch limit is dropped (counted here). */
  onDropped?: (bytes: number) => void
}

export interface ReplayBatcher {
  add(event: unknown): void
  /** Sends what is waiting now (pagehide, consent withdrawn). */
  flush(): Promise<void>
  /** Bytes waiting in the open batch (the JSON body it would be), events still queued for encoding aside. */
  pendingBytes(): number
  /** Events recorded but not yet encoded (at most 2,000). */
  queuedEvents(): number
}

const WRAPPER = '{"version":1,"events":[]}'

/** UTF-8 length of a string without allocating its bytes. */
export function utf8Length(text: string): number {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4
      i++
    } else bytes += 3
  }
  return bytes
}

export const clampInterval = (ms: number | undefined) =>
  Math.min(REPLAY_LIMITS.maxIntervalMs, Math.max(REPLAY_LIMITS.minIntervalMs, Number.isFinite(ms) ? (ms as number) : REPLAY_LIMITS.maxIntervalMs))

export function createReplayBatcher(options: ReplayBatcherOptions): ReplayBatcher {
  const maxBytes = options.maxBatchBytes ?? REPLAY_LIMITS.maxBatchBytes
  const interval = clampInterval(options.intervalMs)
  let parts: string[] = []
  let bytes = utf8Length(WRAPPER)
  let cancelTimer: (() => void) | null = null

  const wait = (ms: number) => new Promise<void>((done) => options.schedule(done, ms))

  async function upload(body: string): Promise<void> {
    for (let attempt = 0; attempt <= REPLAY_LIMITS.flushRetries; attempt++) {
      if (attempt > 0) await wait(attempt * REPLAY_LIMITS.retryBackoffMs)
      if (await options.transport(body).catch(() => false)) return
    }
  }

  function take(): string | null {
    cancelTimer?.()
    cancelTimer = null
    if (parts.length === 0) return null
    const body = `{"version":1,"events":[${parts.join(',')}]}`
    parts = []
    bytes = utf8Length(WRAPPER)
    return body
  }

  function encode(event: unknown): void {
    const json = JSON.stringify(event)
    if (json === undefined) return
    const size = utf8Length(json)
    if (utf8Length(WRAPPER) + size > maxBytes) return options.onDropped?.(size)
    // the comma before it counts too; a batch that would pass the limit goes first
    if (parts.length > 0 && bytes + size + 1 > maxBytes) void flush()
    bytes += parts.length > 0 ? size + 1 : size
    parts.push(json)
    cancelTimer ??= options.schedule(() => void flush(), interval)
  }

  let queue: unknown[] = []
  let drainAsked = false
  function drain(): void {
    drainAsked = false
    const waiting = queue
    queue = []
    for (const event of waiting) encode(event)
  }

  async function flush(): Promise<void> {
    drain()
    const body = take()
    if (body) await upload(body)
  }

  return {
    add(event) {
      if (!options.idle) return encode(event)
      if (queue.length >= REPLAY_LIMITS.compressionQueue) drain()
      queue.push(event)
      if (!drainAsked) {
        drainAsked = true
        options.idle(drain)
      }
    },
    flush,
    pendingBytes: () => (parts.length === 0 ? 0 : bytes),
    queuedEvents: () => queue.length,
  }
}
