/** GET /auth/captcha/challenge as a named handler: the site's own captcha's challenge, else a proof-of-work one. */
import type { RequestHandler } from 'express'
import type { ServerDeps } from '../deps'
import { remoteConfigFor } from '../documents/router'
import { sendOk } from '../http/envelope'
import { powConfig, type CaptchaService } from './captcha'
import { otherChallenge, siteCaptcha } from './captcha-gate'
import type { NoncePurpose } from './captcha-nonce'

/** `purpose`: the call the answer is for (a NONCE is good for that call only); default login. */
export function captchaChallenge(deps: ServerDeps, captcha: CaptchaService): RequestHandler {
  return async (req, res) => {
    const pow = powConfig(remoteConfigFor(deps, req))
    const purpose = (req.query.purpose as NoncePurpose | undefined) ?? 'login'
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, (await otherChallenge(deps, siteCaptcha(deps, req), purpose)) ?? (await captcha.challenge(pow)))
  }
}
