/**
 * One captcha check for login and sign-up whatever the site's kind (./captcha-vendor.ts): a proof-of-work
 * solution goes to ./captcha.ts, a nonce to ./captcha-nonce.ts (for the purpose it was issued for), a reCAPTCHA or hCaptcha token to the vendor's verify URL (server
 * configuration). Either way a failure is the caller's INVALID_CAPTCHA.
 */
import type { Request } from 'express'
import type { ServerDeps } from '../deps'
import { jurisdictionOf } from '../dictionary'
import type { CaptchaService } from './captcha'
import { nonceServiceFor, type NonceChallenge, type NoncePurpose } from './captcha-nonce'
import { REAL_VERIFY_URLS, siteCaptchaOf, verifyVendorToken, type SiteCaptcha } from './captcha-vendor'

export const siteCaptcha = (deps: ServerDeps, req: Request): SiteCaptcha => siteCaptchaOf(jurisdictionOf(deps, req))

export async function verifyCaptcha(deps: ServerDeps, req: Request, pow: CaptchaService, payload: string, purpose: NoncePurpose): Promise<boolean> {
  const captcha = siteCaptcha(deps, req)
  if (captcha.kind === 'POW') return pow.verify(payload)
  if (captcha.kind === 'NONCE') return nonceServiceFor(deps.data, deps.now).use(payload, purpose)
  const verifyUrl = deps.config.captchaVerifyUrls?.[captcha.kind] ?? REAL_VERIFY_URLS[captcha.kind]
  return verifyVendorToken({ data: deps.data, now: deps.now(), verifyUrl }, { ...captcha, kind: captcha.kind }, payload, req.ip ?? '')
}

/** What the challenge call answers besides a proof-of-work puzzle: a nonce for `purpose`, or the widget's kind and public site key. */
export async function otherChallenge(
  deps: ServerDeps,
  captcha: SiteCaptcha,
  purpose: NoncePurpose,
): Promise<NonceChallenge | { type: 'RECAPTCHA' | 'HCAPTCHA'; answer: 'token'; siteKey: string } | undefined> {
  if (captcha.kind === 'NONCE') return nonceServiceFor(deps.data, deps.now).issue(purpose)
  return captcha.kind === 'POW' || !captcha.siteKey ? undefined : { type: captcha.kind, answer: 'token', siteKey: captcha.siteKey }
}
