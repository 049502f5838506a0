/**
 * The error envelope's rule for the client's own mistakes (server/http/error-envelope.ts): a body
 * that does not parse, is too large or is in an unsupported encoding, and any other 4xx error, is
 * answered as the request's fault with its code; everything else is the server's (a 500 or 503).
 */
import { describe, expect, it } from 'vitest'
import { clientErrorOf } from '../../../server/http/error-envelope'

describe('a request error that is the client\'s', () => {
  it('body-parser failures answer 400 MALFORMED_JSON, 413 PAYLOAD_TOO_LARGE and 415 UNSUPPORTED_MEDIA_TYPE', () => {
    expect(clientErrorOf({ type: 'entity.parse.failed', status: 400 })).toEqual({ status: 400, code: 'MALFORMED_JSON' })
    expect(clientErrorOf({ type: 'entity.too.large', status: 413 })).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE' })
    expect(clientErrorOf({ type: 'encoding.unsupported', status: 415 })).toEqual({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' })
    expect(clientErrorOf({ type: 'charset.unsupported', status: 415 })).toEqual({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' })
  })

  it('any other error with a 4xx status keeps that status as BAD_REQUEST', () => {
    expect(clientErrorOf({ status: 400 })).toEqual({ status: 400, code: 'BAD_REQUEST' })
    expect(clientErrorOf({ type: 'request.aborted', status: 400 })).toEqual({ status: 400, code: 'BAD_REQUEST' })
    expect(clientErrorOf(Object.assign(new Error('no'), { status: 499 }))).toEqual({ status: 499, code: 'BAD_REQUEST' })
  })

  it('an error without a 4xx status is the server\'s, never answered as the client\'s', () => {
    expect(clientErrorOf(new Error('boom'))).toBeUndefined()
    expect(clientErrorOf({ status: 399 })).toBeUndefined()
    expect(clientErrorOf({ status: 500 })).toBeUndefined()
    expect(clientErrorOf({ status: '404' })).toBeUndefined()
    expect(clientErrorOf({ code: 'SQLITE_BUSY' })).toBeUndefined()
  })
})
