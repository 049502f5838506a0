/**
 * The rules of the login steps split out of createAuthRouter (issue 32 item 3): which of an
 * account's own refusals comes first once its password was right, the host an unlock link is built
 * on, and the tokens the logout body and the unlock link carry.
 */
import { describe, expect, it } from 'vitest'
import { pendingLoginRefusal } from '../../../server/auth/login'
import { trustedHostOf } from '../../../server/auth/lock-notice'
import { plainTextToken } from '../../../server/auth/session-handlers'
import { linkToken } from '../../../server/auth/unlock-handlers'
import { SITES, siteDocument } from '../../support/sites'

const NOW = Date.UTC(2026, 0, 10, 12)
const confirmed = { email: 'p@example.test', emailConfirmed: true, phone: '+35799123456', phoneConfirmed: true, loginDeniedUntil: null }

describe('pendingLoginRefusal', () => {
  it('lets a confirmed account with no denial in force log in', () => {
    expect(pendingLoginRefusal(confirmed, NOW)).toBeUndefined()
    expect(pendingLoginRefusal({ ...confirmed, loginDeniedUntil: NOW }, NOW)).toBeUndefined()
    expect(pendingLoginRefusal({ ...confirmed, loginDeniedUntil: NOW - 1 }, NOW)).toBeUndefined()
  })

  it('refuses an unconfirmed e-mail first, then an unconfirmed phone, then a login denial still in force', () => {
    const all = { ...confirmed, emailConfirmed: false, phoneConfirmed: false, loginDeniedUntil: NOW + 1 }
    expect(pendingLoginRefusal(all, NOW)).toEqual({ kind: 'confirm-email', email: confirmed.email })
    expect(pendingLoginRefusal({ ...all, emailConfirmed: true }, NOW)).toEqual({ kind: 'confirm-phone', phone: confirmed.phone })
    expect(pendingLoginRefusal({ ...all, emailConfirmed: true, phoneConfirmed: true }, NOW)).toEqual({ kind: 'denied', until: NOW + 1 })
  })

  it('asks to confirm only a contact the account has', () => {
    expect(pendingLoginRefusal({ ...confirmed, email: null, emailConfirmed: false, phone: null, phoneConfirmed: false }, NOW)).toBeUndefined()
    expect(pendingLoginRefusal({ ...confirmed, email: null, emailConfirmed: false, phoneConfirmed: false }, NOW)).toEqual({ kind: 'confirm-phone', phone: confirmed.phone })
  })
})

describe('trustedHostOf', () => {
  it.each(SITES)('keeps the Host header, port included, when it names one of %s’s hosts', (site) => {
    for (const host of siteDocument(site).hosts) {
      expect(trustedHostOf(siteDocument(site).hosts, host, `${host}:5173`)).toBe(`${host}:5173`)
      expect(trustedHostOf(siteDocument(site).hosts, host, undefined)).toBe(host)
    }
  })

  it.each(SITES)('puts %s’s first host, with the request’s port, in place of a forged Host', (site) => {
    const hosts = siteDocument(site).hosts
    expect(trustedHostOf(hosts, 'evil.example', 'evil.example:8080')).toBe(`${hosts[0]}:8080`)
    expect(trustedHostOf(hosts, 'evil.example', 'evil.example')).toBe(hosts[0])
  })

  it('falls back to localhost for a site that names no host', () => {
    expect(trustedHostOf([], 'evil.example', 'evil.example:3000')).toBe('localhost:3000')
  })
})

describe('the tokens of the logout body and the unlock link', () => {
  it('takes a plain-text logout body trimmed, of 1 to 200 characters, else none', () => {
    expect(plainTextToken('  abc \n')).toBe('abc')
    expect(plainTextToken('x'.repeat(200))).toBe('x'.repeat(200))
    expect(plainTextToken('x'.repeat(201))).toBeUndefined()
    expect(plainTextToken('   ')).toBeUndefined()
    expect(plainTextToken({ token: 'abc' })).toBeUndefined()
  })

  it('takes an unlock link’s token as given when it is a string of at most 200 characters, else no token', () => {
    expect(linkToken(' abc ')).toBe(' abc ')
    expect(linkToken('x'.repeat(200))).toBe('x'.repeat(200))
    expect(linkToken('x'.repeat(201))).toBe('')
    expect(linkToken(['a', 'b'])).toBe('')
    expect(linkToken(undefined)).toBe('')
  })
})
