/**
 * The services views of /admin (issue 18 item 4): analytics events, reported errors (client frames
 * mapped to source lines through the build's hidden source maps), recognitions, the
 * multi-accounting flag and session replays. Mounted inside the admin router (session + CSRF); every read is audited.
 * The page itself is /admin/services, a page of its own so it does not touch the main admin script.
 */
import { existsSync, readFileSync } from 'node:fs'
import { basename, join, relative, resolve, sep } from 'node:path'
import { Router, type Request, type Response } from 'express'
import { SourceMapConsumer } from 'source-map-js'
import type { ServerDeps } from '../deps'
import { gunzipSync } from 'node:zlib'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { validateQuery } from '../http/validate'
import { listErrors, listEvents, listPageClicks, listRecognitions, listReplaySessions, replayBatchesOf, sharedVisitors, type ErrorFrame } from './store'
import { poolPolicyOf } from './ingest-gate'

/** Appends a read's audit entry; awaited before the answer, so a read that cannot be audited is not returned. */
type Audit = (req: Request, action: string, details: Record<string, unknown>) => Promise<void>

export const SERVICES_LIST_QUERY = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'string', pattern: '^([1-9][0-9]{0,2}|1000)$', description: 'How many, newest first (default 200, at most 1000).' },
    deviceId: { type: 'string', pattern: '^[A-Za-z0-9_-]{8,64}$', description: 'Events of one device only.' },
  },
} as const

const limitOf = (req: Request) => (typeof req.query.limit === 'string' ? Number(req.query.limit) : 200)

const PROJECT_ROOT = resolve(import.meta.dirname, '..', '..')

/**
 * A map's source as a path in the project (`engine/services/browser.ts`), wherever the client was
 * built: sources are relative to the map's folder, which for a build outside the project (tests, a
 * temp dir) climbs out of it first.
 */
export function projectPath(mapDir: string, source: string): string {
  const absolute = resolve(mapDir, source)
  if (absolute.startsWith(PROJECT_ROOT + sep)) return relative(PROJECT_ROOT, absolute).split(sep).join('/')
  return source.replace(/^(\.\.\/)+/, '')
}

/** Maps built-file frames (`/assets/<file>.js`) to source lines with the hidden `.map` beside it. */
export function sourceMapper(distDir: string) {
  const consumers = new Map<string, SourceMapConsumer | null>()
  const consumerFor = (file: string): SourceMapConsumer | null => {
    if (!consumers.has(file)) {
      const path = join(distDir, 'assets', `${file}.map`)
      let consumer: SourceMapConsumer | null = null
      try {
        if (existsSync(path)) consumer = new SourceMapConsumer(JSON.parse(readFileSync(path, 'utf8')))
      } catch {
        consumer = null
      }
      consumers.set(file, consumer)
    }
    return consumers.get(file) ?? null
  }
  return (frame: ErrorFrame): ErrorFrame & { source?: { file: string; line: number; column: number; name?: string } } => {
    const match = /\/assets\/([A-Za-z0-9._-]+\.js)(?:[?#].*)?$/.exec(frame.file)
    const consumer = match ? consumerFor(basename(match[1])) : null
    if (!consumer) return frame
    const original = consumer.originalPositionFor({ line: frame.line, column: Math.max(0, frame.column - 1) })
    if (!original.source || original.line === null) return frame
    const file = projectPath(join(distDir, 'assets'), original.source)
    return { ...frame, source: { file, line: original.line, column: (original.column ?? 0) + 1, ...(original.name ? { name: original.name } : {}) } }
  }
}

export function createAdminServicesRouter(deps: ServerDeps, audit: Audit): Router {
  const router = Router()
  const mapFrame = sourceMapper(deps.config.distDir)
  /** The start of a kind's retention now: older rows are never shown, even before the sweep deletes them. */
  const since = (kind: 'replays' | 'clicks') => deps.now() - poolPolicyOf(deps.documents).retentionMs[kind]

  router.get('/admin/api/services/events', validateQuery(SERVICES_LIST_QUERY), async (req: Request, res: Response) => {
    const deviceId = typeof req.query.deviceId === 'string' ? req.query.deviceId : undefined
    const events = await listEvents(deps.data.db, { deviceId, limit: limitOf(req) })
    await audit(req, 'admin.analytics-read', { deviceId: deviceId ?? null, count: events.length })
    // a guest's events are its device's only: marked anonymous, never attributed to a punter
    sendOk(res, events.map((event) => ({ ...event, anonymous: event.userId === null })))
  })

  router.get('/admin/api/services/errors', validateQuery(SERVICES_LIST_QUERY), async (req: Request, res: Response) => {
    const errors = (await listErrors(deps.data.db, limitOf(req))).map((error) => ({ ...error, anonymous: error.userId === null, frames: error.frames.map(mapFrame) }))
    await audit(req, 'admin.errors-read', { count: errors.length })
    sendOk(res, errors)
  })

  router.get('/admin/api/services/recognitions', validateQuery(SERVICES_LIST_QUERY), async (req: Request, res: Response) => {
    const limit = limitOf(req)
    const payload = { recognitions: await listRecognitions(deps.data, limit), sharedVisitors: await sharedVisitors(deps.data.db, limit) }
    await audit(req, 'admin.recognitions-read', { count: payload.recognitions.length, shared: payload.sharedVisitors.length })
    sendOk(res, payload)
  })

  router.get('/admin/api/services/replays', validateQuery(SERVICES_LIST_QUERY), async (req: Request, res: Response) => {
    const sessions = await listReplaySessions(deps.data.db, limitOf(req), since('replays'))
    await audit(req, 'admin.replays-read', { count: sessions.length })
    sendOk(res, sessions.map((session) => ({ ...session, anonymous: session.userIds.length === 0 })))
  })

  router.get('/admin/api/services/clicks', validateQuery(SERVICES_LIST_QUERY), async (req: Request, res: Response) => {
    const clicks = await listPageClicks(deps.data.db, limitOf(req), since('clicks'))
    await audit(req, 'admin.clicks-read', { count: clicks.length })
    sendOk(res, clicks)
  })

  router.get('/admin/api/services/replays/:deviceId/:sessionId', async (req: Request, res: Response) => {
    const { deviceId, sessionId } = req.params as { deviceId: string; sessionId: string }
    if (!/^[A-Za-z0-9_-]{8,64}$/.test(deviceId) || !/^[0-9]{1,16}$/.test(sessionId)) return sendError(res, 400, HTTP_ERRORS.validation, { field: 'params', code: 'pattern' })
    const batches = await replayBatchesOf(deps.data.db, deviceId, Number(sessionId), MAX_REPLAY_BATCHES, since('replays'))
    if (batches.length === 0) return sendError(res, 404, HTTP_ERRORS.notFound)
    const events = batches.flatMap((body) => (JSON.parse(gunzipSync(body).toString('utf8')) as { events: unknown[] }).events)
    // who watched which punter's session, and when: the audit entry of every view
    await audit(req, 'admin.replay-viewed', { deviceId, sessionId: Number(sessionId), batches: batches.length, events: events.length })
    sendOk(res, { deviceId, sessionId: Number(sessionId), events })
  })
  return router
}

/** A replay view sends at most this many batches (up to 1 MB each unpacked). */
const MAX_REPLAY_BATCHES = 20
