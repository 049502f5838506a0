/**
 * Test support: an admin's sign-in over HTTP as the admin page makes it — the password, then the
 * TOTP code of the admin's secret at the server's clock. Answers the last response (the session's
 * cookie and CSRF token on success; the first refusal otherwise).
 */
import { rawRequest, type RawResponse } from './server'
import { totpCode } from './totp'

export interface StaffCredentials {
  email: string
  password: string
  totpSecret: string
}

export async function adminSignInRaw(port: number, who: StaffCredentials, at: number = Date.now(), headers: Record<string, string> = {}): Promise<RawResponse> {
  const json = { 'content-type': 'application/json', ...headers }
  const first = await rawRequest(port, { method: 'POST', path: '/admin/api/login', headers: json, body: JSON.stringify({ email: who.email, password: who.password }) })
  if (first.status !== 200) return first
  const body = JSON.stringify({ challenge: first.json().payload.challenge, code: totpCode(who.totpSecret, at) })
  return rawRequest(port, { method: 'POST', path: '/admin/api/login/second-factor', headers: json, body })
}

/** The session cookie (name=value) a successful sign-in set. */
export const sessionCookieOf = (res: RawResponse) => String(([] as string[]).concat(res.headers['set-cookie'] ?? [])[0] ?? '').split(';')[0]
