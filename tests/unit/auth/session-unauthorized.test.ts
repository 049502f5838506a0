import { describe, expect, it } from 'vitest'
import { refusedCredentialsVerdict, unauthorizedConcernsSession } from '../../../engine/auth/session-unauthorized'

const sent = { accessToken: 'at1', sessionHash: 'h1' }

describe('an unauthorised answer (spec §4)', () => {
  it('concerns the session unless it is a refused refresh, the refresh call itself, or a guest call', () => {
    expect(unauthorizedConcernsSession('UNAUTHORIZED', sent, '/mobile-gate/api/v1/heartbeat')).toBe(true)
    expect(unauthorizedConcernsSession('INVALID_SESSION_HASH', { accessToken: null, sessionHash: 'h1' }, '/x')).toBe(true)
    expect(unauthorizedConcernsSession('INVALID_REFRESH_TOKEN', sent, '/x')).toBe(false)
    expect(unauthorizedConcernsSession('UNAUTHORIZED', sent, '/mobile-gate/api/v1/auth/v2/token/refresh')).toBe(false)
    expect(unauthorizedConcernsSession('UNAUTHORIZED', { accessToken: null, sessionHash: null }, '/x')).toBe(false)
  })

  it('is sent again when it carried a token or hash since replaced', () => {
    expect(refusedCredentialsVerdict({ accessToken: 'at2', refreshToken: 'rt2', sessionHash: 'h1' }, sent, false)).toBe('retry')
    expect(refusedCredentialsVerdict({ accessToken: 'at1', refreshToken: 'rt1', sessionHash: 'h2' }, sent, true)).toBe('retry')
  })

  it('with the held credentials: refreshed when the token expired and a refresh token is left (a late timer), else the session is dead', () => {
    expect(refusedCredentialsVerdict({ accessToken: 'at1', refreshToken: 'rt1', sessionHash: 'h1' }, sent, true)).toBe('refresh')
    expect(refusedCredentialsVerdict({ accessToken: 'at1', refreshToken: null, sessionHash: 'h1' }, sent, true)).toBe('dead')
    expect(refusedCredentialsVerdict({ accessToken: 'at1', refreshToken: 'rt1', sessionHash: 'h1' }, sent, false)).toBe('dead')
  })
})
