/**
 * The account's password calls (routes in ./account.ts; spec §3 password flow modes CREATING and
 * CHANGING, §7 check-password/for-personal-data/join): what the credentials page shows, changing
 * and creating the password, and the join form's check of a password against the person's data.
 */
import type { RequestHandler } from 'express'
import { sendError, sendOk } from '../http/envelope'
import { setProfileFields } from '../punters/lookups'
import { currentPasswordOk, endOtherSessions, failFields, needsPassword, passwordModeOf } from './account-checks'
import type { CredentialsContext } from './context'
import { newPasswordErrors, setPassword, type PersonalData } from './passwords'
import { notifyPasswordChanged } from './recovery'
import { secretQuestionOf } from './secret-question'

/** GET /account/credentials: the password mode, the secret question, the e-mail and the history depth. */
export function credentialsOverview(ctx: CredentialsContext): RequestHandler {
  const { deps } = ctx
  return async (req, res) => {
    const punter = ctx.punterOf(req)
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, {
      passwordMode: passwordModeOf(punter),
      secretQuestion: await secretQuestionOf(deps.data, punter.id),
      email: punter.email,
      emailConfirmed: punter.emailConfirmed,
      passwordHistory: ctx.policy(req).passwordHistory,
    })
  }
}

/** POST /account/password/change (CHANGING): the current password, then the new one against the history. */
export function changePassword(ctx: CredentialsContext): RequestHandler {
  const { deps } = ctx
  return async (req, res) => {
    const { currentPassword, password } = req.body as { currentPassword: string; password: string }
    const punter = ctx.punterOf(req)
    if (needsPassword(punter)) return sendError(res, 400, 'PASSWORD_NOT_SET')
    if (!(await currentPasswordOk(ctx, req, res, currentPassword))) return
    const outcome = await setPassword(deps, punter, password, ctx.policy(req).passwordHistory, deps.now())
    if (!outcome.ok) return failFields(res, outcome.errors)
    const ended = await endOtherSessions(ctx, req, 'password-changed')
    deps.log.info('credentials.password.changed', { punterId: punter.id, sessions: ended })
    notifyPasswordChanged(ctx, req, punter)
    sendOk(res, { status: 'OK', endedSessions: ended })
  }
}

/** POST /account/password/create (CREATING): a punter without a password sets one. */
export function createPassword(ctx: CredentialsContext): RequestHandler {
  const { deps } = ctx
  return async (req, res) => {
    const punter = ctx.punterOf(req)
    if (!needsPassword(punter)) return sendError(res, 400, 'PASSWORD_ALREADY_SET')
    const outcome = await setPassword(deps, punter, (req.body as { password: string }).password, 0, deps.now())
    if (!outcome.ok) return failFields(res, outcome.errors)
    await setProfileFields(deps.data, punter.id, deps.now(), { needPassword: false })
    const ended = await endOtherSessions(ctx, req, 'password-created')
    deps.log.info('credentials.password.created', { punterId: punter.id, sessions: ended })
    sendOk(res, { status: 'OK', endedSessions: ended })
  }
}

/** POST /account/check-password/for-personal-data/join: the password must not contain the person's data. */
export const checkPasswordForJoin: RequestHandler = (req, res) => {
  const { password, ...person } = req.body as PersonalData & { password: string }
  const errors = newPasswordErrors(password, person)
  if (errors.length > 0) return failFields(res, errors)
  sendOk(res, { status: 'OK' })
}
