/**
 * What the account's credential handlers share (routes in ./account.ts): the per-punter budgets,
 * the refusal of a form's field errors, the password mode, the current-password check behind its
 * budget, the e-mail uniqueness check and the end of the punter's other sessions.
 */
import type { Request, Response } from 'express'
import { revokeOtherSessions } from '../auth/sessions'
import { sendError } from '../http/envelope'
import type { FieldError } from '../http/validate'
import { passwordHasherFor } from '../punters/password'
import { lowerIs, type Punter } from '../punters/repository'
import type { CredentialsContext } from './context'
import { spend, usedUpUntil } from './throttle'

/** Wrong current passwords: five an hour per punter; e-mail links: three an hour per punter. */
export const ACCOUNT_BUDGET = { passwordChecksPerHour: 5, emailLinksPerHour: 3 } as const

/** Codes that answer as themselves (the form still shows them on their field). */
const OWN_CODES = ['PASSWORD_USED_BEFORE', 'PASSWORD_CONTAINS_PERSONAL_DATA', 'SECRET_QUESTION_ANSWER_CONTAINS_BIRTHDAY', 'INCORRECT_PASSWORD', 'DUPLICATE_EMAIL']

/** The error code of a refused form: the first field error whose code answers as itself, else ValidationError. */
export const failCodeOf = (errors: FieldError[]) => errors.find((e) => OWN_CODES.includes(e.code))?.code ?? 'ValidationError'

export const failFields = (res: Response, errors: FieldError[]) => sendError(res, 400, failCodeOf(errors), errors)

/** A punter made without a password (by token or portal) sets one (CREATING); everyone else changes it (CHANGING). */
export const needsPassword = (punter: Punter) => (punter.profile as { needPassword?: boolean }).needPassword === true

export const passwordModeOf = (punter: Punter) => (needsPassword(punter) ? 'CREATING' : 'CHANGING')

/**
 * The current password, behind a budget of failures (only wrong passwords count, as at login):
 * true when right; otherwise the refusal is already sent.
 */
export async function currentPasswordOk(ctx: CredentialsContext, req: Request, res: Response, given: string, field = 'currentPassword'): Promise<boolean> {
  const { deps } = ctx
  const punter = ctx.punterOf(req)
  const budget = [{ key: `password-check:${punter.id}`, limit: ACCOUNT_BUDGET.passwordChecksPerHour, windowMs: 3_600_000 }]
  const blockedUntil = await usedUpUntil(deps.data.db, budget, deps.now())
  if (blockedUntil !== undefined) {
    sendError(res, 429, 'TEMPORARY_BLOCKED', { nextAttemptAt: new Date(blockedUntil).toISOString() })
    return false
  }
  if (await passwordHasherFor(deps.db).verify(punter.passwordHash, given)) return true
  await spend(deps.data, budget, deps.now())
  deps.log.info('credentials.password.check-failed', { punterId: punter.id })
  failFields(res, [{ field, code: 'INCORRECT_PASSWORD' }])
  return false
}

/** Does another punter have this address (compared as the e-mail index does)? */
export async function emailTakenByOther(ctx: CredentialsContext, email: string, punterId: number): Promise<boolean> {
  return (await ctx.deps.data.db.selectFrom('punters').select('id').where(lowerIs('email', email)).where('id', '!=', punterId).executeTakeFirst()) !== undefined
}

/** Ends the punter's other sessions (the one asking stays); how many ended. */
export function endOtherSessions(ctx: CredentialsContext, req: Request, why: string): Promise<number> {
  const { punterId, sessionId } = req.punterSession!
  return revokeOtherSessions(ctx.deps.data, punterId, sessionId, why, ctx.deps.now())
}
