/**
 * Self-exclusion and restrictions over HTTP (spec §7 self-exclude calls, §4 active restrictions,
 * issue 13 item 1): takes effect at once, login refused with the exclusion passed through, never
 * shortened, restrictions in one priority order, and assertAllowed per the jurisdiction document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAuthServer, type AuthTestServer } from '../auth/support'
import { assertAllowed, RESTRICTION_PRIORITY } from '../../../server/regulation/restrictions'
import { findPunterByLogin } from '../../../server/punters/repository'

let server: AuthTestServer
beforeAll(async () => {
  server = await startAuthServer()
})
afterAll(async () => server?.dispose())

const DAY = 86_400_000
/** fetch cannot set Host: the target header names the site (as native apps do). */
const SPAIN = { 'x-parlay-target': 'spain' }
const ITALY = { 'x-parlay-target': 'italy' }

async function session(login: string, headers: Record<string, string> = {}) {
  const res = await server.call('POST', 'auth/v2/login', { body: { login, password: 'parlay-demo-1' }, headers })
  expect(res.status, res.text).toBe(200)
  return res.json.payload.punterHash as string
}
const as = (hash: string, extra: Record<string, string> = {}) => ({ headers: { 'punter-session-hash': hash, ...extra } })

describe('self-exclusion takes effect at once and cannot be shortened', () => {
  it('a timeout ends every session of the punter and the login is then refused with the exclusion passed through', async () => {
    const first = await session('Opened')
    const second = await session('opened@demo.parlay.test')
    const res = await server.call('POST', 'self-exclude/timeout', { body: { daysCount: 7 }, ...as(first) })
    expect(res.status, res.text).toBe(200)
    expect(res.json.payload.selfExcludeSettings).toMatchObject({ permanent: false, timeout: 7, selfExcludedByRegulator: false })
    for (const hash of [first, second]) expect((await server.call('GET', 'heartbeat', as(hash))).status).toBe(401)
    const login = await server.login('Opened')
    expect(login.status).toBe(403)
    expect(login.json.errorCode).toBe('CUSTOMER_SELFEXCLUDED')
    expect(login.json.payload.selfExcludeSettings).toEqual({ endDate: new Date(server.clock.now + 7 * DAY).toISOString(), permanent: false, selfExcludedByRegulator: false, timeout: 7 })
  })

  it('the login stays refused until the end date; after it the punter reopens the account by open-profile (never by itself)', async () => {
    server.clock.now += 7 * DAY - 60_000
    const during = (await server.login('Opened')).json
    expect(during.errorCode).toBe('CUSTOMER_SELFEXCLUDED')
    expect(during.payload.canOpen).toBeUndefined()
    server.clock.now += 2 * 60_000
    const after = (await server.login('Opened')).json
    expect(after).toMatchObject({ errorCode: 'CUSTOMER_SELFEXCLUDED', payload: { canOpen: true } })
    const opened = (await server.call('POST', 'punter/open-profile', { body: { openToken: after.payload.openToken } })).json.payload
    const hash = opened.loginResult.punterHash
    const heartbeat = (await server.call('GET', 'heartbeat', as(hash))).json.payload
    expect(heartbeat.punterInfo.state).toBe('OPENED')
    expect(heartbeat.restrictions).toEqual([])
    server.clock.now -= 7 * DAY + 60_000
  })

  it('a request that would end before the running exclusion is refused: SELF_EXCLUSION_CANNOT_BE_SHORTENED', async () => {
    const { selfExclude } = await import('../../../server/regulation/self-exclusion')
    const { db, data } = server.deps
    {
      const punter = (await findPunterByLogin(data, 'curacao', 'nickname', 'HighRoller'))!
      const deps = { db, data, log: server.deps.log, now: () => server.clock.now }
      const policy = { periods: ['P6M', 'P1Y'], timeoutDays: [1, 30], permanent: true }
      expect((await selfExclude(deps, punter.id, { kind: 'temporary', period: 'P1Y' }, policy)).ok).toBe(true)
      const shorter = await selfExclude(deps, punter.id, { kind: 'timeout', daysCount: 30 }, policy)
      expect(shorter).toMatchObject({ ok: false, httpStatus: 409, code: 'SELF_EXCLUSION_CANNOT_BE_SHORTENED' })
      expect((await selfExclude(deps, punter.id, { kind: 'temporary', period: 'P6M' }, policy)).ok).toBe(false)
      // lengthening is allowed: permanent beats any end date, and then nothing is shorter
      expect((await selfExclude(deps, punter.id, { kind: 'permanent' }, policy)).ok).toBe(true)
      expect((await selfExclude(deps, punter.id, { kind: 'temporary', period: 'P1Y' }, policy)).ok).toBe(false)
    }
  })

  it('a regulator exclusion is passed through as such at login, without an end', async () => {
    const login = await server.login('RegulatorExcluded')
    expect(login.status).toBe(403)
    expect(login.json).toMatchObject({ status: 'ERROR', errorCode: 'CUSTOMER_SELFEXCLUDED', payload: { selfExcludeSettings: { selfExcludedByRegulator: true, endDate: null } } })
  })

  it('a permanent exclusion and a period the jurisdiction offers both work; the end of a period is the calendar date', async () => {
    const madrid = await session('Madrid', SPAIN)
    const res = await server.call('POST', 'self-exclude/temporary', { body: { period: 'P6M' }, ...as(madrid, SPAIN) })
    expect(res.status, res.text).toBe(200)
    const end = new Date(server.clock.now)
    end.setUTCMonth(end.getUTCMonth() + 6)
    expect(res.json.payload.selfExcludeSettings.endDate).toBe(end.toISOString())
    const zero = await session('ZeroBalance')
    const permanent = await server.call('POST', 'self-exclude/permanent', { body: {}, ...as(zero) })
    expect(permanent.json.payload.selfExcludeSettings).toMatchObject({ permanent: true, endDate: null })
    server.clock.now += 3650 * DAY
    expect((await server.login('ZeroBalance')).json.errorCode).toBe('CUSTOMER_SELFEXCLUDED')
    server.clock.now -= 3650 * DAY
  })
})

describe('self-exclusion: bad input gets a 4xx in the envelope', () => {
  it.each([
    ['a period the jurisdiction does not offer', 'self-exclude/temporary', { period: 'P2D' }, 400, 'SELF_EXCLUSION_NOT_OFFERED'],
    ['a malformed period', 'self-exclude/temporary', { period: 'six months' }, 400, 'ValidationError'],
    ['a day count the jurisdiction does not offer', 'self-exclude/timeout', { daysCount: 2 }, 400, 'SELF_EXCLUSION_NOT_OFFERED'],
    ['a string day count', 'self-exclude/timeout', { daysCount: '7' }, 400, 'ValidationError'],
    ['a negative day count', 'self-exclude/timeout', { daysCount: -7 }, 400, 'ValidationError'],
    ['a field on permanent', 'self-exclude/permanent', { endDate: '2020-01-01' }, 400, 'ValidationError'],
  ])('%s → %s %s', async (_name, path, body, status, code) => {
    const hash = await session('PersonalDomain')
    const res = await server.call('POST', path, { body, ...as(hash) })
    expect(res.status).toBe(status)
    expect(res.json.errorCode).toBe(code)
    expect((await server.call('GET', 'heartbeat', as(hash))).status).toBe(200)
  })

  it('without a session every call is 401 UNAUTHORIZED', async () => {
    for (const [method, path] of [['POST', 'self-exclude/permanent'], ['POST', 'self-exclude/timeout'], ['GET', 'regulation/punter/restrictions']]) {
      const res = await server.call(method, path, { body: method === 'POST' ? {} : undefined })
      expect(res.status, path).toBe(401)
      expect(res.json.errorCode).toBe('UNAUTHORIZED')
    }
  })

  it('the options are the jurisdiction document\'s: Italy 30, 60, 90 days and indefinite', async () => {
    const res = await server.call('GET', 'self-exclude/options', { headers: ITALY })
    expect(res.json.payload).toMatchObject({ periods: ['P30D', 'P60D', 'P90D'], permanent: true, temporary: { days: [{ period: 'P30D', count: 30 }, { period: 'P60D', count: 60 }, { period: 'P90D', count: 90 }], months: [], years: [] } })
  })
})

describe('restrictions: one fixed priority order, the first that takes an operation away decides', () => {
  it('the order is regulator, permanent exclusion, permanent protection, end-dated exclusion, timeout, end-dated protection, suspended, blocked upload, document needed', () => {
    expect(RESTRICTION_PRIORITY).toEqual([
      'SELF_EXCLUSION_REGULATOR', 'SELF_EXCLUSION_PERMANENT', 'PROTECTION_MEASURE_PERMANENT', 'SELF_EXCLUSION_END_DATED',
      'SELF_EXCLUSION_TIMEOUT', 'PROTECTION_MEASURE_END_DATED', 'SUSPENDED', 'BLOCKED_ID_UPLOAD', 'NEED_DOCUMENT',
    ])
  })

  it('a suspended punter under a protection measure: both listed, the measure first; per Curaçao\'s document the measure takes deposits and games, suspension also bets', async () => {
    const hash = await session('Restricted')
    const heartbeat = (await server.call('GET', 'heartbeat', as(hash))).json.payload
    expect(heartbeat.restrictions.map((r: { type: string }) => r.type)).toEqual(['PROTECTION_MEASURE_END_DATED', 'SUSPENDED'])
    expect(heartbeat.restrictions[0].blocks).toEqual(['deposit', 'game'])
    const data = server.deps.data
    {
      const punter = (await findPunterByLogin(data, 'curacao', 'nickname', 'Restricted'))!
      const curacao = { regulatory: { restrictions: { PROTECTION_MEASURE_END_DATED: ['deposit', 'game'], SUSPENDED: ['deposit', 'bet', 'game'] } } }
      const now = server.clock.now
      expect(await assertAllowed(data, punter.id, curacao, 'deposit', now)).toEqual({ ok: false, httpStatus: 403, code: 'INCORRECT_PUNTER_STATE', payload: { operation: 'deposit', restriction: 'PROTECTION_MEASURE_END_DATED', endDate: punter.profile.protectionMeasure!.endDate } })
      expect(await assertAllowed(data, punter.id, curacao, 'bet', now)).toMatchObject({ ok: false, payload: { restriction: 'SUSPENDED' } })
      // a document that lets suspended punters bet: nothing takes bets away any more
      expect(await assertAllowed(data, punter.id, { regulatory: { restrictions: { ...curacao.regulatory.restrictions, SUSPENDED: [] } } }, 'bet', now)).toEqual({ ok: true })
      // a restriction the document does not mention takes everything away (fail closed)
      expect(await assertAllowed(data, punter.id, { regulatory: { restrictions: {} } }, 'bet', now)).toMatchObject({ ok: false, payload: { restriction: 'PROTECTION_MEASURE_END_DATED' } })
      // once the measure has ended only the suspension is left
      expect(await assertAllowed(data, punter.id, curacao, 'deposit', now + 11 * DAY)).toMatchObject({ ok: false, payload: { restriction: 'SUSPENDED' } })
      const open = (await findPunterByLogin(data, 'curacao', 'nickname', 'PersonalDomain'))!
      for (const op of ['deposit', 'bet', 'game'] as const) expect(await assertAllowed(data, open.id, curacao, op, now)).toEqual({ ok: true })
    }
  })

  it('a self-excluded punter is refused with CUSTOMER_SELFEXCLUDED and the exclusion that decided', async () => {
    const data = server.deps.data
    {
      const punter = (await findPunterByLogin(data, 'curacao', 'nickname', 'RegulatorExcluded'))!
      expect(await assertAllowed(data, punter.id, undefined, 'game', server.clock.now)).toMatchObject({ ok: false, code: 'CUSTOMER_SELFEXCLUDED', payload: { restriction: 'SELF_EXCLUSION_REGULATOR', endDate: null } })
    }
  })
})
