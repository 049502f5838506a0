import { describe, expect, it } from 'vitest'
import { LOGOUT_REASONS } from '../../../kernel/core/action-choices'
import { goesHomeAtLogout, logoutPopups, replacesEndingReason } from '../../../engine/auth/session-logout'

describe('logout popups (spec §3 "Logout", §4)', () => {
  it('an expiry (AT_EXPIRED, RT_EXPIRED) or the socket shows session-expired; the punter\'s own logout shows nothing', () => {
    expect(logoutPopups('AT_EXPIRED', 'OPENED')).toEqual([{ id: 'session-expired' }])
    expect(logoutPopups('RT_EXPIRED', 'OPENED')).toEqual([{ id: 'session-expired' }])
    expect(logoutPopups('SOCKET', 'OPENED')).toEqual([{ id: 'session-expired' }])
    expect(logoutPopups('SEFT_LOGOUT', 'OPENED')).toEqual([])
    expect(logoutPopups(null, 'OPENED')).toEqual([])
  })

  it('a CLOSED account shows account-closed; a state that loses access shows logged-out-blocked-user; a self-exclusion none', () => {
    expect(logoutPopups('SEFT_LOGOUT', 'CLOSED')).toEqual([{ id: 'account-closed' }])
    expect(logoutPopups('SOCKET', 'SUSPENDED_GDPR')).toEqual([{ id: 'session-expired' }, { id: 'logged-out-blocked-user' }])
    expect(logoutPopups('SEFT_LOGOUT', 'BLOCKED_ID_UPLOAD')).toEqual([{ id: 'logged-out-blocked-user' }])
    // refused at login instead, with its own popup from the caller
    expect(logoutPopups('SEFT_LOGOUT', 'SELF_EXCLUDED')).toEqual([])
  })

  it('the popup the caller asks for is not closeable and replaces the state\'s own popup', () => {
    expect(logoutPopups('SOCKET', 'CLOSED', 'self-excluded')).toEqual([{ id: 'session-expired' }, { id: 'self-excluded', isCloseable: false }])
    expect(logoutPopups('SEFT_LOGOUT', 'SUSPENDED_GDPR', 'password-changed')).toEqual([{ id: 'password-changed', isCloseable: false }])
  })
})

describe('the page after a logout', () => {
  it('goes home when the socket ended the session, or from an account page (/account and below only)', () => {
    expect(goesHomeAtLogout('SOCKET', '/sport')).toBe(true)
    expect(goesHomeAtLogout('SEFT_LOGOUT', '/account')).toBe(true)
    expect(goesHomeAtLogout('AT_EXPIRED', '/account/history')).toBe(true)
    expect(goesHomeAtLogout('SEFT_LOGOUT', '/accounting')).toBe(false)
    expect(goesHomeAtLogout('AT_EXPIRED', '/sport')).toBe(false)
    expect(goesHomeAtLogout(null, '/')).toBe(false)
  })
})

describe('concurrent logouts end the session once, with the most specific reason', () => {
  it('only the generic SOCKET is replaced, and only by a reason other than SOCKET', () => {
    for (const current of LOGOUT_REASONS)
      for (const incoming of LOGOUT_REASONS) expect(replacesEndingReason(current, incoming)).toBe(current === 'SOCKET' && incoming !== 'SOCKET')
  })
})
