/**
 * The captcha kind of a site (issue 34 item 5; spec "Captcha kinds: RECAPTCHA, HCAPTCHA"): proof
 * of work (./captcha.ts, the default), a single-use server nonce (./captcha-nonce.ts) or a vendor's widget token checked by the vendor's siteverify
 * call. The kind, the public site keys and (server-only) the secrets live in the site's
 * jurisdiction document under `captcha`; the verify URLs are server configuration (the vendors'
 * real URLs in production, the local double ./captcha-double.ts with the simulators on).
 * A vendor token is used once: the vendor refuses a replay, and so do we (its digest is kept in
 * auth_captcha_used, on either engine) before the vendor is even asked.
 */
import type { DataLayer } from '../db/data-layer'
import { sha256 } from './sessions'
import type { VendorKind } from './captcha-double'

/** POW: proof of work (./captcha.ts); NONCE: a single-use server nonce (./captcha-nonce.ts); or a vendor widget. */
export type CaptchaKind = 'POW' | 'NONCE' | VendorKind

export const REAL_VERIFY_URLS: Record<VendorKind, string> = {
  RECAPTCHA: 'https://www.google.com/recaptcha/api/siteverify',
  HCAPTCHA: 'https://api.hcaptcha.com/siteverify',
}

export interface SiteCaptcha {
  kind: CaptchaKind
  /** The vendor's public site key (what the widget shows); absent for proof of work. */
  siteKey?: string
  /** Server-only. */
  secret?: string
}

type Keys = Partial<Record<VendorKind, { siteKey?: unknown }>>

/** The site's captcha from its jurisdiction document; anything incomplete is proof of work. */
export function siteCaptchaOf(jurisdiction: unknown): SiteCaptcha {
  const raw = (jurisdiction as { captcha?: { kind?: unknown; keys?: Keys; secrets?: Partial<Record<VendorKind, unknown>> } } | undefined)?.captcha
  const kind = raw?.kind
  if (kind === 'NONCE') return { kind }
  if (kind !== 'RECAPTCHA' && kind !== 'HCAPTCHA') return { kind: 'POW' }
  const siteKey = raw?.keys?.[kind]?.siteKey
  const secret = raw?.secrets?.[kind]
  if (typeof siteKey !== 'string' || typeof secret !== 'string') return { kind: 'POW' }
  return { kind, siteKey, secret }
}

/** How long a used vendor token is remembered (vendors accept a token for two minutes). */
const USED_FOR_MS = 10 * 60_000

export interface VendorCheck {
  data: DataLayer
  now: number
  verifyUrl: string
  fetch?: typeof fetch
}

/** True once for a token the vendor (or its double) says is good for this site's secret. */
export async function verifyVendorToken(check: VendorCheck, captcha: SiteCaptcha & { kind: VendorKind }, token: string, remoteip: string): Promise<boolean> {
  if (token.length > 2000 || !captcha.secret) return false
  const used = await check.data.db
    .insertInto('auth_captcha_used')
    .values({ signature_sha256: sha256(`${captcha.kind}:${token}`), expires_at: check.now + USED_FOR_MS })
    .onConflict((oc) => oc.column('signature_sha256').doNothing())
    .returning('signature_sha256')
    .executeTakeFirst()
  if (!used) return false
  try {
    const res = await (check.fetch ?? fetch)(check.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret: captcha.secret, response: token, remoteip }).toString(),
      signal: AbortSignal.timeout(5000),
    })
    if (!res.ok) return false
    const answer = (await res.json()) as { success?: unknown }
    return answer.success === true
  } catch {
    return false
  }
}
