/**
 * A logged-in punter's credentials (spec §3 password flow modes CREATING and CHANGING, secret
 * question, e-mail; §7 add-email, update-email, secret-question/answer-validation,
 * check-password/for-personal-data/join). Every change that needs the current password spends
 * from a per-punter budget first, so a stolen session cannot guess it; every changed credential
 * ends the punter's other sessions (the current one stays).
 */
import type { Router } from 'express'
import { validateBody } from '../http/validate'
import { addEmail, confirmEmail, updateEmail } from './account-email'
import { changePassword, checkPasswordForJoin, createPassword, credentialsOverview } from './account-password'
import { setSecretQuestion, validateAnswer } from './account-secret-question'
import type { CredentialsContext } from './context'
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

export { ACCOUNT_BUDGET, failFields } from './account-checks'

/** The account's credential routes, each a named handler of the credentials context (issue 32: no function over 80 lines). */
export function mountAccount(router: Router, ctx: CredentialsContext): void {
  const session = ctx.requireSession
  router.get('/account/credentials', session, credentialsOverview(ctx))
  router.post('/account/password/change', session, validateBody(CHANGE_SCHEMA), changePassword(ctx))
  router.post('/account/password/create', session, validateBody(CREATE_SCHEMA), createPassword(ctx))
  router.post('/account/secret-question', session, validateBody(SECRET_QUESTION_SCHEMA), setSecretQuestion(ctx))
  // no session check here: a recovery answers with its password token (the handler asks for a session otherwise)
  router.post('/account/secret-question/answer-validation', validateBody(ANSWER_VALIDATION_SCHEMA), validateAnswer(ctx))
  router.post('/account/check-password/for-personal-data/join', validateBody(CHECK_PASSWORD_SCHEMA), checkPasswordForJoin)
  router.post('/account/add-email', session, validateBody(ADD_EMAIL_SCHEMA), addEmail(ctx))
  router.post('/account/update-email', session, validateBody(UPDATE_EMAIL_SCHEMA), updateEmail(ctx))
  router.post('/account/email/confirm', validateBody(PASSWORD_TOKEN_SCHEMA), confirmEmail(ctx))
}
