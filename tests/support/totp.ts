/**
 * Test support: the TOTP code an authenticator app shows for a secret at a moment, computed with
 * the otpauth library from the secret alone (RFC 6238: SHA-1, 6 digits, 30 s), so a test signs in
 * as staff would; the server's verification is checked against RFC 6238's own vectors elsewhere.
 */
import { Secret, TOTP } from 'otpauth'

export function totpCode(secret: string, at: number = Date.now()): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at })
}
