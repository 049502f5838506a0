/**
 * The five token-update outcomes of spec §3 (kernel/auth/token-update.ts), decided against an
 * injected clock, and what the session does after each (engine/auth/session.ts `updateTokens`).
 */
import { describe, expect, it } from 'vitest'
import type { Result } from '../../../kernel/core/contracts'
import type { Gateway } from '../../../engine/core/gateway'
import { createEngineStores, type StorageLike } from '../../../engine/core/stores'
import { createAuthController } from '../../../engine/auth/session'
import { TOKEN_UPDATE_OUTCOMES, tokenUpdateNeed, updateTokens } from '../../../kernel/auth/token-update'

const NOW = 1_700_000_000_000
const held = (fields: Partial<{ accessToken: string | null; refreshToken: string | null; expireTokenTime: number | null }> = {}) => ({
  accessToken: 'at1',
  refreshToken: 'rt1',
  expireTokenTime: NOW + 1,
  ...fields,
})

describe('the decision before any call (spec §3 token-update outcomes)', () => {
  it('the five outcomes are the spec\'s, in its order', () => {
    expect(TOKEN_UPDATE_OUTCOMES).toEqual(['CURRENT_AT_ACTIVE', 'UPDATED_TOKENS', 'ERROR_RT_UPDATE', 'RT_NOT_AVAILABLE', 'AT_NOT_FOUND'])
  })

  it('an access token valid one millisecond more is CURRENT_AT_ACTIVE; at its expiry time it needs the refresh', () => {
    expect(tokenUpdateNeed(held({ expireTokenTime: NOW + 1 }), NOW)).toBe('CURRENT_AT_ACTIVE')
    expect(tokenUpdateNeed(held({ expireTokenTime: NOW }), NOW)).toBe('REFRESH')
    expect(tokenUpdateNeed(held({ expireTokenTime: NOW - 60_000 }), NOW)).toBe('REFRESH')
  })

  it('no access token is AT_NOT_FOUND, whatever else is held; an expired one without a refresh token is RT_NOT_AVAILABLE', () => {
    expect(tokenUpdateNeed(held({ accessToken: null }), NOW)).toBe('AT_NOT_FOUND')
    expect(tokenUpdateNeed(held({ accessToken: null, refreshToken: null, expireTokenTime: null }), NOW)).toBe('AT_NOT_FOUND')
    expect(tokenUpdateNeed(held({ refreshToken: null, expireTokenTime: NOW }), NOW)).toBe('RT_NOT_AVAILABLE')
    // still valid: the missing refresh token does not matter yet
    expect(tokenUpdateNeed(held({ refreshToken: null }), NOW)).toBe('CURRENT_AT_ACTIVE')
  })

  it('the refresh call is made only when needed; its answer is UPDATED_TOKENS or ERROR_RT_UPDATE (transient for network and 5xx)', async () => {
    let calls = 0
    const answering = (answer: { ok: true } | { ok: false; code: string }) => async () => (calls++, answer)
    expect(await updateTokens(held(), NOW, answering({ ok: true }))).toEqual({ outcome: 'CURRENT_AT_ACTIVE' })
    expect(calls).toBe(0)
    const expired = held({ expireTokenTime: NOW })
    expect(await updateTokens(expired, NOW, answering({ ok: true }))).toEqual({ outcome: 'UPDATED_TOKENS' })
    expect(await updateTokens(expired, NOW, answering({ ok: false, code: 'INVALID_REFRESH_TOKEN' }))).toEqual({ outcome: 'ERROR_RT_UPDATE', code: 'INVALID_REFRESH_TOKEN', transient: false })
    expect(await updateTokens(expired, NOW, answering({ ok: false, code: 'NETWORK_ERROR' }))).toEqual({ outcome: 'ERROR_RT_UPDATE', code: 'NETWORK_ERROR', transient: true })
    expect(await updateTokens(expired, NOW, answering({ ok: false, code: '503' }))).toMatchObject({ transient: true })
    expect(calls).toBe(4)
  })
})

const memoryStorage = (): StorageLike => {
  const data = new Map<string, string>()
  return { getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) }
}

/** A controller over a gateway that records calls and answers the refresh as told. */
function setup(refreshAnswer: Result<unknown> = { ok: true, value: null }) {
  const clock = { now: NOW }
  const calls: string[] = []
  const gateway: Gateway = {
    async call<T>(_method: string, path: string) {
      calls.push(path)
      return (path.endsWith('token/refresh') ? refreshAnswer : { ok: true, value: null }) as Result<T>
    },
  }
  const texts: string[] = []
  const stores = createEngineStores({ storage: memoryStorage() })
  const auth = createAuthController({ stores, gateway, now: () => clock.now, setTimeout: () => ({}), clearTimeout: () => undefined, postText: async (_p, t) => void texts.push(t) })
  const hold = (fields: Parameters<typeof held>[0]) => {
    const h = held(fields)
    stores.session.getState().setSession({ accessToken: h.accessToken, refreshToken: h.refreshToken, creationTime: NOW - 900_000, loginTimeout: 900_000, expireTokenTime: h.expireTokenTime, rememberMe: false, isLoginByAuthToken: false })
    stores.session.getState().setSessionHash('hash-1')
  }
  const popups = () => stores.ui.getState().popups.map((p) => p.id)
  return { clock, calls, texts, stores, auth, hold, popups }
}

describe('the session follows the outcome', () => {
  it('CURRENT_AT_ACTIVE: no refresh call, the session is kept', async () => {
    const { auth, hold, calls, stores } = setup()
    hold({})
    expect(await auth.updateTokens()).toEqual({ outcome: 'CURRENT_AT_ACTIVE' })
    expect(calls).toEqual([])
    expect(stores.session.getState().accessToken).toBe('at1')
  })

  it('RT_NOT_AVAILABLE: an expired access token with nothing to renew it logs out with reason AT_EXPIRED (session-expired popup)', async () => {
    const { auth, hold, calls, stores, popups } = setup()
    hold({ refreshToken: null, expireTokenTime: NOW })
    expect(await auth.updateTokens()).toEqual({ outcome: 'RT_NOT_AVAILABLE' })
    expect(calls.filter((p) => p.endsWith('token/refresh'))).toEqual([])
    expect(stores.session.getState().accessToken).toBeNull()
    expect(popups()).toContain('session-expired')
  })

  it('AT_NOT_FOUND: a refresh token left alone is not used to refresh; it is logged out on the server and cleared', async () => {
    const { auth, hold, calls, texts, stores } = setup()
    hold({ accessToken: null, expireTokenTime: NOW - 1 })
    expect(await auth.updateTokens()).toEqual({ outcome: 'AT_NOT_FOUND' })
    expect(calls.filter((p) => p.endsWith('token/refresh'))).toEqual([])
    expect(texts).toEqual(['rt1'])
    expect(stores.session.getState().refreshToken).toBeNull()
  })

  it('AT_NOT_FOUND for a guest: nothing is called, nothing shown', async () => {
    const { auth, calls, texts, popups } = setup()
    expect(await auth.updateTokens()).toEqual({ outcome: 'AT_NOT_FOUND' })
    expect([calls, texts, popups()]).toEqual([[], [], []])
  })

  it('ERROR_RT_UPDATE refused: logout with reason RT_EXPIRED; transient: the session is kept for a retry', async () => {
    const refused = setup({ ok: false, code: 'INVALID_REFRESH_TOKEN' })
    refused.hold({ expireTokenTime: NOW })
    expect(await refused.auth.updateTokens()).toEqual({ outcome: 'ERROR_RT_UPDATE', code: 'INVALID_REFRESH_TOKEN', transient: false })
    expect(refused.stores.session.getState().refreshToken).toBeNull()
    expect(refused.popups()).toEqual(['session-expired'])
    const down = setup({ ok: false, code: 'NETWORK_ERROR' })
    down.hold({ expireTokenTime: NOW })
    expect(await down.auth.updateTokens()).toEqual({ outcome: 'ERROR_RT_UPDATE', code: 'NETWORK_ERROR', transient: true })
    expect(down.stores.session.getState().refreshToken).toBe('rt1')
    expect(down.popups()).toEqual([])
  })
})
