/**
 * The one response envelope of the gateway (spec §7/§8):
 * `{"status":"OK","payload":…}` or `{"status":"ERROR","errorCode":"…"}`.
 */
import type { Response } from 'express'

export function sendOk(res: Response, payload: unknown = null, httpStatus = 200): void {
  res.status(httpStatus).json({ status: 'OK', payload })
}

export function sendError(res: Response, httpStatus: number, errorCode: string, payload?: unknown): void {
  res.status(httpStatus).json(payload === undefined ? { status: 'ERROR', errorCode } : { status: 'ERROR', errorCode, payload })
}

/** Error codes the HTTP layer itself answers with (the product codes live in spec §8). */
export const HTTP_ERRORS = {
  malformedJson: 'MALFORMED_JSON',
  unsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  payloadTooLarge: 'PAYLOAD_TOO_LARGE',
  validation: 'ValidationError',
  notFound: 'NOT_FOUND',
  methodNotAllowed: 'METHOD_NOT_ALLOWED',
  internal: 'INTERNAL_SERVER_ERROR',
  unauthorized: 'UNAUTHORIZED',
  badHeader: 'BAD_HEADER',
  tooManyRequests: 'TOO_MANY_REQUESTS',
  /** The database cannot write (full, read-only, I/O error, locked, corrupt): 503, retry later. */
  storageUnavailable: 'STORAGE_UNAVAILABLE',
} as const
