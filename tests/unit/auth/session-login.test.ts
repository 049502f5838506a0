import { describe, expect, it } from 'vitest'
import { localeToFollow, loginRequest } from '../../../engine/auth/session-login'

describe('the login call (spec §4 "Login flow", §5)', () => {
  it('a phone login goes to the phone-number call with phoneNumber, any other to the login call with login, both trimmed', () => {
    expect(loginRequest({ login: ' +34 612 345 678 ', password: 'pw' }, true)).toEqual({
      path: '/mobile-gate/api/v1/auth/v2/login/phone-number',
      body: { password: 'pw', phoneNumber: '+34 612 345 678' },
    })
    expect(loginRequest({ login: ' punter@example.com ', password: 'pw' }, false)).toEqual({
      path: '/mobile-gate/api/v1/auth/v2/login',
      body: { password: 'pw', login: 'punter@example.com' },
    })
  })

  it('the optional fields are sent only when given (false included), an empty captcha never', () => {
    expect(loginRequest({ phoneNumber: '600', password: 'pw', rememberMe: false, keepPunterLoggedIn: true, captcha: 'proof' }, true).body).toEqual({
      password: 'pw',
      phoneNumber: '600',
      rememberMe: false,
      keepPunterLoggedIn: true,
      captcha: 'proof',
    })
    expect(loginRequest({ login: 'p', password: 'pw', captcha: '' }, false).body).toEqual({ password: 'pw', login: 'p' })
  })
})

describe('the punter\'s saved locale at login (spec §2)', () => {
  it('is followed only when the site offers it and the page is in another one', () => {
    expect(localeToFollow('ru', 'en', ['en', 'ru'])).toBe('ru')
    expect(localeToFollow('ru', 'ru', ['en', 'ru'])).toBeNull()
    expect(localeToFollow('de', 'en', ['en', 'ru'])).toBeNull()
    expect(localeToFollow(undefined, 'en', ['en', 'ru'])).toBeNull()
    expect(localeToFollow('ru', 'en', undefined)).toBeNull()
  })
})
