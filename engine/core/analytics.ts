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

/** One event as the ingest takes it; `seq` numbers it within the session. */
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

export function createAnalytics(options: AnalyticsOptions): AnalyticsClient {
  const limits = { ...ANALYTICS_LIMITS, ...options.limits }
  let disabled = new Set(options.disabledEvents ?? [])
  let queue: AnalyticsEvent[] = []
  let batchSize = limits.flushQueueSize
  let attempts = 0
  let sending: Promise<void> | null = null
  /** Events of the upload in flight (the head of the queue). */
  let inFlight = 0
  let cancelTimer: (() => void) | null = null
  let stopped = false
  let seq = 0

  const arm = (ms: number) => {
    cancelTimer?.()
    cancelTimer = stopped ? null : options.schedule(() => void client.flush(), ms)
  }

  /** After a failed upload: back off (attempts × the interval's tenth), or give the batch up. */
  const retryOrDrop = (count: number) => {
    attempts++
    if (attempts > limits.maxRetries) {
      queue = queue.slice(count)
      attempts = 0
      return
    }
    arm(Math.min(limits.flushIntervalMs, attempts * 1000))
  }

  async function upload(): Promise<void> {
    if (queue.length === 0) return
    const batch = queue.slice(0, batchSize)
    const body = JSON.stringify({ api_key: options.apiKey, events: batch })
    let status: number | null = null
    inFlight = batch.length
    try {
      status = await options.transport(body)
    } catch {
      status = null
    }
    inFlight = 0
    const result = classifyUpload(status)
    options.onResult?.(result, batch.length)
    if (result === 'success' || result === 'invalid') {
      // an invalid batch would be refused again: drop it, keep the rest
      queue = queue.slice(batch.length)
      attempts = 0
      batchSize = limits.flushQueueSize
      if (queue.length > 0) arm(0)
      return
    }
    if (result === 'too-large') {
      if (batch.length === 1) queue = queue.slice(1)
      else batchSize = Math.max(1, Math.floor(batch.length / 2))
      if (queue.length > 0) arm(0)
      return
    }
    retryOrDrop(batch.length)
  }

  const client: AnalyticsClient = {
    track(eventType, properties = {}) {
      if (stopped || disabled.has(eventType)) return
      queue.push(eventOf(options, eventType, properties, ++seq))
      if (queue.length > limits.queueCap) queue = queue.slice(queue.length - limits.queueCap)
      if (queue.length >= limits.flushQueueSize) void client.flush()
      else if (!cancelTimer) arm(limits.flushIntervalMs)
    },
    flush() {
      if (sending) return sending
      cancelTimer?.()
      cancelTimer = null
      sending = upload().finally(() => {
        sending = null
        if (queue.length > 0 && !cancelTimer) arm(limits.flushIntervalMs)
      })
      return sending
    },
    leave() {
      const rest = queue.slice(inFlight)
      if (rest.length === 0) return
      cancelTimer?.()
      cancelTimer = null
      queue = queue.slice(0, inFlight)
      void options.transport(JSON.stringify({ api_key: options.apiKey, events: rest })).catch(() => null)
    },
    pending: () => queue.length,
    stop() {
      stopped = true
      cancelTimer?.()
      cancelTimer = null
    },
  }
  // events queued before the answer, now disabled, are not sent either (the in-flight head stays)
  askRemoteConfig(options, (list) => {
    disabled = new Set(list)
    queue = [...queue.slice(0, inFlight), ...queue.slice(inFlight).filter((e) => !disabled.has(e.event_type))]
  })
  return client
}
