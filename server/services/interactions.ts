/**
 * The interaction summaries of session replay (spec §7 "interaction summaries by beacon", spec §9
 * "click aggregation window 1 hour"; the browser side is engine/core/click-summary.ts): one beacon
 * per window of at most an hour, with tap counts per page and element name. Stored per row, read in
 * /admin/services#clicks as the most tapped elements of each page. Off where replay is off.
 */
import { Router, type Request, type Response } from 'express'
import type { ServerDeps } from '../deps'
import { remoteConfigFor } from '../documents/router'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { validateBody, validateQuery } from '../http/validate'
import { createThrottle } from './analytics'
import { busOf } from '../bus'
import { storeClickWindow } from './store'
import { refuseOverQuota, type IngestGate } from './ingest-gate'

export const INTERACTIONS_PATH = '/replay/api/1/interactions'
const HOUR_MS = 3_600_000

export const INTERACTIONS_QUERY = {
  type: 'object',
  required: ['device_id', 'session_id'],
  additionalProperties: false,
  properties: {
    device_id: { type: 'string', pattern: '^[A-Za-z0-9_-]{8,64}$' },
    session_id: { type: 'string', pattern: '^[0-9]{1,16}$' },
  },
} as const

export const INTERACTIONS_BODY = {
  type: 'object',
  required: ['windowStart', 'windowEnd', 'clicks'],
  additionalProperties: false,
  properties: {
    windowStart: { type: 'integer', minimum: 0, maximum: 9_999_999_999_999 },
    windowEnd: { type: 'integer', minimum: 0, maximum: 9_999_999_999_999 },
    clicks: {
      type: 'array',
      minItems: 1,
      maxItems: 301,
      items: {
        type: 'object',
        required: ['page', 'target', 'clicks'],
        additionalProperties: false,
        properties: {
          page: { type: 'string', minLength: 1, maxLength: 200, pattern: '^/' },
          target: { type: 'string', minLength: 1, maxLength: 100 },
          clicks: { type: 'integer', minimum: 1, maximum: 100_000 },
        },
      },
    },
  },
} as const

interface ClickWindowBody {
  windowStart: number
  windowEnd: number
  clicks: Array<{ page: string; target: string; clicks: number }>
}

export function createInteractionsRouter(deps: ServerDeps, gate: IngestGate): Router {
  const router = Router()
  const throttled = createThrottle(busOf(deps))
  router.post(INTERACTIONS_PATH, validateQuery(INTERACTIONS_QUERY), validateBody(INTERACTIONS_BODY), async (req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store')
    const config = remoteConfigFor(deps, req)
    if (config.AMPLITUDE_REPLAY !== true || !config.AMPLITUDE_KEY) return sendError(res, 403, 'REPLAY_DISABLED')
    const query = req.query as { device_id: string; session_id: string }
    const body = req.body as ClickWindowBody
    if (body.windowEnd < body.windowStart || body.windowEnd - body.windowStart > HOUR_MS)
      return sendError(res, 400, HTTP_ERRORS.validation, { field: 'windowEnd', code: 'window' })
    if (await throttled(`clicks:${query.device_id}`)) return sendError(res, 429, HTTP_ERRORS.tooManyRequests)
    const admitted = await gate.admit(req, query.device_id, Number(req.header('content-length') ?? 0))
    if (!admitted.ok) return refuseOverQuota(res, admitted)
    const rows = await storeClickWindow(deps.data, { deviceId: query.device_id, sessionId: Number(query.session_id), ...body }, deps.now(), gate.pool().storageBudgetBytes)
    sendOk(res, { stored: rows })
  })
  return router
}
