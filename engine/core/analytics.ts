/**
 * The analytics client of spec §9 (issue 18), framework-free: a queue flushed every 10 s or at
 * 200 events, at most 12 retries, at most 512 events kept; uploads classified by HTTP code as
 * spec §7 says (2xx success, 429 rate limit, 413 too large, 408 timeout, other 4xx invalid, 5xx
 * failed). Transport and timers are injected, so tests drive it with a fake transport and clock.
 * Why not the vendor SDK: its bundle outweighs this file many times over for the same rules,
 * and our ingest speaks its HTTP API, so a vendor SDK can replace this without server changes.
 */
export const ANALYTICS_LIMITS = { flushIntervalMs: 10_000, flushQueueSize: 200, maxRetries: 12, queueCap: 512 } as const

export type UploadResult = 'success' | 'rate-limit' | 'too-large' | 'timeout' | 'invalid' | 'failed'

/** Spec §7: the class of an upload answer by HTTP code; no answer at all (network) is 'failed'. */
export function classifyUpload(status: number | null): UploadResult {
  if (status === null) return 'failed'
  if (status >= 200 && status < 300) return 'success'
  if (status === 429) return 'rate-limit'
  if (status === 413) return 'too-large'
  if (status === 408) return 'timeout'
  if (status >= 400 && status < 500) return 'invalid'
  return 'failed'
}

export interface AnalyticsEvent {
  event_type: string
  device_id: string
  user_id?: string
  session_id: number
  time: number
  insert_id: string
  event_properties: Record<string, unknown>
  user_properties: Record<string, unknown>
}

export interface AnalyticsOptions {
  apiKey: string
  deviceId: string
  sessionId: number
  /** Sends a JSON body; resolves with the HTTP status, or null when there was no answer. */
  transport: (body: string) => Promise<number | null>
  now: () => number
  /** Runs `task` after `ms`; returns cancel. */
  schedule: (task: () => void, ms: number) => () => void
  disabledEvents?: readonly string[]
  userId?: () => string | undefined
  userProperties?: () => Record<string, unknown>
  limits?: Partial<Record<keyof typeof ANALYTICS_LIMITS, number>>
  onResult?: (result: UploadResult, events: number) => void
  /**
   * The remote-config GET of spec §7, asked once when the client starts: gets the query string
   * (api_key, config_keys, session_id), resolves with the answer's body, or null on failure (then
   * the boot settings stay).
   */
  fetchConfig?: (query: string) => Promise<unknown>
}

/** The events the remote-config answer disables; null when the answer holds no such list. */
export function disabledEventsOf(answer: unknown): string[] | null {
  const configs = (answer as { configs?: Record<string, unknown> } | null)?.configs
  const list = configs?.AMPLITUDE_DISABLED_EVENTS
  return Array.isArray(list) && list.every((e) => typeof e === 'string') ? list : null
}

export interface AnalyticsClient {
  track(eventType: string, properties?: Record<string, unknown>): void
  /** Sends what is queued now (the interval and the queue size call it too). */
  flush(): Promise<void>
  /**
   * The page goes away (pagehide): what is queued beyond an upload already in flight is sent at
   * once, its request started before this returns (a leaving page gets no later turn), and not kept.
   */
  leave(): void
  /** Events waiting to be sent. */
  pending(): number
  stop(): void
}

type Limits = Record<keyof typeof ANALYTICS_LIMITS, number>

/** The remote-config GET, once, at the client's start; `apply` gets the disabled events it names. */
function askRemoteConfig(options: AnalyticsOptions, apply: (disabled: string[]) => void): void {
  if (!options.fetchConfig) return
  const query = new URLSearchParams({ api_key: options.apiKey, config_keys: 'AMPLITUDE_DISABLED_EVENTS', session_id: String(options.sessionId) })
  void options
    .fetchConfig(query.toString())
    .catch(() => null)
    .then((answer) => {
      const list = disabledEventsOf(answer)
      if (list !== null) apply(list)
    })
}


/** The client's mutable state, shared by its uploader and its methods. */
interface QueueState {
  queue: AnalyticsEvent[]
  batchSize: number
  attempts: number
  sending: Promise<void> | null
  /** Events of the upload in flight (the head of the queue). */
  inFlight: number
  cancelTimer: (() => void) | null
  stopped: boolean
  seq: number
}

/** The timer and the upload of the head of the queue, with its answer's rules (spec §7). */
function createUploader(options: AnalyticsOptions, limits: Limits, s: QueueState, flush: () => Promise<void>) {
  const arm = (ms: number) => {
    s.cancelTimer?.()
    s.cancelTimer = s.stopped ? null : options.schedule(() => void flush(), ms)
  }

  /** After a failed upload: back off (attempts × the interval's tenth), or give the batch up. */
  const retryOrDrop = (count: number) => {
    s.attempts++
    if (s.attempts > limits.maxRetries) {
      s.queue = s.queue.slice(count)
      s.attempts = 0
      return
    }
    arm(Math.min(limits.flushIntervalMs, s.attempts * 1000))
  }

  async function upload(): Promise<void> {
    if (s.queue.length === 0) return
    const batch = s.queue.slice(0, s.batchSize)
    const body = JSON.stringify({ api_key: options.apiKey, events: batch })
    let status: number | null = null
    s.inFlight = batch.length
    try {
      status = await options.transport(body)
    } catch {
      status = null
    }
    s.inFlight = 0
    const result = classifyUpload(status)
    options.onResult?.(result, batch.length)
    if (result === 'success' || result === 'invalid') {
      // an invalid batch would be refused again: drop it, keep the rest
      s.queue = s.queue.slice(batch.length)
      s.attempts = 0
      s.batchSize = limits.flushQueueSize
      if (s.queue.length > 0) arm(0)
      return
    }
    if (result === 'too-large') {
      if (batch.length === 1) s.queue = s.queue.slice(1)
      else s.batchSize = Math.max(1, Math.floor(batch.length / 2))
      if (s.queue.length > 0) arm(0)
      return
    }
    retryOrDrop(batch.length)
  }

  return { arm, upload }
}

function eventOf(options: AnalyticsOptions, eventType: string, properties: Record<string, unknown>, seq: number): AnalyticsEvent {
  const userId = options.userId?.()
  return {
    event_type: eventType,
    device_id: options.deviceId,
    ...(userId ? { user_id: userId } : {}),
    session_id: options.sessionId,
    time: options.now(),
    insert_id: `${options.sessionId}-${seq}`,
    event_properties: properties,
    user_properties: options.userProperties?.() ?? {},
  }
}

export function createAnalytics(options: AnalyticsOptions): AnalyticsClient {
  const limits = { ...ANALYTICS_LIMITS, ...options.limits }
  let disabled = new Set(options.disabledEvents ?? [])
  const s: QueueState = { queue: [], batchSize: limits.flushQueueSize, attempts: 0, sending: null, inFlight: 0, cancelTimer: null, stopped: false, seq: 0 }
  const { arm, upload } = createUploader(options, limits, s, () => client.flush())

  const client: AnalyticsClient = {
    track(eventType, properties = {}) {
      if (s.stopped || disabled.has(eventType)) return
      s.queue.push(eventOf(options, eventType, properties, ++s.seq))
      if (s.queue.length > limits.queueCap) s.queue = s.queue.slice(s.queue.length - limits.queueCap)
      if (s.queue.length >= limits.flushQueueSize) void client.flush()
      else if (!s.cancelTimer) arm(limits.flushIntervalMs)
    },
    flush() {
      if (s.sending) return s.sending
      s.cancelTimer?.()
      s.cancelTimer = null
      s.sending = upload().finally(() => {
        s.sending = null
        if (s.queue.length > 0 && !s.cancelTimer) arm(limits.flushIntervalMs)
      })
      return s.sending
    },
    leave() {
      const rest = s.queue.slice(s.inFlight)
      if (rest.length === 0) return
      s.cancelTimer?.()
      s.cancelTimer = null
      s.queue = s.queue.slice(0, s.inFlight)
      void options.transport(JSON.stringify({ api_key: options.apiKey, events: rest })).catch(() => null)
    },
    pending: () => s.queue.length,
    stop() {
      s.stopped = true
      s.cancelTimer?.()
      s.cancelTimer = null
    },
  }
  // events queued before the answer, now disabled, are not sent either (the in-flight head stays)
  askRemoteConfig(options, (list) => {
    disabled = new Set(list)
    s.queue = [...s.queue.slice(0, s.inFlight), ...s.queue.slice(s.inFlight).filter((e) => !disabled.has(e.event_type))]
  })
  return client
}
