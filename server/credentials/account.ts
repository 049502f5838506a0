/**
 * A logged-in punter's credentials (spec §3 password flow modes CREATING and CHANGING, secret
 * question, e-mail; §7 add-email, update-email, secret-question/answer-validation,
 * check-password/for-personal-data/join). Every change that needs the current password spends
 * from a per-punter budget first, so a stolen session cannot guess it; every changed credential
 * ends the punter's other sessions (the current one stays).
 */
import type { Request, Response, Router } from 'express'
import { revokeOtherSessions } from '../auth/sessions'
import { isUniqueViolation } from '../db/storage-errors'
import { sendError, sendOk } from '../http/envelope'
import { validateBody, type FieldError } from '../http/validate'
import { passwordHasherFor } from '../punters/password'
import { findPunterById, lowerIs, type Punter } from '../punters/repository'
import { setProfileFields } from '../punters/lookups'
import type { CredentialsContext } from './context'
import { newPasswordErrors, setPassword, type PersonalData } from './passwords'
import { notifyPasswordChanged } from './recovery'
import { composeForPunter } from '../signup/message-texts'
import {
  ADD_EMAIL_SCHEMA,
  ANSWER_VALIDATION_SCHEMA,
  CHANGE_SCHEMA,
  CHECK_PASSWORD_SCHEMA,
  CREATE_SCHEMA,
  PASSWORD_TOKEN_SCHEMA,
  SECRET_QUESTION_SCHEMA,
  UPDATE_EMAIL_SCHEMA,
} from './schemas'
import { answerErrors, checkAnswer, saveSecretQuestion, secretQuestionOf, type SecretQuestionType } from './secret-question'
import { SECRET_RULES, consumeSecret, newToken, peekSecret, storeSecret, updateSecretDetail } from './store'
import { spend, usedUpUntil } from './throttle'

/** Wrong current passwords: five an hour per punter; e-mail links: three an hour per punter. */
export const ACCOUNT_BUDGET = { passwordChecksPerHour: 5, emailLinksPerHour: 3 } as const

/** Codes that answer as themselves (the form still shows them on their field). */
const OWN_CODES = ['PASSWORD_USED_BEFORE', 'PASSWORD_CONTAINS_PERSONAL_DATA', 'SECRET_QUESTION_ANSWER_CONTAINS_BIRTHDAY', 'INCORRECT_PASSWORD', 'DUPLICATE_EMAIL']
export const failFields = (res: Response, errors: FieldError[]) => sendError(res, 400, errors.find((e) => OWN_CODES.includes(e.code))?.code ?? 'ValidationError', errors)

const needsPassword = (punter: Punter) => (punter.profile as { needPassword?: boolean }).needPassword === true

export function mountAccount(router: Router, ctx: CredentialsContext): void {
  const { deps } = ctx
  const { db, log } = deps
  const session = ctx.requireSession

  /**
   * The current password, behind a budget of failures (only wrong passwords count, as at login):
   * true when right; otherwise the refusal is already sent.
   */
  async function currentPasswordOk(req: Request, res: Response, given: string, field = 'currentPassword'): Promise<boolean> {
    const punter = ctx.punterOf(req)
    const budget = [{ key: `password-check:${punter.id}`, limit: ACCOUNT_BUDGET.passwordChecksPerHour, windowMs: 3_600_000 }]
    const blockedUntil = await usedUpUntil(deps.data.db, budget, deps.now())
    if (blockedUntil !== undefined) {
      sendError(res, 429, 'TEMPORARY_BLOCKED', { nextAttemptAt: new Date(blockedUntil).toISOString() })
      return false
    }
    if (await passwordHasherFor(db).verify(punter.passwordHash, given)) return true
    await spend(deps.data, budget, deps.now())
    log.info('credentials.password.check-failed', { punterId: punter.id })
    failFields(res, [{ field, code: 'INCORRECT_PASSWORD' }])
    return false
  }

  /** Does another punter have this address (compared as the e-mail index does)? */
  async function emailTakenByOther(email: string, punterId: number): Promise<boolean> {
    return (await deps.data.db.selectFrom('punters').select('id').where(lowerIs('email', email)).where('id', '!=', punterId).executeTakeFirst()) !== undefined
  }

  function endOtherSessions(req: Request, why: string): Promise<number> {
    const { punterId, sessionId } = req.punterSession!
    return revokeOtherSessions(deps.data, punterId, sessionId, why, deps.now())
  }

  router.get('/account/credentials', session, async (req, res) => {
    const punter = ctx.punterOf(req)
    res.setHeader('Cache-Control', 'no-store')
    sendOk(res, {
      passwordMode: needsPassword(punter) ? 'CREATING' : 'CHANGING',
      secretQuestion: await secretQuestionOf(deps.data, punter.id),
      email: punter.email,
      emailConfirmed: punter.emailConfirmed,
      passwordHistory: ctx.policy(req).passwordHistory,
    })
  })

  router.post('/account/password/change', session, validateBody(CHANGE_SCHEMA), async (req, res) => {
    const { currentPassword, password } = req.body as { currentPassword: string; password: string }
    const punter = ctx.punterOf(req)
    if (needsPassword(punter)) return sendError(res, 400, 'PASSWORD_NOT_SET')
    if (!(await currentPasswordOk(req, res, currentPassword))) return
    const outcome = await setPassword(deps, punter, password, ctx.policy(req).passwordHistory, deps.now())
    if (!outcome.ok) return failFields(res, outcome.errors)
    const ended = await endOtherSessions(req, 'password-changed')
    log.info('credentials.password.changed', { punterId: punter.id, sessions: ended })
    notifyPasswordChanged(ctx, req, punter)
    sendOk(res, { status: 'OK', endedSessions: ended })
  })

  router.post('/account/password/create', session, validateBody(CREATE_SCHEMA), async (req, res) => {
    const punter = ctx.punterOf(req)
    if (!needsPassword(punter)) return sendError(res, 400, 'PASSWORD_ALREADY_SET')
    const outcome = await setPassword(deps, punter, (req.body as { password: string }).password, 0, deps.now())
    if (!outcome.ok) return failFields(res, outcome.errors)
    await setProfileFields(deps.data, punter.id, deps.now(), { needPassword: false })
    const ended = await endOtherSessions(req, 'password-created')
    log.info('credentials.password.created', { punterId: punter.id, sessions: ended })
    sendOk(res, { status: 'OK', endedSessions: ended })
  })

  router.post('/account/secret-question', session, validateBody(SECRET_QUESTION_SCHEMA), async (req, res) => {
    const { questionType, answer, password } = req.body as { questionType: SecretQuestionType; answer: string; password: string }
    const punter = ctx.punterOf(req)
    const problems = answerErrors(answer, punter)
    if (problems.length > 0) return failFields(res, problems)
    if (!(await currentPasswordOk(req, res, password, 'password'))) return
    await saveSecretQuestion(deps.data, punter.id, questionType, answer, deps.now())
    const ended = await endOtherSessions(req, 'secret-question-changed')
    log.info('credentials.secret-question.set', { punterId: punter.id, questionType, sessions: ended })
    sendOk(res, { questionType, endedSessions: ended })
  })

  /** The spec's answer check: for a recovery (its password token), else for the session's punter. */
  router.post('/account/secret-question/answer-validation', validateBody(ANSWER_VALIDATION_SCHEMA), async (req, res, next) => {
    const { answer, token } = req.body as { answer: string; token?: string }
    // a failed check (the database away) goes to the error handler (503), never an unhandled rejection
    if (token === undefined) return session(req, res, () => void answerForSession(req, res, answer).catch(next))
    const now = deps.now()
    const secret = await peekSecret(deps.data, 'password-token', token, now)
    if (!secret || secret.punterId === null) return sendError(res, 400, 'TOKEN_NOT_FOUND')
    const checked = await checkAnswer(deps, secret.punterId, answer, now)
    log.info('credentials.secret-question.answered', { punterId: secret.punterId, outcome: checked.ok ? 'OK' : checked.code, by: 'recovery' })
    if (!checked.ok) return answerRefused(res, checked.code)
    await updateSecretDetail(deps.data, 'password-token', token, { ...secret.detail, secretQuestionPassed: true })
    sendOk(res, { status: 'OK' })
  })

  async function answerForSession(req: Request, res: Response, answer: string) {
    const punter = ctx.punterOf(req)
    const checked = await checkAnswer(deps, punter.id, answer, deps.now())
    log.info('credentials.secret-question.answered', { punterId: punter.id, outcome: checked.ok ? 'OK' : checked.code, by: 'session' })
    if (!checked.ok) return answerRefused(res, checked.code)
    sendOk(res, { status: 'OK' })
  }

  router.post('/account/check-password/for-personal-data/join', validateBody(CHECK_PASSWORD_SCHEMA), (req, res) => {
    const { password, ...person } = req.body as PersonalData & { password: string }
    const errors = newPasswordErrors(password, person)
    if (errors.length > 0) return failFields(res, errors)
    sendOk(res, { status: 'OK' })
  })

  /** Both e-mail calls: the new address gets a confirmation link; nothing changes until it is opened. */
  async function requestEmail(req: Request, res: Response, email: string, purpose: 'add' | 'update') {
    const punter = ctx.punterOf(req)
    const address = email.trim().toLowerCase()
    if (address === punter.email) return failFields(res, [{ field: 'email', code: 'SAME_EMAIL' }])
    if (await emailTakenByOther(address, punter.id)) return failFields(res, [{ field: 'email', code: 'DUPLICATE_EMAIL' }])
    const budget = await spend(deps.data, [{ key: `email-link:${punter.id}`, limit: ACCOUNT_BUDGET.emailLinksPerHour, windowMs: 3_600_000 }], deps.now())
    if (!budget.ok) return sendError(res, 429, 'TEMPORARY_BLOCKED', { nextAttemptAt: new Date(budget.retryAt).toISOString() })
    const token = newToken()
    await storeSecret(deps.data, { kind: 'email-change', punterId: punter.id, token, detail: { email: address, sessionId: req.punterSession!.sessionId }, ttlMs: SECRET_RULES.emailChangeMs, supersede: true }, deps.now())
    const link = ctx.link(req, `/account/confirm-email?token=${encodeURIComponent(token)}`)
    const mail = composeForPunter(deps, req, punter, 'emailChangeConfirm', { link })
    ctx.sendLater(
      {
        channel: 'email',
        to: address,
        subject: mail.subject,
        body: mail.body,
        jurisdiction: punter.jurisdiction,
      },
      { punterId: punter.id, purpose: `email-${purpose}` },
    )
    const notice = composeForPunter(deps, req, punter, 'emailChangeNotice')
    if (purpose === 'update' && punter.email)
      ctx.sendLater(
        {
          channel: 'email',
          to: punter.email,
          subject: notice.subject,
          body: notice.body,
          jurisdiction: punter.jurisdiction,
        },
        { punterId: punter.id, purpose: 'email-update-notice' },
      )
    log.info('credentials.email.requested', { punterId: punter.id, purpose })
    sendOk(res, { email: address, linkExpiredAfterMillis: SECRET_RULES.emailChangeMs })
  }

  router.post('/account/add-email', session, validateBody(ADD_EMAIL_SCHEMA), async (req, res) => {
    if (ctx.punterOf(req).email) return sendError(res, 400, 'EMAIL_ALREADY_SET')
    await requestEmail(req, res, (req.body as { email: string }).email, 'add')
  })

  router.post('/account/update-email', session, validateBody(UPDATE_EMAIL_SCHEMA), async (req, res) => {
    const { email, password } = req.body as { email: string; password: string }
    if (!(await currentPasswordOk(req, res, password, 'password'))) return
    await requestEmail(req, res, email, 'update')
  })

  /** The link from the new address: the e-mail changes, confirmed; the other sessions end (the one that asked stays). */
  router.post('/account/email/confirm', validateBody(PASSWORD_TOKEN_SCHEMA), async (req, res) => {
    const now = deps.now()
    const secret = await consumeSecret(deps.data, 'email-change', (req.body as { token: string }).token, now)
    const punter = secret?.punterId != null ? await findPunterById(deps.data, secret.punterId) : undefined
    if (!secret || !punter) return sendError(res, 400, 'TOKEN_NOT_FOUND')
    const email = String(secret.detail.email)
    if (await emailTakenByOther(email, punter.id)) return sendError(res, 400, 'DUPLICATE_EMAIL')
    try {
      await deps.data.db.updateTable('punters').set({ email, email_confirmed: 1, updated_at: now }).where('id', '=', punter.id).execute()
    } catch (error) {
      // another account took the address since the check (another instance at the same moment): the unique index decides
      if (isUniqueViolation(error)) return sendError(res, 400, 'DUPLICATE_EMAIL')
      throw error
    }
    const ended = await revokeOtherSessions(deps.data, punter.id, typeof secret.detail.sessionId === 'string' ? secret.detail.sessionId : undefined, 'email-changed', now)
    log.info('credentials.email.confirmed', { punterId: punter.id, sessions: ended })
    sendOk(res, { email })
  })
}

const ANSWER_STATUS: Record<string, number> = { SQ_NOT_FOUND: 404, SQ_ATTEMPTS_LIMIT_EXCEEDED: 429, SQ_VERIFICATION_BLOCKED: 429 }
const answerRefused = (res: Response, code: string) => sendError(res, ANSWER_STATUS[code] ?? 400, code)
