/**
 * The analytics ingest (spec §7 "analytics upload"): a JSON batch `{api_key, events, options?}`
 * answered like the product-analytics vendor's HTTP API, so the browser adapter classifies the
 * answer by HTTP code alone:
 *   200 {code, events_ingested, payload_size_bytes, server_upload_time}
 *   400 {code, error, missing_field?}   invalid batch (the api_key must be the site's AMPLITUDE_KEY)
 *   413 {code, error}                   over the size cap (the adapter halves the batch)
 *   429 {code, error, throttling}       a device sending faster than the ingest takes, or past a quota
 *                                       of its address + device or of the site (Retry-After)
 * Why our own: events stay in Parlay's database, behind the CSP's own-origin rule.
 */
import { Router, type NextFunction, type Request, type Response } from 'express'
import type { ServerDeps } from '../deps'
import { busOf, type Bus } from '../bus'
import { remoteConfigFor } from '../documents/router'
import { storeEvents, type IngestedEvent } from './store'
import type { IngestGate } from './ingest-gate'

export const ANALYTICS_PATH = '/analytics/api/2/httpapi'
/** The body cap: the server's JSON limit (64 KB); the adapter splits batches over it. */
export const ANALYTICS_MAX_EVENTS = 512
/** Throttling: at most this many uploads per device in one window. */
export const THROTTLE_UPLOADS = 30
export const THROTTLE_WINDOW_MS = 10_000

const TEXT = /^[\p{L}\p{N} _.:/@()'-]{1,100}$/u
const DEVICE = /^[A-Za-z0-9_-]{8,64}$/

type Answer = { status: number; body: Record<string, unknown> }

const invalid = (error: string, missingField?: string): Answer => ({
  status: 400,
  body: missingField ? { code: 400, error, missing_field: missingField } : { code: 400, error },
})

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** One event of the batch, or why it is refused. */
function readEvent(raw: unknown, index: number): IngestedEvent | Answer {
  if (!isRecord(raw)) return invalid(`events[${index}] is not an object`)
  if (typeof raw.event_type !== 'string' || !TEXT.test(raw.event_type)) return invalid(`events[${index}].event_type is missing or invalid`, 'event_type')
  if (typeof raw.device_id !== 'string' || !DEVICE.test(raw.device_id)) return invalid(`events[${index}].device_id is missing or invalid`, 'device_id')
  const number = (v: unknown) => (v === undefined || v === null ? null : typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined)
  const time = number(raw.time)
  const sessionId = number(raw.session_id)
  if (time === undefined || sessionId === undefined) return invalid(`events[${index}].time or session_id is invalid`)
  const eventProperties = raw.event_properties ?? {}
  const userProperties = raw.user_properties ?? {}
  if (!isRecord(eventProperties) || !isRecord(userProperties)) return invalid(`events[${index}] properties must be objects`)
  const section = typeof eventProperties.section === 'string' ? eventProperties.section.slice(0, 40) : null
  // a user_id in the batch is never read: the punter is the session's (./ingest-gate.ts)
  return { deviceId: raw.device_id, userId: null, sessionId, eventType: raw.event_type, time, section, properties: { event: eventProperties, user: userProperties } }
}

/** Validates a batch against the site's key; the events or the 400 answer. */
export function readBatch(body: unknown, apiKey: string): IngestedEvent[] | Answer {
  if (!isRecord(body)) return invalid('the body must be a JSON object')
  if (typeof body.api_key !== 'string' || body.api_key === '') return invalid('api_key is missing', 'api_key')
  if (apiKey === '' || body.api_key !== apiKey) return invalid('invalid api_key')
  if (!Array.isArray(body.events) || body.events.length === 0) return invalid('events is missing or empty', 'events')
  if (body.events.length > ANALYTICS_MAX_EVENTS) return { status: 413, body: { code: 413, error: `at most ${ANALYTICS_MAX_EVENTS} events per batch` } }
  const events: IngestedEvent[] = []
  for (const [index, raw] of body.events.entries()) {
    const event = readEvent(raw, index)
    if ('status' in event && 'body' in event) return event
    events.push(event as IngestedEvent)
  }
  return events
}

/** A fixed-window upload counter per device, shared by every instance (the bus: server/bus).
 * Without the bus (Redis away) uploads are not throttled: analytics guard no secret. */
export function createThrottle(bus: Bus) {
  return async (deviceId: string): Promise<boolean> => {
    try {
      return (await bus.hit(`uploads:${deviceId}`, THROTTLE_WINDOW_MS)) > THROTTLE_UPLOADS
    } catch {
      return false
    }
  }
}

function send(res: Response, answer: Answer): void {
  res.status(answer.status).json(answer.body)
}

export function createAnalyticsRouter(deps: ServerDeps, gate: IngestGate): Router {
  const router = Router()
  const throttled = createThrottle(busOf(deps))
  router.post(ANALYTICS_PATH, async (req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store')
    const configured = remoteConfigFor(deps, req).AMPLITUDE_KEY
    const key = typeof configured === 'string' ? configured : ''
    const batch = readBatch(req.body, key)
    if (!Array.isArray(batch)) return send(res, batch)
    const device = batch[0].deviceId
    if (await throttled(device)) {
      res.setHeader('Retry-After', String(THROTTLE_WINDOW_MS / 1000))
      return send(res, { status: 429, body: { code: 429, error: 'too many uploads', throttling: { throttled_devices: { [device]: THROTTLE_UPLOADS }, window_ms: THROTTLE_WINDOW_MS } } })
    }
    const bytes = Number(req.header('content-length') ?? 0) || Buffer.byteLength(JSON.stringify(req.body))
    const admitted = await gate.admit(req, device, bytes)
    if (!admitted.ok) {
      res.setHeader('Retry-After', String(admitted.retryAfterSeconds))
      return send(res, { status: 429, body: { code: 429, error: `over the ${admitted.quota} quota`, throttling: { quota: admitted.quota, retry_after_seconds: admitted.retryAfterSeconds } } })
    }
    const userId = await gate.punterOf(req)
    const started = deps.now()
    const stored = await storeEvents(deps.data, batch.map((event) => ({ ...event, userId })), started, gate.pool().storageBudgetBytes)
    send(res, { status: 200, body: { code: 200, events_ingested: stored, payload_size_bytes: Number(req.header('content-length') ?? 0), server_upload_time: started } })
  })
  return router
}

/** The server's JSON parser errors on the ingest path, answered in the ingest's own shape. */
export function analyticsParseErrors(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  const type = (error as { type?: string }).type
  if (type === 'entity.too.large') return send(res, { status: 413, body: { code: 413, error: 'payload too large' } })
  if (type === 'entity.parse.failed') return send(res, invalid('the body is not JSON'))
  next(error)
}
