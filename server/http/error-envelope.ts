/**
 * The application's one error handler, last in server/app.ts: a request's error becomes the JSON
 * envelope with a clear code, never a stack trace. Body-parser failures and other 4xx errors are
 * the client's; a storage outage is a 503 (readiness remembers it); an unverified audit log a 503;
 * anything else is recorded with a request id and answered 500.
 */
import type { ErrorRequestHandler } from 'express'
import type { ServerDeps } from '../deps'
import { isStorageUnavailable } from '../db/database'
import type { Metrics } from '../ops/metrics'
import { requestLog } from '../ops/request-log'
import { recordServerError } from '../services/errors'
import { AuditLogError } from '../store/audit'
import { HTTP_ERRORS, sendError } from './envelope'
import type { createReadiness } from './readiness'

/** What a request's error says about the request itself: its status and code, or undefined when it is the server's. */
export function clientErrorOf(error: unknown): { status: number; code: string } | undefined {
  const err = error as { type?: string; status?: number } | null | undefined
  if (err?.type === 'entity.parse.failed') return { status: 400, code: HTTP_ERRORS.malformedJson }
  if (err?.type === 'entity.too.large') return { status: 413, code: HTTP_ERRORS.payloadTooLarge }
  if (err?.type === 'encoding.unsupported' || err?.type === 'charset.unsupported') return { status: 415, code: HTTP_ERRORS.unsupportedMediaType }
  if (typeof err?.status === 'number' && err.status >= 400 && err.status < 500) return { status: err.status, code: 'BAD_REQUEST' }
  return undefined
}

export function errorEnvelope(deps: ServerDeps, metrics: Metrics, readiness: ReturnType<typeof createReadiness>): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const err = error as { message?: string }
    if (res.headersSent) return
    const client = clientErrorOf(error)
    if (client) return sendError(res, client.status, client.code)
    if (isStorageUnavailable(error)) {
      metrics.storageError(String((error as { code?: unknown }).code))
      return readiness.storageFailed(req, res, error)
    }
    // the audit log was shortened under this server: it writes nothing more that needs an entry (server/store/audit.ts)
    if (error instanceof AuditLogError) {
      deps.log.error('audit.append.refused', { method: req.method, path: req.path, error: err.message })
      res.setHeader('Retry-After', '60')
      return sendError(res, 503, 'AUDIT_LOG_UNVERIFIED')
    }
    const requestId = recordServerError(deps, req, error)
    requestLog(res, deps.log).error('request.failed', { method: req.method, path: req.path, error: err.message, requestId })
    res.setHeader('X-Request-Id', requestId)
    sendError(res, 500, HTTP_ERRORS.internal)
  }
}
