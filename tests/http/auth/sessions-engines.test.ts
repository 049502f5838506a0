/**
 * Sessions, refresh-token families and confirmation tokens on the query layer (issue 16):
 * server/auth/sessions.ts and the confirmation tokens of server/auth/router.ts keep their rules on
 * both engines. On SQLite "instance A" and "instance B" are one server; on PostgreSQL they are two
 * servers sharing one database of a throw-away cluster (tests/support/postgres.ts), the requests
 * alternating between them.
 */
import { describe, expect, it } from 'vitest'
import { consumeConfirmationToken, issueConfirmationToken } from '../../../server/auth/router'
import { findPunterByLogin } from '../../../server/punters/repository'
import { engines } from '../../support/postgres'
import { openSocketClient } from '../../support/socket-client'
import { DEMO_PASSWORD, startAuthServer, type AuthTestServer } from './support'

const { each: ENGINES, pairEach } = engines()

interface Session {
  accessToken: string
  refreshToken: string
  punterHash: string
}

describe.each(ENGINES)('sessions and refresh-token families on %s (spec §4 "Token refresh", RFC 9700 §4.14.2)', (engine, runs) => {
  let a: AuthTestServer
  let b: AuthTestServer
  pairEach(engine, runs, startAuthServer, (both) => {
    ;({ a, b } = both)
    b.clock.now = a.clock.now
  })

  const loginOn = async (server: AuthTestServer, login: string): Promise<Session> => {
    const res = await server.login(login, DEMO_PASSWORD)
    expect(res.status).toBe(200)
    return res.json.payload as Session
  }
  const heartbeat = (server: AuthTestServer, session: Pick<Session, 'punterHash'>, accessToken?: string) =>
    server.call('GET', 'heartbeat', { headers: { 'punter-session-hash': session.punterHash, ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}) } })
  const refresh = (server: AuthTestServer, token: string) => server.call('POST', 'auth/v2/token/refresh', { body: { token } })

  it.runIf(runs)('a session opened on instance A is live on instance B, with its session hash alone and with its access token', async () => {
    expect(a.deps.data.engine).toBe(engine)
    const session = await loginOn(a, 'Opened')
    expect((await heartbeat(b, session)).status).toBe(200)
    expect((await heartbeat(b, session, session.accessToken)).status).toBe(200)
    expect((await heartbeat(b, session, 'not-the-token')).json).toEqual({ status: 'ERROR', errorCode: 'UNAUTHORIZED' })
    const timeout = await b.call('GET', 'auth/punter-session/expiration-timeout', { headers: { 'punter-session-hash': session.punterHash } })
    expect(timeout.json.payload.expirationTimeout).toBeGreaterThan(0)
  })

  it.runIf(runs)("a logout on instance B ends the punter's sessions on instance A: heartbeat 401, refresh refused", async () => {
    const session = await loginOn(a, 'HighRoller')
    expect((await b.call('POST', 'auth/logout', { headers: { 'punter-session-hash': session.punterHash } })).status).toBe(200)
    expect((await heartbeat(a, session)).status).toBe(401)
    expect((await refresh(a, session.refreshToken)).json).toEqual({ status: 'ERROR', errorCode: 'INVALID_REFRESH_TOKEN' })
  })

  it.runIf(runs)('a refresh on instance B rotates both tokens for instance A: the old access token is dead there, the new pair works there', async () => {
    const first = await loginOn(a, 'ZeroBalance')
    const rotated = await refresh(b, first.refreshToken)
    expect(rotated.status).toBe(200)
    const second = rotated.json.payload as Session
    expect(second.refreshToken).not.toBe(first.refreshToken)
    expect((await heartbeat(a, first, first.accessToken)).status).toBe(401)
    expect((await heartbeat(a, first, second.accessToken)).status).toBe(200)
    expect((await refresh(a, second.refreshToken)).status).toBe(200)
  })

  it.runIf(runs)('a rotated refresh token presented again on the other instance revokes the whole family on both', async () => {
    const first = await loginOn(a, 'vip@demo.parlay.test')
    const second = (await refresh(a, first.refreshToken)).json.payload as Session
    expect((await refresh(b, first.refreshToken)).json).toEqual({ status: 'ERROR', errorCode: 'INVALID_REFRESH_TOKEN' })
    expect((await refresh(a, second.refreshToken)).json.errorCode).toBe('INVALID_REFRESH_TOKEN')
    for (const server of [a, b]) {
      expect((await heartbeat(server, first)).status).toBe(401)
      expect((await heartbeat(server, first, second.accessToken)).status).toBe(401)
    }
  })

  it.runIf(runs)('one refresh token sent to both instances at once: exactly one rotation succeeds, and the other is a reuse that ends the family', async () => {
    for (let round = 0; round < 3; round++) {
      const session = await loginOn(a, 'Opened')
      const answers = await Promise.all([refresh(a, session.refreshToken), refresh(b, session.refreshToken)])
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401])
      const winner = answers.find((answer) => answer.status === 200)!.json.payload as Session
      expect((await refresh(b, winner.refreshToken)).json.errorCode).toBe('INVALID_REFRESH_TOKEN')
      expect((await heartbeat(a, session)).status).toBe(401)
    }
  }, 60_000)

  it.runIf(runs)("a logout on instance B ends the punter's socket on instance A: accountLogout with reason SOCKET, then the socket closes", async () => {
    const session = await loginOn(a, 'Opened')
    const client = await openSocketClient(a.port, '/sockets/v2/punter?channel=web')
    client.send({ type: 'AUTH', punterHash: session.punterHash, accessToken: session.accessToken })
    expect(await client.next((frame) => frame.type === 'AUTH')).toMatchObject({ status: 'OK' })
    expect((await b.call('POST', 'auth/logout', { headers: { 'punter-session-hash': session.punterHash } })).status).toBe(200)
    expect((await client.next((frame) => frame.type === 'accountLogout')).payload).toEqual({ reason: 'SOCKET' })
    expect(await client.closed).toBe(4001)
  })

  it.runIf(runs)("a socket's messages are handled in order while its AUTH waits for the database: a bet-channel message right after AUTH sees the punter", async () => {
    const session = await loginOn(b, 'ZeroBalance')
    const client = await openSocketClient(a.port, '/sockets/v2/punter?channel=web')
    client.send({ type: 'AUTH', punterHash: session.punterHash, accessToken: session.accessToken })
    client.send({ type: 'WATCH_ON_BET', ids: [] })
    client.send({ type: 'AUTH', punterHash: 'not-a-session', accessToken: 'not-a-token' }) // answered last, after both
    await client.next((frame) => frame.type === 'ERROR' && frame.message === 'the session is not live')
    const seen = client.frames.map((frame) => (frame.type === 'ERROR' ? frame.message : frame.type))
    expect(seen).not.toContain('WATCH_ON_BET needs a logged-in punter')
    expect(seen.indexOf('AUTH')).toBeGreaterThanOrEqual(0)
    expect(seen.indexOf('AUTH')).toBeLessThan(seen.indexOf('the session is not live'))
    client.socket.close()
  })

  it.runIf(runs)('a confirmation token issued on instance A is used once: sent to both instances at once, one logs in and the other is TOKEN_NOT_FOUND', async () => {
    const refused = await a.login('unconfirmed@demo.parlay.test')
    expect(refused.json.errorCode).toBe('CANNOT_LOGIN_NO_EMAIL_CONFIRMED')
    const token = refused.json.payload.confirmationToken as string
    const answers = await Promise.all([a, b].map((server) => server.call('POST', 'account/join/confirm-email', { body: { token } })))
    expect(answers.map((answer) => answer.json.status).sort()).toEqual(['ERROR', 'OK'])
    expect(answers.find((answer) => answer.json.status === 'ERROR')!.json.errorCode).toBe('TOKEN_NOT_FOUND')
    expect((await b.call('POST', 'account/join/confirm-email', { body: { token } })).json.errorCode).toBe('TOKEN_NOT_FOUND')
  }, 60_000)

  it.runIf(runs)('a confirmation token is spent by one conditional delete: of ten uses at once across the instances exactly one gets the punter; a token of another kind or past its time gets none', async () => {
    const punter = (await findPunterByLogin(a.deps.data, 'curacao', 'nickname', 'HighRoller'))!
    const now = a.clock.now
    const token = await issueConfirmationToken(a.deps.data, punter.id, 'email', now)
    const uses = await Promise.all(Array.from({ length: 10 }, (_, i) => consumeConfirmationToken((i % 2 ? b : a).deps.data, token, 'email', now)))
    expect(uses.filter((id) => id === punter.id)).toHaveLength(1)
    expect(uses.filter((id) => id === undefined)).toHaveLength(9)
    const phone = await issueConfirmationToken(a.deps.data, punter.id, 'phone', now)
    expect(await consumeConfirmationToken(b.deps.data, phone, 'email', now)).toBeUndefined()
    expect(await consumeConfirmationToken(a.deps.data, phone, 'phone', now)).toBeUndefined() // spent by the wrong-kind use
    const late = await issueConfirmationToken(a.deps.data, punter.id, 'email', now)
    expect(await consumeConfirmationToken(b.deps.data, late, 'email', now + 30 * 60_000)).toBeUndefined()
  })
})
