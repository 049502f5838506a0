import { describe, expect, it } from 'vitest'
import { afterTokenUpdate } from '../../../engine/auth/session-refresh'

describe('what the session does after a token update (spec §4 "Token refresh", "Logout")', () => {
  it('a current token arms the refresh timer when none is armed, and leaves an armed one', () => {
    expect(afterTokenUpdate('CURRENT_AT_ACTIVE', { timerArmed: false, anySession: true })).toBe('arm-timer')
    expect(afterTokenUpdate('CURRENT_AT_ACTIVE', { timerArmed: true, anySession: true })).toBe('nothing')
  })

  it('an expired access token with no refresh token logs out as expired', () => {
    expect(afterTokenUpdate('RT_NOT_AVAILABLE', { timerArmed: false, anySession: true })).toBe('logout')
  })

  it('a session left without its access token is logged out, unless nothing of it is left', () => {
    expect(afterTokenUpdate('AT_NOT_FOUND', { timerArmed: false, anySession: true })).toBe('logout')
    expect(afterTokenUpdate('AT_NOT_FOUND', { timerArmed: false, anySession: false })).toBe('nothing')
  })

  it('new tokens and a failed refresh need nothing more (the refresh already acted on its answer)', () => {
    expect(afterTokenUpdate('UPDATED_TOKENS', { timerArmed: false, anySession: true })).toBe('nothing')
    expect(afterTokenUpdate('ERROR_RT_UPDATE', { timerArmed: false, anySession: true })).toBe('nothing')
  })
})
