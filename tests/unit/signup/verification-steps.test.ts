/**
 * The rules of the verification store's steps split out of createVerificationService (issue 32
 * item 3; spec §3 "Verification (join) state", §8 code errors; REFERENCES: code valid 10 minutes,
 * resend after 60 s, 5 code attempts, 5 messages per flow, a flow lives 30 minutes). The numbers
 * are written out here, not read from VERIFICATION_LIMITS, so a changed limit fails the test.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { newFlowRow, resendRefusal, uncountedRefusal, type FlowRow, type StartInput } from '../../../server/signup/verification'

const NOW = Date.UTC(2026, 0, 10, 12)
const MINUTE = 60_000
const hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')

const input: StartInput = { flow: 'phone', jurisdiction: 'russia', channel: 'sms', contact: '+79161234567', payload: { punter: { firstName: 'Anna' } } }
const pending = (overrides: Partial<FlowRow> = {}): FlowRow => ({ ...newFlowRow(input, { verificationToken: 'verification-token' }, '123456', NOW), ...overrides })

describe('newFlowRow', () => {
  it('keeps only digests: the tokens’ SHA-256 and the code’s keyed by the verification token', () => {
    const row = newFlowRow(input, { verificationToken: 'v-token', registrationToken: 'r-token' }, '042917', NOW)
    expect(row.token_sha256).toBe(hex('v-token'))
    expect(row.registration_token_sha256).toBe(hex('r-token'))
    expect(row.code_sha256).toBe(hex('v-token\u0000042917'))
    expect(JSON.stringify(row)).not.toContain('042917')
    expect(JSON.stringify(row)).not.toContain('v-token')
    expect(newFlowRow(input, { verificationToken: 'v-token' }, '042917', NOW).registration_token_sha256).toBeNull()
  })

  it('makes the code valid 10 minutes, the next message allowed after 60 s and the flow alive 30 minutes, one message sent and no attempt', () => {
    const row = newFlowRow(input, { verificationToken: 'v-token' }, '042917', NOW)
    expect(row).toMatchObject({ code_expires_at: NOW + 10 * MINUTE, next_send_at: NOW + MINUTE, expires_at: NOW + 30 * MINUTE, created_at: NOW, sends: 1, attempts: 0, status: 'PENDING', previous_code_sha256: null })
    expect(JSON.parse(row.payload)).toEqual(input.payload)
  })
})

describe('resendRefusal', () => {
  it('allows a resend of a pending, live flow with messages left', () => {
    expect(resendRefusal(pending({ sends: 4 }), 'phone', 'russia', NOW + 29 * MINUTE)).toBeUndefined()
  })

  it('treats a flow of another variant or site, or none, as unknown', () => {
    expect(resendRefusal(undefined, 'phone', 'russia', NOW)).toBe('UNKNOWN_HASH')
    expect(resendRefusal(pending(), 'email', 'russia', NOW)).toBe('UNKNOWN_HASH')
    expect(resendRefusal(pending(), 'phone', 'belarus', NOW)).toBe('UNKNOWN_HASH')
  })

  it('refuses a locked, superseded, verified or completed flow, an expired flow and the sixth message', () => {
    expect(resendRefusal(pending({ status: 'LOCKED' }), 'phone', 'russia', NOW)).toBe('EXCEEDED_LIMIT')
    expect(resendRefusal(pending({ status: 'SUPERSEDED' }), 'phone', 'russia', NOW)).toBe('CODE_OVERRIDDEN')
    expect(resendRefusal(pending({ status: 'VERIFIED' }), 'phone', 'russia', NOW)).toBe('SESSION_ALREADY_VERIFIED')
    expect(resendRefusal(pending({ status: 'COMPLETED' }), 'phone', 'russia', NOW)).toBe('SESSION_ALREADY_VERIFIED')
    expect(resendRefusal(pending(), 'phone', 'russia', NOW + 30 * MINUTE)).toBe('CODE_EXPIRED')
    expect(resendRefusal(pending({ sends: 5 }), 'phone', 'russia', NOW)).toBe('EXCEEDED_LIMIT')
  })
})

describe('uncountedRefusal', () => {
  it('names why an attempt was not counted, with the state where the client shows one', () => {
    expect(uncountedRefusal(undefined, 'phone', 'russia', NOW)).toEqual({ ok: false, code: 'UNKNOWN_HASH' })
    expect(uncountedRefusal(pending(), 'phone', 'belarus', NOW)).toEqual({ ok: false, code: 'UNKNOWN_HASH' })
    const spent = uncountedRefusal(pending({ attempts: 5 }), 'phone', 'russia', NOW)
    expect(spent).toMatchObject({ ok: false, code: 'EXCEEDED_LIMIT', state: { attemptCodeCount: 0 } })
    expect(uncountedRefusal(pending({ status: 'LOCKED', attempts: 2 }), 'phone', 'russia', NOW).code).toBe('EXCEEDED_LIMIT')
    expect(uncountedRefusal(pending({ status: 'SUPERSEDED' }), 'phone', 'russia', NOW)).toEqual({ ok: false, code: 'CODE_OVERRIDDEN' })
    expect(uncountedRefusal(pending({ status: 'VERIFIED' }), 'phone', 'russia', NOW)).toEqual({ ok: false, code: 'SESSION_ALREADY_VERIFIED' })
    expect(uncountedRefusal(pending({ status: 'COMPLETED' }), 'phone', 'russia', NOW)).toEqual({ ok: false, code: 'SESSION_ALREADY_VERIFIED' })
  })

  it('calls a pending flow past its 30 minutes expired, with its state', () => {
    const expired = uncountedRefusal(pending({ attempts: 1 }), 'phone', 'russia', NOW + 30 * MINUTE)
    expect(expired).toMatchObject({ ok: false, code: 'CODE_EXPIRED', state: { status: 'PENDING', attemptCodeCount: 4, codeExpiredAfterMillis: 0 } })
  })
})
