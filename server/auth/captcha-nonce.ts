/**
 * The NONCE challenge (spec §3 "challenge types RQ_POW, NONCE with answer kinds token, pow";
 * docs/adr/0087-nonce-challenge.md): no work for the punter's phone, only proof that the request
 * follows a fresh challenge this server issued for this very purpose. The server issues
 * `<id>.<expiresAt>.<mac>` where mac = HMAC-SHA256(key, "NONCE|purpose|id|expiresAt") with the
 * database's captcha key (./captcha.ts), and the client answers with kind `token`: the nonce as it
 * came. Accepted once: a used nonce's digest is kept in auth_captcha_used until it would have
 * expired anyway (the same table and race rule as proof-of-work solutions, on either engine).
 * Issuing writes nothing, so a guest asking for challenges in a loop cannot fill the database.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { DataLayer } from '../db/data-layer'
import { captchaKeyReader, perDatabase, useSolution } from './captcha'
import { sha256 } from './sessions'

/** What a nonce may be used for: the calls that ask for a captcha. */
export const NONCE_PURPOSES = ['login', 'signup-sms'] as const
export type NoncePurpose = (typeof NONCE_PURPOSES)[number]

/** How long a nonce is good for: time to type a password, not to collect nonces for later. */
export const NONCE_TTL_MS = 3 * 60_000

export interface NonceChallenge {
  type: 'NONCE'
  answer: 'token'
  nonce: string
  purpose: NoncePurpose
  expiresAt: number
}

export interface NonceService {
  issue(purpose: NoncePurpose): Promise<NonceChallenge>
  /** True once for a nonce this server issued for `purpose` and not yet expired. */
  use(token: string, purpose: NoncePurpose): Promise<boolean>
}

const mac = (key: string, purpose: string, id: string, expiresAt: number) => createHmac('sha256', key).update(`NONCE|${purpose}|${id}|${expiresAt}`).digest('base64url')

export function createNonceService(data: DataLayer, now: () => number): NonceService {
  const hmacKey = captchaKeyReader(data)
  return {
    async issue(purpose) {
      const id = randomBytes(18).toString('base64url')
      const expiresAt = now() + NONCE_TTL_MS
      return { type: 'NONCE', answer: 'token', nonce: `${id}.${expiresAt}.${mac(await hmacKey(), purpose, id, expiresAt)}`, purpose, expiresAt }
    },
    async use(token, purpose) {
      const [id, expires, given, extra] = token.length <= 200 ? token.split('.') : []
      const expiresAt = Number(expires)
      if (!id || !given || extra !== undefined || !/^\d{1,15}$/.test(expires ?? '') || expiresAt <= now()) return false
      const expected = Buffer.from(mac(await hmacKey(), purpose, id, expiresAt))
      const answered = Buffer.from(given)
      if (answered.length !== expected.length || !timingSafeEqual(answered, expected)) return false
      // kept until it would have expired anyway; two requests with one nonce: the first wins
      return useSolution(data, sha256(`NONCE:${id}`), expiresAt, now())
    },
  }
}

/** One service per database, like the proof-of-work one (./captcha.ts `captchaServiceFor`). */
export const nonceServiceFor = perDatabase(createNonceService)
