/**
 * The rules of the sign-up preparation's steps split out of signupPreparation (issue 32 item 3;
 * spec §3 "Sign-up payload", §5): which body fields are meta, the referrer id's pattern, a promo
 * code's match (unknown vs. not for the country), and what the new punter's profile keeps.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { matchPromoCode, newPunterProfile, refererIdErrors, splitBody } from '../../../server/signup/prepare'

describe('splitBody', () => {
  it('puts the tokens, code, captcha, referrer and channel in meta and every other field in the form data', () => {
    const body = { refererId: 'r', registrationToken: 'rt', verificationToken: 'vt', verificationCode: '123456', captcha: 'c', channelType: 'sms', email: 'a@b.test', password: 'x', countryId: 7 }
    expect(splitBody(body)).toEqual({
      meta: { refererId: 'r', registrationToken: 'rt', verificationToken: 'vt', verificationCode: '123456', captcha: 'c', channelType: 'sms' },
      data: { email: 'a@b.test', password: 'x', countryId: 7 },
    })
  })
})

describe('refererIdErrors', () => {
  it('accepts no referrer, or 1 to 64 letters, digits, _ and -', () => {
    expect(refererIdErrors({})).toEqual([])
    expect(refererIdErrors({ refererId: 'aZ0_-' })).toEqual([])
    expect(refererIdErrors({ refererId: 'a'.repeat(64) })).toEqual([])
  })

  it('refuses an empty, too long, non-string or punctuated referrer as a pattern error', () => {
    for (const refererId of ['', 'a'.repeat(65), 42, 'a b', 'a/b', '<x>']) expect(refererIdErrors({ refererId })).toEqual([{ field: 'refererId', code: 'pattern' }])
  })
})

describe('matchPromoCode', () => {
  const codes = [{ code: 'WELCOME100', bonus: 'promo.welcome100', countries: ['BY', 'RU'] }, { code: 'Anyone', bonus: 'promo.any' }]

  it('matches a code trimmed and case-folded', () => {
    expect(matchPromoCode(codes, '  welcome100 ', 'BY')).toEqual({ ok: true, value: codes[0] })
    expect(matchPromoCode(codes, 'ANYONE', undefined)).toEqual({ ok: true, value: codes[1] })
  })

  it('tells an unknown code from a code of other countries', () => {
    expect(matchPromoCode(codes, 'NONSENSE', 'BY')).toEqual({ ok: false, code: 'INVALID_PROMO_CODE' })
    expect(matchPromoCode(codes, 'WELCOME100', 'DK')).toEqual({ ok: false, code: 'PROMO_CODE_NOT_FOR_COUNTRY' })
    expect(matchPromoCode(codes, 'WELCOME100', undefined)).toEqual({ ok: false, code: 'PROMO_CODE_NOT_FOR_COUNTRY' })
  })
})

describe('newPunterProfile', () => {
  it('keeps a digest of the CPR number (dash removed), never the number, and upper-cases fiscal code, document number and promo code', () => {
    const profile = newPunterProfile({ cpr: '010190-1234', fiscalCode: 'rssmra80a01h501u', documentNumber: 'x1234567l', communeId: 5, promoCode: ' welcome100 ' }, {}, 'DK', undefined, undefined)
    expect(profile).toEqual({
      countryCode: 'DK',
      cprDigest: createHash('sha256').update('cpr:0101901234', 'utf8').digest('hex'),
      fiscalCode: 'RSSMRA80A01H501U',
      documentNumber: 'X1234567L',
      communeId: 5,
      promoCode: 'WELCOME100',
    })
    expect(JSON.stringify(profile)).not.toContain('0101901234')
    expect(JSON.stringify(profile)).not.toContain('010190-1234')
  })

  it('takes the body’s referrer over the stored one, and the stored one when the body has none', () => {
    expect(newPunterProfile({}, { refererId: 'body' }, 'CW', 'stored', undefined).refererId).toBe('body')
    expect(newPunterProfile({}, {}, 'CW', 'stored', undefined).refererId).toBe('stored')
    expect(newPunterProfile({}, {}, 'CW', undefined, undefined)).toEqual({ countryCode: 'CW' })
  })

  it('lays the site’s own profile fields over the ones from the body', () => {
    expect(newPunterProfile({ promoCode: 'a' }, {}, 'ES', undefined, { promoCode: 'SITE', verified: false })).toEqual({ countryCode: 'ES', promoCode: 'SITE', verified: false })
    expect(newPunterProfile({ promoCode: '  ' }, {}, 'ES', undefined, ['not', 'a', 'record'])).toEqual({ countryCode: 'ES' })
  })
})
