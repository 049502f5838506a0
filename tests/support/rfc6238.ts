/**
 * RFC 6238 TOTP written out with node:crypto alone (base32 of RFC 4648, HMAC-SHA1 over the 8-byte
 * big-endian step, dynamic truncation of RFC 4226 §5.3): an oracle independent of the `otpauth`
 * library the server uses, for tests that check the server accepts what any authenticator shows.
 */
import { createHmac } from 'node:crypto'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

export function base32Decode(text: string): Buffer {
  let bits = ''
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
    const value = ALPHABET.indexOf(char)
    if (value < 0) throw new Error(`not base32: ${char}`)
    bits += value.toString(2).padStart(5, '0')
  }
  const bytes = bits.match(/.{8}/g) ?? []
  return Buffer.from(bytes.map((byte) => parseInt(byte, 2)))
}

/** The 6-digit code of a raw key at a moment (ms), 30-second steps from the epoch. */
export function rfc6238(key: Buffer, at: number, digits = 6): string {
  const step = Buffer.alloc(8)
  step.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)))
  const mac = createHmac('sha1', key).update(step).digest()
  const offset = mac[mac.length - 1] & 0x0f
  const value = mac.readUInt32BE(offset) & 0x7fffffff
  return String(value % 10 ** digits).padStart(digits, '0')
}

/** The code an authenticator app shows for a base32 secret (as typed from the enrolment page). */
export const rfc6238Base32 = (secret: string, at: number) => rfc6238(base32Decode(secret), at)
