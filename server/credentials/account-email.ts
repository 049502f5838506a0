/**
 * The account's e-mail calls (routes in ./account.ts; spec §7 add-email, update-email): the new
 * address gets a confirmation link and nothing changes until it is opened; opening it changes the
 * address, confirmed, and ends the punter's other sessions (the one that asked stays).
 */
import type { Request, RequestHandler, Response } from 'express'
import { revokeOtherSessions } from '../auth/sessions'
import { isUniqueViolation } from '../db/storage-errors'
import { sendError, sendOk } from '../http/envelope'
import { findPunterById } from '../punters/repository'
import { composeForPunter } from '../signup/message-texts'
import { ACCOUNT_BUDGET, currentPasswordOk, emailTakenByOther, failFields } from './account-checks'
import type { CredentialsContext } from './context'
import { SECRET_RULES, consumeSecret, newToken, storeSecret } from './store'
import { spend } from './throttle'

/** Both e-mail calls: the new address gets a confirmation link; nothing changes until it is opened. */
async function requestEmail(ctx: CredentialsContext, req: Request, res: Response, email: string, purpose: 'add' | 'update') {
  const { deps } = ctx
  const punter = ctx.punterOf(req)
  const address = email.trim().toLowerCase()
  if (address === punter.email) return failFields(res, [{ field: 'email', code: 'SAME_EMAIL' }])
  if (await emailTakenByOther(ctx, address, punter.id)) return failFields(res, [{ field: 'email', code: 'DUPLICATE_EMAIL' }])
  const budget = await spend(deps.data, [{ key: `email-link:${punter.id}`, limit: ACCOUNT_BUDGET.emailLinksPerHour, windowMs: 3_600_000 }], deps.now())
  if (!budget.ok) return sendError(res, 429, 'TEMPORARY_BLOCKED', { nextAttemptAt: new Date(budget.retryAt).toISOString() })
  const token = newToken()
  await storeSecret(deps.data, { kind: 'email-change', punterId: punter.id, token, detail: { email: address, sessionId: req.punterSession!.sessionId }, ttlMs: SECRET_RULES.emailChangeMs, supersede: true }, deps.now())
  const link = ctx.link(req, `/account/confirm-email?token=${encodeURIComponent(token)}`)
  const mail = composeForPunter(deps, req, punter, 'emailChangeConfirm', { link })
  ctx.sendLater({ channel: 'email', to: address, subject: mail.subject, body: mail.body, jurisdiction: punter.jurisdiction }, { punterId: punter.id, purpose: `email-${purpose}` })
  const notice = composeForPunter(deps, req, punter, 'emailChangeNotice')
  if (purpose === 'update' && punter.email)
    ctx.sendLater({ channel: 'email', to: punter.email, subject: notice.subject, body: notice.body, jurisdiction: punter.jurisdiction }, { punterId: punter.id, purpose: 'email-update-notice' })
  deps.log.info('credentials.email.requested', { punterId: punter.id, purpose })
  sendOk(res, { email: address, linkExpiredAfterMillis: SECRET_RULES.emailChangeMs })
}

/** POST /account/add-email: only for a punter without an address. */
export function addEmail(ctx: CredentialsContext): RequestHandler {
  return async (req, res) => {
    if (ctx.punterOf(req).email) return sendError(res, 400, 'EMAIL_ALREADY_SET')
    await requestEmail(ctx, req, res, (req.body as { email: string }).email, 'add')
  }
}

/** POST /account/update-email: behind the current password; the old address is told. */
export function updateEmail(ctx: CredentialsContext): RequestHandler {
  return async (req, res) => {
    const { email, password } = req.body as { email: string; password: string }
    if (!(await currentPasswordOk(ctx, req, res, password, 'password'))) return
    await requestEmail(ctx, req, res, email, 'update')
  }
}

/** POST /account/email/confirm: the link from the new address; the e-mail changes, confirmed; the other sessions end (the one that asked stays). */
export function confirmEmail(ctx: CredentialsContext): RequestHandler {
  const { deps } = ctx
  return async (req, res) => {
    const now = deps.now()
    const secret = await consumeSecret(deps.data, 'email-change', (req.body as { token: string }).token, now)
    const punter = secret?.punterId != null ? await findPunterById(deps.data, secret.punterId) : undefined
    if (!secret || !punter) return sendError(res, 400, 'TOKEN_NOT_FOUND')
    const email = String(secret.detail.email)
    if (await emailTakenByOther(ctx, email, punter.id)) return sendError(res, 400, 'DUPLICATE_EMAIL')
    try {
      await deps.data.db.updateTable('punters').set({ email, email_confirmed: 1, updated_at: now }).where('id', '=', punter.id).execute()
    } catch (error) {
      // another account took the address since the check (another instance at the same moment): the unique index decides
      if (isUniqueViolation(error)) return sendError(res, 400, 'DUPLICATE_EMAIL')
      throw error
    }
    const ended = await revokeOtherSessions(deps.data, punter.id, typeof secret.detail.sessionId === 'string' ? secret.detail.sessionId : undefined, 'email-changed', now)
    deps.log.info('credentials.email.confirmed', { punterId: punter.id, sessions: ended })
    sendOk(res, { email })
  }
}
