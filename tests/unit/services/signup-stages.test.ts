/**
 * The sign-up stages of spec §4 in analytics (issue 18): sign up start, success, failure and
 * cancel; redirect start and cancel; load registration data; promo code check — read from the
 * engine's finished actions, screens and the session that appears at the end of a sign-up.
 */
import { describe, expect, it } from 'vitest'
import { createSignUpStages, type SignUpSignal } from '../../../engine/services/signup-stages'

function run(signals: SignUpSignal[]): string[] {
  const stages = createSignUpStages()
  return signals.flatMap(stages).map((e) => `${e.type}: ${e.properties.outcome}${e.properties.code ? ` ${e.properties.code}` : ''}`)
}

const action = (name: string, ok = true, code?: string): SignUpSignal => ({ type: 'action', name, ok, ...(code ? { code } : {}) })
const screen = (path: string): SignUpSignal => ({ type: 'screen', path })

describe('sign-up stages (spec §4)', () => {
  it('a sign-up that ends logged in: load, start, success, then the redirect to deposit starts', () => {
    expect(run([action('join.loadSettings'), screen('/join'), action('join.start'), action('join.verifyCode'), { type: 'registered' }, screen('/account/deposit'), action('join.afterSignUp')])).toEqual([
      'load registration data: success',
      'sign up: start',
      'sign up: success',
      'redirect: start',
    ])
  })

  it('a failed step is a failure with its code; the sign-up has started once only', () => {
    expect(run([action('join.start', false, 'PHONE_ALREADY_EXISTS'), action('join.start'), action('join.verifyCode', false, 'WRONG_CODE')])).toEqual([
      'sign up: start',
      'sign up: failure PHONE_ALREADY_EXISTS',
      'sign up: failure WRONG_CODE',
    ])
  })

  it('leaving /join after starting (before success) is a cancel; screens inside /join, with or without a locale prefix, are not', () => {
    expect(run([action('join.start'), screen('/join/code'), screen('/es/join'), screen('/promotions')])).toEqual(['sign up: start', 'sign up: cancel'])
  })

  it('starting over (join.reset) is a cancel, and the next submit starts again', () => {
    expect(run([action('join.start'), action('join.reset'), action('join.start')])).toEqual(['sign up: start', 'sign up: cancel', 'sign up: start'])
  })

  it('a failed after-sign-up redirect is a redirect cancel', () => {
    expect(run([action('join.start'), { type: 'registered' }, action('deposit.redirect', false, 'ACTION_FAILED')])).toEqual(['sign up: start', 'sign up: success', 'redirect: cancel ACTION_FAILED'])
  })

  it('a login outside a sign-up is no sign-up success, and a redirect outside one is no redirect stage', () => {
    expect(run([{ type: 'registered' }, action('deposit.redirect'), screen('/')])).toEqual([])
  })

  it('the e-mail confirmation link logging the new punter in ends the sign-up with success', () => {
    expect(run([action('join.loginByRegistrationToken'), action('join.afterSignUp')])).toEqual(['sign up: success', 'redirect: start'])
  })

  it('promo code checks are reported with success or error', () => {
    expect(run([action('promo.check'), action('promo.check', false, 'PROMO_CODE_INVALID')])).toEqual(['promo code check: success', 'promo code check: error PROMO_CODE_INVALID'])
  })
})
