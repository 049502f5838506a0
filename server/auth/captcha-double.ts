/**
 * A local stand-in for reCAPTCHA's and hCaptcha's verification services (issue 34 item 5), so
 * dev, demo and tests never call Google or hCaptcha. It speaks their siteverify protocol exactly:
 * POST application/x-www-form-urlencoded `secret`, `response`, `remoteip` to
 * /recaptcha/api/siteverify (reCAPTCHA) or /siteverify (hCaptcha), answered with JSON
 * {success, challenge_ts, hostname, "error-codes"}. It knows only the vendors' published test key
 * pairs, issues tokens itself (POST /token, sitekey + hostname: what the real widget would do in
 * the browser) and accepts each token once, for its own site key's secret, like the vendors.
 * Listens on loopback only.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomBytes } from 'node:crypto'

/** The vendors' documented test keys (always-pass keys for automated tests). */
export const TEST_KEYS = {
  RECAPTCHA: { siteKey: '6LeIxAcTAAAAAJcZVRqyHh71UMIEGNQ_MXmiIq4', secret: '6LeIxAcTAAAAAGG-vFI1TnRWxMZNFuojJ4WifJWe' },
  HCAPTCHA: { siteKey: '10000000-ffff-ffff-ffff-000000000001', secret: '0x0000000000000000000000000000000000000000' },
} as const

export type VendorKind = keyof typeof TEST_KEYS

/** The verify path of each vendor (what a real verify URL ends with). */
export const VERIFY_PATHS: Record<VendorKind, string> = { RECAPTCHA: '/recaptcha/api/siteverify', HCAPTCHA: '/siteverify' }

/** The vendors' error codes for a used or unknown token differ. */
const BAD_TOKEN: Record<VendorKind, string> = { RECAPTCHA: 'timeout-or-duplicate', HCAPTCHA: 'invalid-or-already-seen-response' }
const TOKEN_LIFE_MS = 120_000

interface Issued {
  kind: VendorKind
  hostname: string
  issuedAt: number
  used: boolean
}

export interface CaptchaDouble {
  url: string
  /** The verify URL of a vendor on this double. */
  verifyUrl(kind: VendorKind): string
  close(): Promise<void>
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = ''
  for await (const chunk of req) {
    text += chunk
    if (text.length > 10_000) throw new Error('too large')
  }
  return text
}

function siteverify(tokens: Map<string, Issued>, kind: VendorKind, form: URLSearchParams, now: number): Record<string, unknown> {
  const secret = form.get('secret')
  const response = form.get('response')
  const fail = (code: string) => ({ success: false, 'error-codes': [code] })
  if (!secret) return fail('missing-input-secret')
  if (secret !== TEST_KEYS[kind].secret) return fail('invalid-input-secret')
  if (!response) return fail('missing-input-response')
  const issued = tokens.get(response)
  if (!issued || issued.kind !== kind) return fail('invalid-input-response')
  if (issued.used || now - issued.issuedAt > TOKEN_LIFE_MS) return fail(BAD_TOKEN[kind])
  issued.used = true
  return { success: true, challenge_ts: new Date(issued.issuedAt).toISOString(), hostname: issued.hostname, 'error-codes': [] }
}

function issueToken(tokens: Map<string, Issued>, form: URLSearchParams, now: number): Record<string, unknown> | undefined {
  const siteKey = form.get('sitekey')
  const kind = (Object.keys(TEST_KEYS) as VendorKind[]).find((k) => TEST_KEYS[k].siteKey === siteKey)
  if (!kind) return undefined
  const token = `${kind === 'RECAPTCHA' ? '03A' : 'P1_'}${randomBytes(24).toString('base64url')}`
  tokens.set(token, { kind, hostname: form.get('hostname') || 'localhost', issuedAt: now, used: false })
  return { token }
}

/** Starts the double on 127.0.0.1 (an ephemeral port unless given); `now` is the injected clock. */
export async function startCaptchaDouble(options: { now?: () => number; port?: number } = {}): Promise<CaptchaDouble> {
  const now = options.now ?? Date.now
  const tokens = new Map<string, Issued>()
  const server: Server = createServer(async (req, res) => {
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
      res.end(JSON.stringify(body))
    }
    if (req.method !== 'POST') return answer(405, { success: false, 'error-codes': ['bad-request'] })
    let form: URLSearchParams
    try {
      form = new URLSearchParams(await readBody(req))
    } catch {
      return answer(413, { success: false, 'error-codes': ['bad-request'] })
    }
    const path = (req.url ?? '').split('?')[0]
    const kind = (Object.keys(VERIFY_PATHS) as VendorKind[]).find((k) => VERIFY_PATHS[k] === path)
    if (kind) return answer(200, siteverify(tokens, kind, form, now()))
    if (path === '/token') {
      const issued = issueToken(tokens, form, now())
      return issued ? answer(200, issued) : answer(400, { 'error-codes': ['invalid-sitekey'] })
    }
    answer(404, { success: false, 'error-codes': ['not-found'] })
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    verifyUrl: (kind) => url + VERIFY_PATHS[kind],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
