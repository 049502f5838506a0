/**
 * The session-replay ingest (spec §7 "replay-ingest POST (device_id, session_id, type; body
 * version and events)", issue 18): the browser posts each rrweb batch gzip-compressed; the server
 * checks it unpacks to at most 1,000,000 bytes of `{version: 1, events: [...]}` and keeps it
 * compressed in SQLite (a leaving page sends its last batch uncompressed). Off for a site whose remote config has replay off.
 * The punter is the session's (a guest's batch is its device's, anonymous); quotas and the storage
 * budget bound what one client, one site and all of them keep (./ingest-gate.ts, issue 30).
 */
import { gunzipSync, gzipSync } from 'node:zlib'
import express, { Router, type Request, type Response } from 'express'
import type { ServerDeps } from '../deps'
import { remoteConfigFor } from '../documents/router'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { validateQuery } from '../http/validate'
import { createThrottle } from './analytics'
import { busOf } from '../bus'
import { storeReplayBatch } from './store'
import { refuseOverQuota, type IngestGate } from './ingest-gate'

export const REPLAY_PATH = '/replay/api/1/batch'
export const REPLAY_CONTENT_TYPE = 'application/vnd.parlay.replay+gzip'
/** The same body uncompressed: what a leaving page sends (it cannot wait for compression). */
export const REPLAY_PLAIN_TYPE = 'application/vnd.parlay.replay'
/** Spec §9: a batch is at most 1,000,000 bytes (unpacked). */
export const REPLAY_MAX_BYTES = 1_000_000
/** Compressed bodies are far smaller; this only bounds what is read before unpacking. */
const MAX_COMPRESSED_BYTES = REPLAY_MAX_BYTES
const MAX_EVENTS = 20_000

export const REPLAY_QUERY = {
  type: 'object',
  required: ['device_id', 'session_id', 'type'],
  additionalProperties: false,
  properties: {
    device_id: { type: 'string', pattern: '^[A-Za-z0-9_-]{8,64}$' },
    session_id: { type: 'string', pattern: '^[0-9]{1,16}$' },
    type: { enum: ['replay'] },
    user_id: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'Ignored (kept for older clients): the punter is the session\'s, never this (issue 30).' },
  },
} as const

export interface ReplayBatchSummary {
  events: number
  firstTimestamp: number
  lastTimestamp: number
}

/** Reads an unpacked batch; the summary or why it is refused. */
export function readReplayBatch(json: string): ReplayBatchSummary | { invalid: string } {
  let body: unknown
  try {
    body = JSON.parse(json)
  } catch {
    return { invalid: 'not JSON' }
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { invalid: 'not an object' }
  const { version, events } = body as { version?: unknown; events?: unknown }
  if (version !== 1) return { invalid: 'version' }
  if (!Array.isArray(events) || events.length === 0 || events.length > MAX_EVENTS) return { invalid: 'events' }
  let first = Infinity
  let last = -Infinity
  for (const event of events) {
    const e = event as { type?: unknown; timestamp?: unknown } | null
    if (typeof e !== 'object' || e === null || !Number.isInteger(e.type) || typeof e.timestamp !== 'number' || !Number.isFinite(e.timestamp)) return { invalid: 'events' }
    first = Math.min(first, e.timestamp)
    last = Math.max(last, e.timestamp)
  }
  return { events: events.length, firstTimestamp: first, lastTimestamp: last }
}

/** The batch's JSON, or why it cannot be read: over the limit unpacked, or not gzip. */
function unpack(body: Buffer, gzipped: boolean): string | 'too-large' | 'not-gzip' {
  if (!gzipped) return body.length > REPLAY_MAX_BYTES ? 'too-large' : body.toString('utf8')
  try {
    return gunzipSync(body, { maxOutputLength: REPLAY_MAX_BYTES }).toString('utf8')
  } catch (error) {
    return (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? 'too-large' : 'not-gzip'
  }
}

export function createReplayRouter(deps: ServerDeps, gate: IngestGate): Router {
  const router = Router()
  const throttled = createThrottle(busOf(deps))
  const raw = express.raw({ type: [REPLAY_CONTENT_TYPE, REPLAY_PLAIN_TYPE], limit: MAX_COMPRESSED_BYTES })
  router.post(REPLAY_PATH, validateQuery(REPLAY_QUERY), raw, async (req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store')
    const config = remoteConfigFor(deps, req)
    if (config.AMPLITUDE_REPLAY !== true || !config.AMPLITUDE_KEY) return sendError(res, 403, 'REPLAY_DISABLED')
    const gzipped = !!req.is(REPLAY_CONTENT_TYPE)
    if ((!gzipped && !req.is(REPLAY_PLAIN_TYPE)) || !Buffer.isBuffer(req.body)) return sendError(res, 415, HTTP_ERRORS.unsupportedMediaType, { expected: [REPLAY_CONTENT_TYPE, REPLAY_PLAIN_TYPE] })
    const query = req.query as { device_id: string; session_id: string }
    if (await throttled(`replay:${query.device_id}`)) return sendError(res, 429, HTTP_ERRORS.tooManyRequests)
    const admitted = await gate.admit(req, query.device_id, req.body.length)
    if (!admitted.ok) return refuseOverQuota(res, admitted)
    const json = unpack(req.body, gzipped)
    if (json === 'too-large') return sendError(res, 413, HTTP_ERRORS.payloadTooLarge, { maxBytes: REPLAY_MAX_BYTES })
    if (json === 'not-gzip') return sendError(res, 400, HTTP_ERRORS.validation, { field: 'body', code: 'gzip' })
    const summary = readReplayBatch(json)
    if ('invalid' in summary) return sendError(res, 400, HTTP_ERRORS.validation, { field: 'body', code: summary.invalid })
    const batch = { deviceId: query.device_id, sessionId: Number(query.session_id), userId: await gate.punterOf(req), bytes: Buffer.byteLength(json), compressed: gzipped ? req.body : gzipSync(req.body), ...summary }
    const id = await storeReplayBatch(deps.data, batch, deps.now(), gate.pool().storageBudgetBytes)
    sendOk(res, { stored: id, events: summary.events })
  })
  return router
}
