/**
 * The verdict on an open socket's session (server/realtime/session-sweep.ts, sessionVerdict): a
 * session gone or revoked is ended (the page logs out); an access token past its time by the grace
 * minute (SESSION_GRACE_MS, the refresh in flight) or more is expired (the socket closes, not a
 * logout); before that it is live.
 */
import { describe, expect, it } from 'vitest'
import { SESSION_GRACE_MS, sessionVerdict } from '../../../server/realtime/session-sweep'

const expiresAt = Date.UTC(2026, 0, 15, 12, 0)

describe('session verdict', () => {
  it('a session with no row is ended', () => {
    expect(sessionVerdict(undefined, expiresAt)).toBe('ended')
  })

  it('a revoked session is ended, even with a live access token', () => {
    expect(sessionVerdict({ revokedAt: expiresAt - 5_000, accessExpiresAt: expiresAt }, expiresAt - 60_000)).toBe('ended')
  })

  it('the grace is one minute: live until a minute past the access token, expired from then', () => {
    expect(SESSION_GRACE_MS).toBe(60_000)
    const state = { revokedAt: null, accessExpiresAt: expiresAt }
    expect(sessionVerdict(state, expiresAt - 1)).toBe('live')
    expect(sessionVerdict(state, expiresAt + 59_999)).toBe('live')
    expect(sessionVerdict(state, expiresAt + 60_000)).toBe('expired')
    expect(sessionVerdict(state, expiresAt + 3_600_000)).toBe('expired')
  })
})
