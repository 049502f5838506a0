/**
 * The captcha on the client. The proof-of-work challenge (spec: RQ_POW, answer kind pow; ALTCHA v1
 * protocol): fetch a challenge, find n with SHA-256(salt + n) = challenge, send base64 JSON back;
 * runs in batches so the page stays responsive; gives up past maxnumber. A NONCE challenge (answer
 * kind token) is answered with the nonce as it came, for the call it was asked for.
 */
import type { Result } from '../../kernel/core/contracts'
import type { Gateway } from '../core/gateway'
import { rememberPowPuzzleRun } from '../core/stored-keys'
import { pageLocalStorage } from '../core/web-storage'

export interface PowChallenge {
  algorithm: string
  challenge: string
  salt: string
  signature: string
  maxnumber?: number
}

export type Digest = (text: string) => Promise<string>

const webDigest: Digest = async (text) => {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))
  let hex = ''
  for (const b of bytes) hex += b.toString(16).padStart(2, '0')
  return hex
}

// btoa exists in every host the engine runs in (browsers, and Node ≥ 16 for the tests and the server's render)
const toBase64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)))

export async function solvePow(challenge: PowChallenge, digest: Digest = webDigest, batch = 200): Promise<Result<string>> {
  const max = challenge.maxnumber ?? 1_000_000
  for (let start = 0; start <= max; start += batch) {
    const end = Math.min(max, start + batch - 1)
    const hashes = await Promise.all(Array.from({ length: end - start + 1 }, (_, i) => digest(challenge.salt + (start + i))))
    const found = hashes.indexOf(challenge.challenge)
    if (found >= 0) {
      const number = start + found
      rememberPowPuzzleRun(number + 1, pageLocalStorage(), Date.now())
      return { ok: true, value: toBase64(JSON.stringify({ algorithm: challenge.algorithm, challenge: challenge.challenge, number, salt: challenge.salt, signature: challenge.signature })) }
    }
  }
  return { ok: false, code: 'CAPTCHA_ANSWER_INVALID' }
}

/** The site's challenge: a proof-of-work puzzle, a nonce, or a vendor widget's site key (issue 34 item 5). */
type CaptchaChallenge =
  | { type: 'RQ_POW'; challenge: PowChallenge }
  | { type: 'NONCE'; answer: 'token'; nonce: string }
  | { type: 'RECAPTCHA' | 'HCAPTCHA'; answer: 'token'; siteKey: string }

/** The calls that ask for a captcha: a nonce is issued for one of them and good for that one only. */
export type CaptchaPurpose = 'login' | 'signup-sms'

export async function fetchAndSolveCaptcha(gateway: Gateway, digest?: Digest, purpose: CaptchaPurpose = 'login'): Promise<Result<string>> {
  const challenge = await gateway.call<CaptchaChallenge>('GET', `/mobile-gate/api/v1/auth/captcha/challenge?purpose=${purpose}`)
  if (!challenge.ok) return challenge
  const asked = challenge.value
  if (asked.type === 'NONCE') return { ok: true, value: asked.nonce }
  if (asked.type !== 'RQ_POW') return widgetToken(gateway, asked.siteKey)
  return solvePow(asked.challenge, digest)
}

/**
 * A reCAPTCHA/hCaptcha token. The vendors' widget scripts cannot load under the site's CSP
 * (docs/adr/0080-captcha-vendor-widget.md), so the token comes from our own stand-in: the local
 * verification double through the server's dev route, which exists only with the simulators on.
 * Without it the call fails and the caller keeps the server's CAPTCHA_REQUIRED answer.
 */
async function widgetToken(gateway: Gateway, siteKey: string): Promise<Result<string>> {
  const token = await gateway.call<{ token: string }>('POST', '/api/dev/captcha/token', { siteKey })
  return token.ok ? { ok: true, value: token.value.token } : token
}
