import { describe, expect, it } from 'vitest'
import { AUTH_TYPE_NEEDED, classifyLogin, classifyPhoneLogin, normalisePhone } from '../../../kernel/auth/login-classification'

describe('login classification (spec §4 login flow, §5 login validation)', () => {
  it.each([
    ['  john@Example.com ', 'email', 'john@example.com'],
    ['123456', 'account_number', '123456'],
    ['12345678901234567890', 'account_number', '12345678901234567890'],
    ['+7 916 123-45-67', 'phone_number', '+79161234567'],
    ['00 7 916 123 45 67', 'phone_number', '+79161234567'],
    ['(916) 123-45-67', 'phone_number', '+79161234567'],
    ['Lucky7', 'nickname', 'Lucky7'],
    ['Ёжик_на_льду', 'nickname', 'Ёжик_на_льду'],
    ['abc', 'nickname', 'abc'],
    ['a'.repeat(33), 'nickname', 'a'.repeat(33)],
    ['a'.repeat(34), 'other', 'a'.repeat(34)],
    ['ab', 'other', 'ab'],
    ['7up', 'other', '7up'],
    ['12345', 'other', '12345'],
    ['123456789012345678901', 'other', '123456789012345678901'],
    ['', 'other', ''],
  ])('%j is %s', (raw, kind, value) => {
    expect(classifyLogin(raw, 'RU')).toEqual({ kind, value })
  })

  it('values are trimmed and phones normalised to E.164', () => {
    expect(normalisePhone(' +599 9 510-1001 ')).toBe('+59995101001')
    expect(normalisePhone('8 916 123 45 67', 'RU')).toBe('+79161234567')
    expect(normalisePhone('+1 23')).toBeUndefined()
    expect(normalisePhone('not a phone')).toBeUndefined()
  })

  it('the phone-number call reads plain digits as a national number of the site', () => {
    expect(classifyPhoneLogin('89161234567', 'RU')).toEqual({ kind: 'phone_number', value: '+79161234567' })
    expect(classifyLogin('89161234567', 'RU').kind).toBe('account_number')
  })

  it('each login kind has its *_AUTH_TYPE_NEEDED code (spec §8)', () => {
    expect(AUTH_TYPE_NEEDED).toEqual({
      phone_number: 'PHONE_NUMBER_AUTH_TYPE_NEEDED',
      email: 'EMAIL_AUTH_TYPE_NEEDED',
      account_number: 'LOGIN_AUTH_TYPE_NEEDED',
      nickname: 'NICKNAME_AUTH_TYPE_NEEDED',
    })
  })
})
