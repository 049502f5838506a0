/**
 * The TOTP check of the admin sign-in (server/admin/second-factor.ts) against RFC 6238's own test
 * vectors (Appendix B, SHA-1, the 20-byte ASCII secret "12345678901234567890"): the 8-digit values
 * of the RFC, cut to the 6 digits an authenticator app shows, are accepted at their time and name
 * that time's step; a step or two away they are not.
 */
import { describe, expect, it } from 'vitest'
import { totpStepOf } from '../../../server/admin/second-factor'

const SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ' // base32 of "12345678901234567890"
const VECTORS: Array<[seconds: number, eightDigits: string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
]

describe('TOTP codes per RFC 6238 Appendix B', () => {
  it.each(VECTORS)('at %i s the code %s (its last 6 digits) is valid for step floor(t / 30)', (seconds, eight) => {
    expect(totpStepOf(SECRET, eight.slice(2), seconds * 1000)).toBe(Math.floor(seconds / 30))
  })

  it('a code is taken one step early or late (clock drift), never two', () => {
    const [seconds, eight] = VECTORS[3]
    const code = eight.slice(2)
    expect(totpStepOf(SECRET, code, (seconds + 30) * 1000)).toBe(Math.floor(seconds / 30))
    expect(totpStepOf(SECRET, code, (seconds - 30) * 1000)).toBe(Math.floor(seconds / 30))
    expect(totpStepOf(SECRET, code, (seconds + 61) * 1000)).toBeNull()
  })

  it('anything but six digits is refused without checking', () => {
    for (const bad of ['', '28708', '2870822', 'abcdef', '287 82']) expect(totpStepOf(SECRET, bad, 59_000)).toBeNull()
  })
})
