/**
 * Reality check, regulation alerts and Spain's session reminder over HTTP (spec §7 reality check
 * and regulation calls, §4 Spain session notification; issue 13 items 2 and 3), with the server
 * clock moved by the test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAuthServer, type AuthTestServer } from '../auth/support'

let server: AuthTestServer
beforeAll(async () => {
  server = await startAuthServer()
})
afterAll(async () => server?.dispose())

const MIN = 60_000
const CASINO = '/casino-gate/api/v1/'
const LIVE = '/live-casino-gate/api/v1/'
const SPAIN = { 'x-parlay-target': 'spain' }

let refreshToken = ''
async function session(login: string, headers: Record<string, string> = {}) {
  const res = await server.call('POST', 'auth/v2/login', { body: { login, password: 'parlay-demo-1' }, headers })
  expect(res.status, res.text).toBe(200)
  refreshToken = res.json.payload.refreshToken
  return res.json.payload.punterHash as string
}

/** Moves the server clock as a page would live through it: the access token refreshed every 10 minutes. */
async function play(ms: number) {
  for (let left = ms; left > 0; left -= 10 * MIN) {
    server.clock.now += Math.min(left, 10 * MIN)
    const refreshed = await server.call('POST', 'auth/v2/token/refresh', { body: { token: refreshToken } })
    expect(refreshed.status, refreshed.text).toBe(200)
    refreshToken = refreshed.json.payload.refreshToken
  }
}
const as = (hash: string, extra: Record<string, string> = {}) => ({ headers: { 'punter-session-hash': hash, ...extra } })

describe('reality check (casino and live casino gates)', () => {
  it('settings: nothing chosen at first; choosing one of the offered intervals is the agreement', async () => {
    const hash = await session('Opened')
    const before = await server.call('GET', `${CASINO}realitycheck/punter/settings`, as(hash))
    expect(before.json.payload).toEqual({ timeout: null, accepted: false, timeouts: [15, 30, 60, 120] })
    const saved = await server.call('POST', `${LIVE}realitycheck/punter/settings`, { body: { timeout: 30 }, ...as(hash) })
    expect(saved.json.payload).toEqual({ timeout: 30, accepted: true, timeouts: [15, 30, 60, 120] })
    expect((await server.call('GET', 'heartbeat', as(hash))).json.payload.realityCheckAccepted).toBe(true)
  })

  it('check reminds once the chosen minutes have passed since the first check, with the time played; clear starts a new interval', async () => {
    const hash = await session('RealityCheck')
    const check = async () => (await server.call('GET', `${CASINO}realitycheck/check`, as(hash))).json.payload
    expect(await check()).toEqual({ remind: false, hours: 0, minutes: 0 })
    await play(15 * MIN - 1)
    expect((await check()).remind).toBe(false)
    await play(1)
    expect(await check()).toEqual({ remind: true, hours: 0, minutes: 15 })
    // the live casino gate shares the session's play clock
    expect((await server.call('GET', `${LIVE}realitycheck/check`, as(hash))).json.payload.remind).toBe(true)
    expect((await server.call('POST', `${CASINO}realitycheck/clear`, { body: {}, ...as(hash) })).json.payload).toEqual({ success: true })
    expect((await check()).remind).toBe(false)
    await play(62 * MIN)
    expect(await check()).toEqual({ remind: true, hours: 1, minutes: 17 })
  })

  it('without a chosen interval check never reminds, but still counts the time played', async () => {
    const hash = await session('PersonalDomain')
    await server.call('GET', `${CASINO}realitycheck/check`, as(hash))
    await play(3 * 60 * MIN)
    expect((await server.call('GET', `${CASINO}realitycheck/check`, as(hash))).json.payload).toEqual({ remind: false, hours: 3, minutes: 0 })
  })

  it.each([
    ['an interval not offered', { timeout: 45 }, 'REALITY_CHECK_TIMEOUT_NOT_OFFERED'],
    ['a string interval', { timeout: '15' }, 'ValidationError'],
    ['zero', { timeout: 0 }, 'ValidationError'],
    ['an unknown field', { timeout: 15, remind: false }, 'ValidationError'],
  ])('settings with %s → 400 %s', async (_name, body, code) => {
    const hash = await session('Opened')
    const res = await server.call('POST', `${CASINO}realitycheck/punter/settings`, { body, ...as(hash) })
    expect(res.status).toBe(400)
    expect(res.json).toMatchObject({ status: 'ERROR', errorCode: code })
  })

  it('every reality-check call needs a session (401 in the envelope); an unknown path on the gate is a 404 in the envelope', async () => {
    for (const [method, path] of [['GET', 'realitycheck/check'], ['POST', 'realitycheck/clear'], ['GET', 'realitycheck/punter/settings'], ['POST', 'realitycheck/punter/settings']]) {
      const res = await server.call(method, CASINO + path, { body: method === 'POST' ? {} : undefined })
      expect(res.status, path).toBe(401)
      expect(res.json.errorCode).toBe('UNAUTHORIZED')
    }
    const unknown = await server.call('GET', `${CASINO}realitycheck/nothing`)
    expect(unknown.status).toBe(404)
    expect(unknown.json.errorCode).toBe('NOT_FOUND')
  })
})

describe('regulation alerts', () => {
  it('the info shows time played, total bet and lost until the punter confirms; confirming twice changes nothing', async () => {
    const hash = await session('Sevilla', SPAIN)
    const info = await server.call('GET', 'regulation/punter/alerts/notification/info', as(hash, SPAIN))
    expect(info.json.payload.notificationInfo).toEqual({ status: 'NEED_TO_CONFIRM', spentHours: 3, totalBetMinUnit: 25_000, totalLostMinUnit: 12_000 })
    const confirmed = await server.call('POST', 'regulation/punter/alerts/notification/confirm', { body: {}, ...as(hash, SPAIN) })
    expect(confirmed.json.payload.notificationInfo.status).toBe('CONFIRMED')
    expect((await server.call('POST', 'regulation/punter/alerts/notification/confirm', { body: {}, ...as(hash, SPAIN) })).json.payload.notificationInfo.status).toBe('CONFIRMED')
    expect((await server.call('GET', 'regulation/punter/alerts/notification/info', as(hash, SPAIN))).json.payload.notificationInfo.status).toBe('CONFIRMED')
  })

  it('a punter without an alert gets NO_ALERT; bad input and no session are 4xx', async () => {
    const hash = await session('Opened')
    expect((await server.call('GET', 'regulation/punter/alerts/notification/info', as(hash))).json.payload.notificationInfo).toEqual({ status: 'NO_ALERT', spentHours: 0, totalBetMinUnit: 0, totalLostMinUnit: 0 })
    expect((await server.call('POST', 'regulation/punter/alerts/notification/confirm', { body: { status: 'CONFIRMED' }, ...as(hash) })).status).toBe(400)
    expect((await server.call('GET', 'regulation/punter/alerts/notification/info')).status).toBe(401)
  })
})

describe("Spain's session reminder: NO_ACTIVE_SESSION, SESSION_IS_CONFIRMED, NEED_TO_CONFIRM_SESSION", () => {
  it('without a session the state is NO_ACTIVE_SESSION', async () => {
    const res = await server.call('GET', 'regulation/punter/session/notification', { headers: SPAIN })
    expect(res.json.payload).toMatchObject({ status: 'NO_ACTIVE_SESSION', intervalMinutes: 60 })
  })

  it('a session is confirmed until the interval of Spain\'s document has passed; confirming is offered only then and starts a new interval', async () => {
    const hash = await session('Madrid', SPAIN)
    const state = async () => (await server.call('GET', 'regulation/punter/session/notification', as(hash, SPAIN))).json.payload
    const loggedInAt = server.clock.now
    expect(await state()).toEqual({ status: 'SESSION_IS_CONFIRMED', intervalMinutes: 60, minutesPlayed: 0, nextReminderAt: loggedInAt + 60 * MIN })
    const early = await server.call('POST', 'regulation/punter/session/confirm', { body: {}, ...as(hash, SPAIN) })
    expect(early.status).toBe(409)
    expect(early.json).toMatchObject({ errorCode: 'SESSION_CONFIRMATION_NOT_NEEDED', payload: { status: 'SESSION_IS_CONFIRMED' } })
    await play(60 * MIN)
    expect((await state()).status).toBe('NEED_TO_CONFIRM_SESSION')
    const confirmed = await server.call('POST', 'regulation/punter/session/confirm', { body: {}, ...as(hash, SPAIN) })
    expect(confirmed.json.payload).toMatchObject({ status: 'SESSION_IS_CONFIRMED', minutesPlayed: 60, nextReminderAt: server.clock.now + 60 * MIN })
  })

  it('a site without the reminder (Curaçao) answers NO_ACTIVE_SESSION even with a session', async () => {
    const hash = await session('Opened')
    expect((await server.call('GET', 'regulation/punter/session/notification', as(hash))).json.payload.status).toBe('NO_ACTIVE_SESSION')
    expect((await server.call('POST', 'regulation/punter/session/confirm', { body: {}, ...as(hash) })).status).toBe(409)
  })
})
