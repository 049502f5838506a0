/**
 * The account's secret question calls (routes in ./account.ts; spec §7 secret-question and
 * secret-question/answer-validation): setting it behind the current password, and checking an
 * answer for a recovery (its password token) or for the session's punter.
 */
import type { Request, RequestHandler, Response } from 'express'
import { sendError, sendOk } from '../http/envelope'
import { currentPasswordOk, endOtherSessions, failFields } from './account-checks'
import type { CredentialsContext } from './context'
import { answerErrors, checkAnswer, saveSecretQuestion, type SecretQuestionType } from './secret-question'
import { peekSecret, updateSecretDetail } from './store'

const ANSWER_STATUS: Record<string, number> = { SQ_NOT_FOUND: 404, SQ_ATTEMPTS_LIMIT_EXCEEDED: 429, SQ_VERIFICATION_BLOCKED: 429 }

/** The HTTP status of a refused answer: no question 404, too many tries or blocked 429, a wrong answer 400. */
export const answerRefusalStatus = (code: string) => ANSWER_STATUS[code] ?? 400

const answerRefused = (res: Response, code: string) => sendError(res, answerRefusalStatus(code), code)

/** POST /account/secret-question: the answer's own rules first, then the current password. */
export function setSecretQuestion(ctx: CredentialsContext): RequestHandler {
  const { deps } = ctx
  return async (req, res) => {
    const { questionType, answer, password } = req.body as { questionType: SecretQuestionType; answer: string; password: string }
    const punter = ctx.punterOf(req)
    const problems = answerErrors(answer, punter)
    if (problems.length > 0) return failFields(res, problems)
    if (!(await currentPasswordOk(ctx, req, res, password, 'password'))) return
    await saveSecretQuestion(deps.data, punter.id, questionType, answer, deps.now())
    const ended = await endOtherSessions(ctx, req, 'secret-question-changed')
    deps.log.info('credentials.secret-question.set', { punterId: punter.id, questionType, sessions: ended })
    sendOk(res, { questionType, endedSessions: ended })
  }
}

/** POST /account/secret-question/answer-validation: for a recovery (its password token), else for the session's punter. */
export function validateAnswer(ctx: CredentialsContext): RequestHandler {
  const { deps } = ctx
  return async (req, res, next) => {
    const { answer, token } = req.body as { answer: string; token?: string }
    // a failed check (the database away) goes to the error handler (503), never an unhandled rejection
    if (token === undefined) return ctx.requireSession(req, res, () => void answerForSession(ctx, req, res, answer).catch(next))
    const now = deps.now()
    const secret = await peekSecret(deps.data, 'password-token', token, now)
    if (!secret || secret.punterId === null) return sendError(res, 400, 'TOKEN_NOT_FOUND')
    const checked = await checkAnswer(deps, secret.punterId, answer, now)
    deps.log.info('credentials.secret-question.answered', { punterId: secret.punterId, outcome: checked.ok ? 'OK' : checked.code, by: 'recovery' })
    if (!checked.ok) return answerRefused(res, checked.code)
    await updateSecretDetail(deps.data, 'password-token', token, { ...secret.detail, secretQuestionPassed: true })
    sendOk(res, { status: 'OK' })
  }
}

async function answerForSession(ctx: CredentialsContext, req: Request, res: Response, answer: string) {
  const { deps } = ctx
  const punter = ctx.punterOf(req)
  const checked = await checkAnswer(deps, punter.id, answer, deps.now())
  deps.log.info('credentials.secret-question.answered', { punterId: punter.id, outcome: checked.ok ? 'OK' : checked.code, by: 'session' })
  if (!checked.ok) return answerRefused(res, checked.code)
  sendOk(res, { status: 'OK' })
}
