/**
 * The signed-in admin's own account (issue 30), for every role:
 *
 *   GET  /admin/api/account                 the admin, the second factor's state, the audit checkpoint
 *   POST /admin/api/account/password        current + new password (15+ characters); the other sessions end
 *   POST /admin/api/account/recovery-codes  password → ten new recovery codes (the old ones end)
 *   GET  /admin/api/audit/checkpoint        the signed head of the audit log, as a file (audited)
 *
 * A wrong current password counts as a failed sign-in of that e-mail (./sign-in.ts's throttle), so a
 * stolen session cannot guess the password freely. Mounted after the admin router's authentication.
 */
import { Router, type Request, type Response } from 'express'
import type { ServerDeps } from '../deps'
import { HTTP_ERRORS, sendError, sendOk } from '../http/envelope'
import { validateBody } from '../http/validate'
import { currentCheckpoint } from '../store/audit'
import { passwordMatches } from './accounts'
import { newRecoveryCodes, recoveryCodesLeft } from './second-factor'
import type { Audit, SessionOf, Throttle } from './sign-in-types'
import { MAX_PASSWORD, MIN_PASSWORD, passwordProblem, setPassword } from './staff'

const passwordSchema = {
  type: 'object',
  required: ['currentPassword', 'newPassword'],
  properties: { currentPassword: { type: 'string', minLength: 1, maxLength: 200 }, newPassword: { type: 'string', minLength: 1, maxLength: MAX_PASSWORD * 4 } },
  additionalProperties: false,
}
const renewSchema = { type: 'object', required: ['password'], properties: { password: { type: 'string', minLength: 1, maxLength: 200 } }, additionalProperties: false }

export function createAccountRouter(deps: ServerDeps, audit: Audit, sessionOf: SessionOf, throttle: Throttle): Router {
  const router = Router()
  /** The current password, counted as a sign-in failure when wrong (a stolen session cannot guess it freely). */
  const passwordOk = async (req: Request, res: Response, password: string): Promise<boolean> => {
    const session = sessionOf(req)!
    const keys = [`email:${session.user.email.toLowerCase()}`]
    const blocked = await throttle.blocked(keys).catch(() => undefined)
    if (blocked !== false) return sendError(res, blocked === undefined ? 503 : 429, blocked === undefined ? 'SERVICE_UNAVAILABLE' : HTTP_ERRORS.tooManyRequests), false
    const row = await deps.data.db.selectFrom('admin_users').select('password_hash').where('id', '=', session.user.id).executeTakeFirst()
    if (await passwordMatches(row?.password_hash, password)) return true
    await throttle.fail(keys).catch(() => undefined)
    await audit(session.user.email, 'admin.password-check-failed', 'admin', { for: req.path })
    sendError(res, 401, 'INVALID_CREDENTIALS')
    return false
  }

  router.get('/admin/api/account', async (req, res) => {
    const { user } = sessionOf(req)!
    const row = await deps.data.db.selectFrom('admin_users').select('totp_enrolled_at').where('id', '=', user.id).executeTakeFirst()
    sendOk(res, { user, twoFactor: { enrolledAt: row?.totp_enrolled_at ?? null, recoveryCodesLeft: await recoveryCodesLeft(deps.data, user.id) }, checkpoint: await currentCheckpoint(deps.data, deps.now()) })
  })

  router.post('/admin/api/account/password', validateBody(passwordSchema), async (req, res) => {
    const session = sessionOf(req)!
    const { currentPassword, newPassword } = req.body as { currentPassword: string; newPassword: string }
    if (!(await passwordOk(req, res, currentPassword))) return
    const problem = newPassword === currentPassword ? 'unchanged' : passwordProblem(newPassword)
    if (problem) {
      await audit(session.user.email, 'admin.password-change-refused', 'admin', { problem })
      return sendError(res, 400, 'PASSWORD_NOT_ACCEPTED', { problem, minLength: MIN_PASSWORD, maxLength: MAX_PASSWORD })
    }
    const ended = await setPassword(deps.data, session.user.id, newPassword, session.tokenHash)
    await audit(session.user.email, 'admin.password-changed', 'admin', { otherSessionsEnded: ended })
    sendOk(res, { otherSessionsEnded: ended })
  })

  router.post('/admin/api/account/recovery-codes', validateBody(renewSchema), async (req, res) => {
    const session = sessionOf(req)!
    if (!(await passwordOk(req, res, (req.body as { password: string }).password))) return
    const recoveryCodes = await newRecoveryCodes(deps.data, session.user.id, deps.now())
    await audit(session.user.email, 'admin.recovery-codes-renewed', 'admin', { recoveryCodes: recoveryCodes.length })
    sendOk(res, { recoveryCodes })
  })

  router.get('/admin/api/audit/checkpoint', async (req, res) => {
    const session = sessionOf(req)!
    await audit(session.user.email, 'audit.checkpoint-exported', 'audit', {})
    const checkpoint = await currentCheckpoint(deps.data, deps.now())
    const stamp = String(checkpoint.signedAt).replace(/[:.]/g, '-')
    res.setHeader('Content-Disposition', `attachment; filename="parlay-audit-checkpoint-${stamp}.json"`)
    res.type('application/json').send(JSON.stringify(checkpoint, null, 2) + '\n')
  })
  return router
}
