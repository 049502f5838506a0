import { describe, expect, it, vi } from 'vitest'
import { createGateway, errorMessageKey, extractErrorCode } from '../../../engine/core/gateway'
import { createEngineStores } from '../../../engine/core/stores'
import { response, siteBootstrap } from './helpers'

describe('spec §8 error extraction', () => {
  it.each([
    ['status other than OK → errorCode', 200, { status: 'ERROR', errorCode: 'DUPLICATE_EMAIL' }, 'DUPLICATE_EMAIL'],
    ['errorType comes first', 200, { status: 'ERROR', errorType: 'CAPTCHA_REQUIRED', errorCode: 'X' }, 'CAPTCHA_REQUIRED'],
    ['then code', 200, { status: 'FAIL', code: 'CODE_EXPIRED' }, 'CODE_EXPIRED'],
    ['then error', 200, { status: 'FAIL', error: 'access_denied' }, 'access_denied'],
    ['then reason', 200, { status: 'FAIL', reason: 'LOGIN_NOT_FOUND' }, 'LOGIN_NOT_FOUND'],
    ['an error payload with status OK', 200, { status: 'OK', errorCode: 'FORBIDDEN' }, 'FORBIDDEN'],
    ['status not OK without a code → the status', 200, { status: 'ERROR' }, 'ERROR'],
    ['OK is a success', 200, { status: 'OK', payload: 1 }, undefined],
    ['HTTP error → its code', 400, { status: 'ERROR', errorCode: 'ValidationError' }, 'ValidationError'],
    ['HTTP error without a code → the status number', 404, null, '404'],
    ['HTTP 500 without code → INTERNAL_SERVER_ERROR', 500, null, 'INTERNAL_SERVER_ERROR'],
    ['HTTP 500 with a code keeps the code', 500, { errorCode: 'COMMON_ERROR' }, 'COMMON_ERROR'],
    ['HTTP 401 → UNAUTHORIZED', 401, { errorCode: 'WHATEVER' }, 'UNAUTHORIZED'],
    ['INVALID_SESSION_HASH → UNAUTHORIZED', 200, { status: 'ERROR', errorCode: 'INVALID_SESSION_HASH' }, 'UNAUTHORIZED'],
    ['password not passed → PLAYER_NOT_VERIFIED_PASSWORD', 200, { status: 'ERROR', errorCode: 'PASSWORD_NOT_PASSED' }, 'PLAYER_NOT_VERIFIED_PASSWORD'],
  ])('%s', (_rule, status, body, code) => expect(extractErrorCode(status, body)).toBe(code))
})

describe('spec §8 display rules', () => {
  it.each(['EMPTY_TOKEN', 'TOKEN_NOT_FOUND', 'LOGIN_NOT_FOUND', 'INCORRECT_PUNTER_STATE', 'ERROR'])("%s shows 'server.error.undefined'", (code) =>
    expect(errorMessageKey(code)).toBe('server.error.undefined'),
  )
  it("other codes show 'server.error.{code}'", () => expect(errorMessageKey('DUPLICATE_EMAIL')).toBe('server.error.DUPLICATE_EMAIL'))
  it("an unknown error falls back to 'common.request.error'", () => {
    expect(errorMessageKey(undefined)).toBe('common.request.error')
    expect(errorMessageKey('NO_TEXT_FOR_THIS', () => false)).toBe('common.request.error')
  })
})

describe('gateway calls (spec §7)', () => {
  function setup(answer: () => Promise<Response> | Response, session = true) {
    const stores = createEngineStores({ site: siteBootstrap() })
    if (session) {
      stores.session.getState().setSession({ accessToken: 'at-1' })
      stores.session.getState().setSessionHash('hash-1')
    }
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) => answer())
    const onUnauthorized = vi.fn()
    const gateway = createGateway({ fetch, stores, onUnauthorized })
    return { fetch, gateway, onUnauthorized }
  }

  it('carries source, target, version, session hash and bearer token; returns the payload', async () => {
    const { fetch, gateway } = setup(() => response({ status: 200, body: { status: 'OK', payload: { balance: 5 } } }))
    expect(await gateway.call('post', '/api/gateway/heartbeat', { a: 1 })).toEqual({ ok: true, value: { balance: 5 } })
    const [url, init] = fetch.mock.calls[0]
    expect(url).toBe('/api/gateway/heartbeat')
    expect(init?.method).toBe('POST')
    expect(init?.body).toBe('{"a":1}')
    expect(init?.headers).toMatchObject({
      'x-parlay-source': 'web',
      'x-parlay-target': 'russia',
      'x-parlay-version': '1.22.0',
      'punter-session-hash': 'hash-1',
      authorization: 'Bearer at-1',
      'content-type': 'application/json',
    })
  })

  it('a guest sends neither session hash nor token', async () => {
    const { fetch, gateway } = setup(() => response({ status: 200, body: { status: 'OK', payload: null } }), false)
    await gateway.call('GET', '/x')
    const headers = fetch.mock.calls[0][1]?.headers as Record<string, string>
    expect(headers.authorization).toBeUndefined()
    expect(headers['punter-session-hash']).toBeUndefined()
  })

  it('an unauthorised answer calls the onUnauthorized hook', async () => {
    const { gateway, onUnauthorized } = setup(() => response({ status: 401, body: {} }))
    expect(await gateway.call('GET', '/x')).toMatchObject({ ok: false, code: 'UNAUTHORIZED' })
    expect(onUnauthorized).toHaveBeenCalledOnce()
  })

  it('a network failure is NETWORK_ERROR', async () => {
    const { gateway } = setup(() => Promise.reject(new TypeError('Failed to fetch')))
    expect(await gateway.call('GET', '/x')).toMatchObject({ ok: false, code: 'NETWORK_ERROR' })
  })

  it('after 30 000 ms the request is aborted as TIMEOUT', async () => {
    vi.useFakeTimers()
    try {
      const stores = createEngineStores({ site: siteBootstrap() })
      const fetch = vi.fn(
        (_url: string, init?: RequestInit) =>
          new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
      )
      const pending = createGateway({ fetch, stores }).call('GET', '/slow')
      await vi.advanceTimersByTimeAsync(29_999)
      expect(fetch).toHaveBeenCalledOnce()
      await vi.advanceTimersByTimeAsync(1)
      expect(await pending).toMatchObject({ ok: false, code: 'TIMEOUT' })
    } finally {
      vi.useRealTimers()
    }
  })

  it('a non-JSON success body is returned as null without throwing', async () => {
    const { gateway } = setup(() => response({ status: 200, raw: 'plain text' }))
    expect(await gateway.call('GET', '/x')).toEqual({ ok: true, value: null })
  })

  it('an encoded body goes as is with its content type, keepalive when asked', async () => {
    const { fetch, gateway } = setup(() => response({ status: 200, body: { status: 'OK', payload: null } }))
    await gateway.call('POST', '/mobile-gate/api/v1/auth/token/logout', 'refresh-1', { contentType: 'text/plain', keepalive: true })
    const [, init] = fetch.mock.calls[0]
    expect(init?.body).toBe('refresh-1')
    expect(init?.keepalive).toBe(true)
    expect(init?.headers).toMatchObject({ 'content-type': 'text/plain', 'punter-session-hash': 'hash-1' })
  })

  it('a failure carries its HTTP status (the analytics uploader reads 413 and 429 from it)', async () => {
    const { gateway } = setup(() => response({ status: 429, body: { code: 429, error: 'too many uploads' } }))
    expect(await gateway.call('POST', '/analytics/api/2/httpapi', '{}', { contentType: 'application/json' })).toMatchObject({ ok: false, httpStatus: 429 })
  })

  it('a call that does not retry unauthorised answers never reaches onUnauthorized', async () => {
    const { gateway, onUnauthorized } = setup(() => response({ status: 401, body: { errorCode: 'UNAUTHORIZED' } }))
    expect(await gateway.call('POST', '/x', 'token', { contentType: 'text/plain', retryUnauthorized: false })).toMatchObject({ ok: false, code: 'UNAUTHORIZED' })
    expect(onUnauthorized).not.toHaveBeenCalled()
  })

  it('without stores (the first screen\'s data) it sends the site headers and no credentials', async () => {
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) => response({ status: 200, body: { status: 'OK', payload: 1 } }))
    const gateway = createGateway({ fetch, site: () => ({ bootstrap: siteBootstrap(), locale: 'ru' }) })
    expect(await gateway.call('GET', '/api/data')).toEqual({ ok: true, value: 1 })
    const headers = fetch.mock.calls[0][1]?.headers as Record<string, string>
    expect(headers).toMatchObject({ 'x-parlay-target': 'russia', 'accept-language': 'ru' })
    expect(headers.authorization).toBeUndefined()
    expect(headers['punter-session-hash']).toBeUndefined()
  })
})
