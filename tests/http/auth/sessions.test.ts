import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findPunterByLogin, setLegalAgreement, setPunterState } from '../../../server/punters/repository'
import { blockPunter } from '../../../server/auth/router'
import { TOKEN_LIFETIME } from '../../../server/auth/sessions'
import { startAuthServer, DEMO_PASSWORD, type AuthTestServer } from './support'

let server: AuthTestServer
beforeAll(async () => {
  server = await startAuthServer()
})
afterAll(async () => server?.dispose())

const loginAs = async (login: string, extra: Record<string, unknown> = {}) => {
  const res = await server.login(login, DEMO_PASSWORD, extra)
  expect(res.status).toBe(200)
  return res.json.payload as { accessToken: string; refreshToken: string; punterHash: string; creationTime: number; loginTimeout: number }
}
const heartbeat = (hash: string, headers: Record<string, string> = {}) => server.call('GET', 'heartbeat', { headers: { 'punter-session-hash': hash, ...headers } })
const refresh = (token: string) => server.call('POST', 'auth/v2/token/refresh', { body: { token } })

describe('heartbeat and user calls need a live session (spec §7)', () => {
  it('heartbeat answers the spec §3 user data, whole', async () => {
    const session = await loginAs('vip@demo.parlay.test')
    const res = await heartbeat(session.punterHash)
    expect(res.status).toBe(200)
    expect(Object.keys(res.json.payload)).toEqual(
      expect.arrayContaining([
        'user', 'balanceInfo', 'bonusInfo', 'punterInfo', 'settings', 'loyaltyAccountInfo', 'selfExcludeSettings', 'punterIdentityState',
        'legalAgreementAccepted', 'punterToken', 'documentsUploadState', 'needEmail', 'needAutoVerification', 'identityCheckedManual',
        'needUploadDocuments', 'firstDepositDate', 'vip',
      ]),
    )
    expect(res.json.payload.balanceInfo).toEqual({ mainBalance: 25000, withdrawable: 20000 })
    expect(res.json.payload.punterInfo.state).toBe('OPENED')
    expect(res.json.payload.settings.siteSettings[0].siteType).toBe('MOBILE')
    expect(res.json.payload.vip).toBe(true)
    expect(res.json.payload.punterToken).not.toBe(session.punterHash)
  })

  it('no session hash, an unknown one, or a wrong access token is a 401 UNAUTHORIZED', async () => {
    const session = await loginAs('Opened')
    expect((await server.call('GET', 'heartbeat')).status).toBe(401)
    expect((await heartbeat('x'.repeat(43))).json).toEqual({ status: 'ERROR', errorCode: 'UNAUTHORIZED' })
    expect((await heartbeat(session.punterHash, { authorization: 'Bearer not-the-token' })).status).toBe(401)
    expect((await heartbeat(session.punterHash, { authorization: `Bearer ${session.accessToken}` })).status).toBe(200)
  })

  it('the access token expires at creationTime + loginTimeout; a refresh brings the session back', async () => {
    const session = await loginAs('Opened')
    const timeout = await server.call('GET', 'auth/punter-session/expiration-timeout', { headers: { 'punter-session-hash': session.punterHash } })
    expect(timeout.json.payload).toEqual({ expirationTimeout: TOKEN_LIFETIME.accessMs, expiresAt: session.creationTime + session.loginTimeout })
    server.clock.now += session.loginTimeout
    try {
      expect((await heartbeat(session.punterHash)).status).toBe(401)
      const next = await refresh(session.refreshToken)
      expect(next.status).toBe(200)
      expect(next.json.payload).toMatchObject({ status: 'OK', creationTime: server.clock.now, loginTimeout: TOKEN_LIFETIME.accessMs })
      expect((await heartbeat(session.punterHash)).status).toBe(200)
    } finally {
      server.clock.now -= session.loginTimeout
    }
  })

  it('the refresh token of a session without rememberMe dies after a day; with rememberMe it lives 30 days', async () => {
    const short = await loginAs('Opened')
    const long = await loginAs('Opened', { rememberMe: true })
    server.clock.now += TOKEN_LIFETIME.refreshMs
    try {
      expect((await refresh(short.refreshToken)).json.errorCode).toBe('INVALID_REFRESH_TOKEN')
      expect((await refresh(long.refreshToken)).status).toBe(200)
    } finally {
      server.clock.now -= TOKEN_LIFETIME.refreshMs
    }
  })
})

describe('refresh rotation and reuse detection (RFC 9700 §4.14.2)', () => {
  it('every refresh rotates both tokens, and the old access token stops working', async () => {
    const first = await loginAs('HighRoller')
    const second = (await refresh(first.refreshToken)).json.payload
    expect(second.refreshToken).not.toBe(first.refreshToken)
    expect(second.accessToken).not.toBe(first.accessToken)
    expect((await heartbeat(first.punterHash, { authorization: `Bearer ${first.accessToken}` })).status).toBe(401)
    expect((await heartbeat(first.punterHash, { authorization: `Bearer ${second.accessToken}` })).status).toBe(200)
  })

  it('reusing a used refresh token revokes the whole family: the successor and the session hash die too', async () => {
    const first = await loginAs('HighRoller')
    const other = await loginAs('HighRoller')
    const second = (await refresh(first.refreshToken)).json.payload
    const reuse = await refresh(first.refreshToken)
    expect(reuse.status).toBe(401)
    expect(reuse.json).toEqual({ status: 'ERROR', errorCode: 'INVALID_REFRESH_TOKEN' })
    expect((await refresh(second.refreshToken)).json.errorCode).toBe('INVALID_REFRESH_TOKEN')
    expect((await heartbeat(first.punterHash)).status).toBe(401)
    // Another device's session is another family: untouched.
    expect((await heartbeat(other.punterHash)).status).toBe(200)
  })

  it('two racing refreshes with one token: one wins, then the family is dead', async () => {
    const first = await loginAs('HighRoller')
    const [a, b] = await Promise.all([refresh(first.refreshToken), refresh(first.refreshToken)])
    expect([a.status, b.status].sort()).toEqual([200, 401])
    const winner = a.status === 200 ? a : b
    expect((await refresh(winner.json.payload.refreshToken)).json.errorCode).toBe('INVALID_REFRESH_TOKEN')
  })

  it('a refresh with a bad token is HTTP 401 INVALID_REFRESH_TOKEN (the session is over: the client logs out, reason RT_EXPIRED)', async () => {
    const res = await refresh('nope')
    expect(res.status).toBe(401)
    expect(res.json).toEqual({ status: 'ERROR', errorCode: 'INVALID_REFRESH_TOKEN' })
  })

  it('an expired refresh token is HTTP 401 INVALID_REFRESH_TOKEN too', async () => {
    const session = await loginAs('Opened')
    server.clock.now += TOKEN_LIFETIME.refreshMs
    try {
      const res = await refresh(session.refreshToken)
      expect(res.status).toBe(401)
      expect(res.json.errorCode).toBe('INVALID_REFRESH_TOKEN')
    } finally {
      server.clock.now -= TOKEN_LIFETIME.refreshMs
    }
  })

  it('a malformed refresh body is a 400 validation error, never a 500', async () => {
    for (const body of [{}, { token: '' }, { token: 5 }, { token: 'x'.repeat(201) }, { token: 'a', extra: true }]) {
      const res = await server.call('POST', 'auth/v2/token/refresh', { body })
      expect(res.status).toBe(400)
      expect(res.json.status).toBe('ERROR')
    }
  })
})

describe('logout and blocking end every token and session hash of the punter at once', () => {
  it('logout by refresh token (plain text) ends every session of the punter', async () => {
    const a = await loginAs('PersonalDomain')
    const b = await loginAs('PersonalDomain', { rememberMe: true })
    const res = await server.call('POST', 'auth/token/logout', { raw: a.refreshToken, headers: { 'content-type': 'text/plain' } })
    expect(res.json).toEqual({ status: 'OK', payload: null })
    for (const session of [a, b]) {
      expect((await heartbeat(session.punterHash)).status).toBe(401)
      expect((await refresh(session.refreshToken)).json.errorCode).toBe('INVALID_REFRESH_TOKEN')
    }
  })

  it('plain logout by session hash ends every session of the punter', async () => {
    const a = await loginAs('LegalPending')
    const b = await loginAs('LegalPending')
    expect((await server.call('POST', 'auth/logout', { headers: { 'punter-session-hash': a.punterHash } })).status).toBe(200)
    expect((await heartbeat(a.punterHash)).status).toBe(401)
    expect((await heartbeat(b.punterHash)).status).toBe(401)
    expect((await refresh(b.refreshToken)).json.errorCode).toBe('INVALID_REFRESH_TOKEN')
  })

  it('logout with an unknown token answers OK all the same', async () => {
    expect((await server.call('POST', 'auth/token/logout', { raw: 'unknown', headers: { 'content-type': 'text/plain' } })).json.status).toBe('OK')
    expect((await server.call('POST', 'auth/logout')).json.status).toBe('OK')
  })

  it('blocking a punter ends every session at once', async () => {
    const a = await loginAs('ZeroBalance')
    const b = await loginAs('ZeroBalance')
    const punterId = Number((await heartbeat(a.punterHash)).json.payload.user.account.id)
    await blockPunter(server.deps, punterId, 'SELF_EXCLUDED')
    expect((await heartbeat(a.punterHash)).status).toBe(401)
    expect((await heartbeat(b.punterHash)).status).toBe(401)
    expect((await refresh(b.refreshToken)).json.errorCode).toBe('INVALID_REFRESH_TOKEN')
    await setPunterState(server.deps.data, punterId, 'OPENED', server.clock.now)
  })
})

describe('user calls (spec §7)', () => {
  it('settings: server-side keys are saved and come back in the heartbeat; local-only keys are refused', async () => {
    const s = await loginAs('Opened')
    const headers = { 'punter-session-hash': s.punterHash }
    const saved = await server.call('PUT', 'punter/settings', { body: { oddsType: 'american', showCurrentBalance: false }, headers })
    expect(saved.json.payload).toMatchObject({ oddsType: 'american', showCurrentBalance: false })
    expect((await heartbeat(s.punterHash)).json.payload.settings).toMatchObject({ oddsType: 'american', showCurrentBalance: false, standbyTimeoutMillis: 0 })
    const local = await server.call('PUT', 'punter/settings', { body: { isQuickBetEnable: true }, headers })
    expect(local.status).toBe(400)
    expect(local.json).toEqual({ status: 'ERROR', errorCode: 'ValidationError', payload: { field: 'isQuickBetEnable', code: 'unknownField' } })
    await server.call('PUT', 'punter/settings', { body: { oddsType: 'decimal', showCurrentBalance: true }, headers })
  })

  it('legal agreement: accepting flips legalAgreementAccepted', async () => {
    const s = await loginAs('legal@demo.parlay.test')
    const headers = { 'punter-session-hash': s.punterHash }
    expect((await heartbeat(s.punterHash)).json.payload.legalAgreementAccepted).toBe(false)
    expect((await server.call('POST', 'punter/legal-aggreement', { body: { accepted: true }, headers })).status).toBe(200)
    expect((await heartbeat(s.punterHash)).json.payload.legalAgreementAccepted).toBe(true)
    await setLegalAgreement(server.deps.data, (await findPunterByLogin(server.deps.data, 'curacao', 'email', 'legal@demo.parlay.test'))!.id, 'pending', server.clock.now)
  })

  it('nickname/enabled, first-deposit-date, is-punter-vip, identity', async () => {
    const nonick = await loginAs('no-nickname@demo.parlay.test')
    const japan = await loginAs('japan@demo.parlay.test')
    const vip = await loginAs('HighRoller')
    const get = (path: string, s: { punterHash: string }) => server.call('GET', path, { headers: { 'punter-session-hash': s.punterHash } }).then((r) => r.json.payload)
    expect(await get('nickname/enabled', nonick)).toBe(true)
    expect(await get('nickname/enabled', japan)).toBe(false)
    expect(await get('punter/vip/is-punter-vip', vip)).toBe(true)
    expect(await get('punter/vip/is-punter-vip', nonick)).toBe(false)
    expect(await get('account/first-deposit-date', vip)).toBe('2024-01-15')
    expect(await get('punter/identity', vip)).toMatchObject({ punterIdentityState: 'none' })
  })

  it('the OpenAPI document lists every accounts call', async () => {
    const doc = (await server.call('GET', '/api/openapi.json')).json
    expect(doc.openapi).toBe('3.1.0')
    for (const path of ['auth/v2/login', 'auth/v2/login/phone-number', 'auth/v2/token/refresh', 'auth/token/logout', 'auth/logout', 'heartbeat', 'auth/punter-session/expiration-timeout', 'punter/settings', 'punter/legal-aggreement', 'nickname/enabled', 'account/first-deposit-date', 'punter/vip/is-punter-vip', 'punter/identity'])
      expect(Object.keys(doc.paths)).toContain('/mobile-gate/api/v1/' + path)
  })
})
