/**
 * The dev/demo widget's token (docs/adr: our own element instead of the vendor's script): with the
 * simulators on, POST /api/dev/captcha/token {siteKey} asks the local double for a token as the
 * vendor's widget would, for the request's host. Same origin for the browser, so the site's CSP
 * stays as it is. Not mounted without the double (production).
 */
import type { Application, Request, Response } from 'express'
import type { ServerDeps } from '../deps'
import { sendError, sendOk } from '../http/envelope'
import { validateBody } from '../http/validate'

const BODY = { type: 'object', additionalProperties: false, required: ['siteKey'], properties: { siteKey: { type: 'string', minLength: 1, maxLength: 100 } } }

export function mountCaptchaDevToken(app: Application, deps: ServerDeps): void {
  const double = deps.config.captchaDoubleUrl
  if (!double) return
  app.post('/api/dev/captcha/token', validateBody(BODY), async (req: Request, res: Response) => {
    const form = new URLSearchParams({ sitekey: (req.body as { siteKey: string }).siteKey, hostname: req.hostname })
    const answer = await fetch(`${double}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() })
    if (!answer.ok) return sendError(res, 400, 'INVALID_CAPTCHA')
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, (await answer.json()) as { token: string })
  })
}
