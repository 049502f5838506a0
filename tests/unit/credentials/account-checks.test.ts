import { describe, expect, it } from 'vitest'
import type { Punter } from '../../../server/punters/repository'
import { failCodeOf, passwordModeOf } from '../../../server/credentials/account-checks'
import { answerRefusalStatus } from '../../../server/credentials/account-secret-question'

const punterWith = (profile: Record<string, unknown>) => ({ profile }) as unknown as Punter

describe('account credential rules (spec §3 password flow modes, §7 secret question)', () => {
  it('a punter whose profile says needPassword creates a password (CREATING); every other punter changes it (CHANGING)', () => {
    expect(passwordModeOf(punterWith({ needPassword: true }))).toBe('CREATING')
    expect(passwordModeOf(punterWith({ needPassword: false }))).toBe('CHANGING')
    expect(passwordModeOf(punterWith({}))).toBe('CHANGING')
    // only the boolean true counts, never a truthy string
    expect(passwordModeOf(punterWith({ needPassword: 'true' }))).toBe('CHANGING')
  })

  it('a refused form answers with the first field code the form shows as itself, otherwise ValidationError', () => {
    expect(failCodeOf([{ field: 'password', code: 'minLength' }])).toBe('ValidationError')
    expect(failCodeOf([])).toBe('ValidationError')
    expect(failCodeOf([{ field: 'password', code: 'minLength' }, { field: 'password', code: 'PASSWORD_USED_BEFORE' }])).toBe('PASSWORD_USED_BEFORE')
    expect(failCodeOf([{ field: 'email', code: 'DUPLICATE_EMAIL' }, { field: 'currentPassword', code: 'INCORRECT_PASSWORD' }])).toBe('DUPLICATE_EMAIL')
    for (const own of ['PASSWORD_CONTAINS_PERSONAL_DATA', 'SECRET_QUESTION_ANSWER_CONTAINS_BIRTHDAY', 'INCORRECT_PASSWORD']) expect(failCodeOf([{ field: 'x', code: own }])).toBe(own)
    // a code not on the list (SAME_EMAIL) stays on its field only
    expect(failCodeOf([{ field: 'email', code: 'SAME_EMAIL' }])).toBe('ValidationError')
  })

  it('a refused secret-question answer: no question is 404, too many tries or a block is 429, a wrong answer is 400', () => {
    expect(answerRefusalStatus('SQ_NOT_FOUND')).toBe(404)
    expect(answerRefusalStatus('SQ_ATTEMPTS_LIMIT_EXCEEDED')).toBe(429)
    expect(answerRefusalStatus('SQ_VERIFICATION_BLOCKED')).toBe(429)
    expect(answerRefusalStatus('SQ_ANSWER_NOT_MATCH')).toBe(400)
  })
})
