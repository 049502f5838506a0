/**
 * Error reporting (spec §1/§9, issue 18 item 3): the browser sends client exceptions, failed
 * action chains and socket send errors as envelopes in the error-reporting vendor's format
 * (newline-separated JSON: envelope header, item header, item) to our own endpoint; the server's
 * own 5xx are stored here too, with the request id the punter's answer carries. A client report is
 * the session's punter's (a guest's: anonymous), within the quotas and the storage budget (issue 30).
 */
import { randomUUID } from 'node:crypto'
import express, { Router, type Request, type Response } from 'express'
import type { ServerDeps } from '../deps'
import { remoteConfigFor } from '../documents/router'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { storeError, type ErrorFrame, type ReportedError } from './store'
import { poolPolicyOf, refuseOverQuota, type IngestGate } from './ingest-gate'

export const ERRORS_PATH = '/errors/api/1/envelope'
export const ENVELOPE_CONTENT_TYPE = 'application/x-sentry-envelope'
const MAX_ENVELOPE_BYTES = 64 * 1024
const MAX_ITEMS = 10

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function text(value: unknown, max: number): string | null {
  return typeof value === 'string' && value.length > 0 ? value.slice(0, max) : null
}

function framesOf(stacktrace: unknown): ErrorFrame[] {
  const frames = isRecord(stacktrace) && Array.isArray(stacktrace.frames) ? stacktrace.frames : []
  return frames.filter(isRecord).slice(0, 50).flatMap((f) => {
    const file = text(f.filename, 300)
    if (!file || !Number.isSafeInteger(f.lineno) || !Number.isSafeInteger(f.colno)) return []
    const name = text(f.function, 100)
    return [{ file, line: f.lineno as number, column: f.colno as number, ...(name ? { function: name } : {}) }]
  })
}

/** An event item as stored, or null when it is not one we keep. */
function errorOf(event: unknown): ReportedError | null {
  if (!isRecord(event)) return null
  const exception = isRecord(event.exception) && Array.isArray(event.exception.values) ? event.exception.values.find(isRecord) : undefined
  const message = text(exception?.value, 2000) ?? text(event.message, 2000)
  if (!message) return null
  const tags = isRecord(event.tags) ? event.tags : {}
  const request = isRecord(event.request) ? event.request : {}
  return {
    origin: 'client',
    kind: text(tags.kind, 40) ?? text(exception?.type, 40) ?? 'error',
    message,
    frames: framesOf(exception?.stacktrace),
    requestId: null,
    release: text(event.release, 60),
    url: text(request.url, 300),
  }
}

/** Parses an envelope: header line, then (item header, payload) pairs. Null when malformed. */
export function parseEnvelope(body: string): ReportedError[] | null {
  const lines = body.split('\n').filter((line) => line.trim() !== '')
  if (lines.length < 3 || lines.length > 1 + MAX_ITEMS * 2) return null
  try {
    if (!isRecord(JSON.parse(lines[0]))) return null
    const errors: ReportedError[] = []
    for (let i = 1; i + 1 < lines.length; i += 2) {
      const header = JSON.parse(lines[i]) as unknown
      const payload = JSON.parse(lines[i + 1]) as unknown
      if (!isRecord(header)) return null
      if (header.type !== 'event') continue
      const error = errorOf(payload)
      if (error) errors.push(error)
    }
    return errors
  } catch {
    return null
  }
}

export function createErrorsRouter(deps: ServerDeps, gate: IngestGate): Router {
  const router = Router()
  router.post(ERRORS_PATH, express.text({ type: ENVELOPE_CONTENT_TYPE, limit: MAX_ENVELOPE_BYTES }), async (req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store')
    // the site's switch (remote config ERROR_REPORTING_ENABLED: false); the server's own 5xx are kept regardless
    if (remoteConfigFor(deps, req).ERROR_REPORTING_ENABLED === false) return sendError(res, 403, 'ERROR_REPORTING_DISABLED')
    if (!req.is(ENVELOPE_CONTENT_TYPE) || typeof req.body !== 'string') return sendError(res, 415, HTTP_ERRORS.unsupportedMediaType, { expected: ENVELOPE_CONTENT_TYPE })
    const admitted = await gate.admit(req, '-', Buffer.byteLength(req.body))
    if (!admitted.ok) return refuseOverQuota(res, admitted)
    const errors = parseEnvelope(req.body)
    if (!errors) return sendError(res, 400, HTTP_ERRORS.validation, { field: 'body', code: 'envelope' })
    const userId = await gate.punterOf(req)
    for (const error of errors) await storeError(deps.data, { ...error, userId }, deps.now(), gate.pool().storageBudgetBytes)
    sendOk(res, { stored: errors.length })
  })
  return router
}

/** Stores a server 5xx; returns the request id the answer names (X-Request-Id). Never throws. */
export function recordServerError(deps: Pick<ServerDeps, 'data' | 'now' | 'documents'>, req: Request, error: unknown): string {
  // the request's own id (server/ops/request-log.ts) when it has one, so the log line, the answer
  // header and the stored error name the same request
  const given = req.res?.getHeader('X-Request-Id')
  const requestId = typeof given === 'string' ? given : randomUUID()
  try {
    const err = error as { name?: string; message?: string; stack?: string }
    const frames = String(err.stack ?? '')
      .split('\n')
      .slice(1, 20)
      .flatMap((line) => {
        const m = /\(?([^\s()]+):(\d+):(\d+)\)?$/.exec(line.trim())
        return m ? [{ file: m[1], line: Number(m[2]), column: Number(m[3]) }] : []
      })
    // not awaited: the 500 answers at once; a database that is itself the failure only loses this row
    const stored = { origin: 'server' as const, kind: err.name ?? 'Error', message: `${req.method} ${req.path}: ${err.message ?? String(error)}`, frames, requestId, release: null, url: req.originalUrl.slice(0, 300) }
    void storeError(deps.data, stored, deps.now(), poolPolicyOf(deps.documents).storageBudgetBytes).catch(() => undefined)
  } catch {
    // the database may be the failure itself: the log line still carries the id
  }
  return requestId
}
