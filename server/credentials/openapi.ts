/** Notes for the credential calls in the OpenAPI document: summaries and error codes; paths, schemas and security come from the router. */
import { GATEWAY } from '../deps'
import { openapi, type Operation, type PathItem } from '../http/openapi-registry'

const m = (path: string) => `${GATEWAY.mobile}/${path}`
const BAD_INPUT = ['ValidationError', 'MALFORMED_JSON', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE']
const say = (summary: string, errors: Record<number, [string, string[]]> = {}, description?: string): Operation => ({
  summary,
  ...(description ? { description } : {}),
  responses: Object.fromEntries(Object.entries(errors).map(([status, [why, codes]]) => [status, openapi.error(why, codes)])),
})
const throttled: Record<number, [string, string[]]> = { 429: ['Budget used up (payload nextAttemptAt)', ['TEMPORARY_BLOCKED']] }

export const credentialsOpenApi: Record<string, PathItem> = {
  [m('account/password/recover')]: {
    post: say(
      'Lost password (RECOVERING), step one: an e-mail address gets a link, a phone number an SMS code',
      { 400: ['Not an e-mail address or phone number', BAD_INPUT], ...throttled },
      'The same answer whether or not an account has the address: the SMS answer always carries a recoveryToken, which accepts no code when nobody was sent one.',
    ),
  },
  [m('account/password/recover/code')]: {
    post: say('Lost password by SMS: the code (5 tries, 10 minutes, single use) for a password token and the secret question to answer', {
      400: ['Wrong, expired or used-up code', ['CODE_NO_MATCH_OR_EXPIRED', 'EXCEEDED_LIMIT', ...BAD_INPUT]],
    }),
  },
  [m('account/password/recover/token')]: {
    post: say('Is a recovery link (password token) still good, and which secret question must be answered first', { 400: ['Unknown, used or expired', ['TOKEN_NOT_FOUND', ...BAD_INPUT]] }),
  },
  [m('account/password/reset')]: {
    post: say('Lost password, last step: the new password; every session of the punter ends', {
      400: ['Refused', ['TOKEN_NOT_FOUND', 'SECRET_QUESTION_CHECK_NOT_PASSED', 'PASSWORD_USED_BEFORE', 'PASSWORD_CONTAINS_PERSONAL_DATA', ...BAD_INPUT]],
    }),
  },
  [m('account/password/change')]: {
    post: say('Change the password (CHANGING): the current one, then a new one outside the password history; the other sessions end', {
      400: ['Refused', ['INCORRECT_PASSWORD', 'PASSWORD_USED_BEFORE', 'PASSWORD_CONTAINS_PERSONAL_DATA', 'PASSWORD_NOT_SET', ...BAD_INPUT]],
      ...throttled,
    }),
  },
  [m('account/password/create')]: {
    post: say('Create a password (CREATING) for an account opened without one; the other sessions end', { 400: ['Refused', ['PASSWORD_ALREADY_SET', 'PASSWORD_CONTAINS_PERSONAL_DATA', ...BAD_INPUT]] }),
  },
  [m('account/credentials')]: { get: say("The punter's password flow mode (CREATING or CHANGING), secret question type, e-mail and the password-history depth") },
  [m('account/secret-question')]: {
    post: say('Set the secret question (one of the 14 types) with the current password; the answer must not contain the birthday; the other sessions end', {
      400: ['Refused', ['SECRET_QUESTION_ANSWER_CONTAINS_BIRTHDAY', 'INCORRECT_PASSWORD', ...BAD_INPUT]],
      ...throttled,
    }),
  },
  [m('account/secret-question/answer-validation')]: {
    post: say('Check a secret-question answer: for a recovery (token) or, without one, for the session punter (5 wrong answers block answering for an hour)', {
      400: ['Refused', ['SQ_ANSWER_NOT_MATCH', 'TOKEN_NOT_FOUND', ...BAD_INPUT]],
      404: ['No secret question set', ['SQ_NOT_FOUND']],
      429: ['Too many wrong answers', ['SQ_ATTEMPTS_LIMIT_EXCEEDED', 'SQ_VERIFICATION_BLOCKED']],
    }),
  },
  [m('account/check-password/for-personal-data/join')]: {
    post: say('Sign-up: does a password meet the rules and leave out the personal data typed so far (names, nickname, e-mail, phone, birthday)', {
      400: ['Refused', ['PASSWORD_CONTAINS_PERSONAL_DATA', ...BAD_INPUT]],
    }),
  },
  [m('account/add-email')]: {
    post: say('Add an e-mail to an account without one: a confirmation link goes to it', { 400: ['Refused', ['EMAIL_ALREADY_SET', 'DUPLICATE_EMAIL', ...BAD_INPUT]], ...throttled }),
  },
  [m('account/update-email')]: {
    post: say('Change the e-mail (current password): a confirmation link goes to the new address, a notice to the old one', {
      400: ['Refused', ['INCORRECT_PASSWORD', 'DUPLICATE_EMAIL', 'SAME_EMAIL', ...BAD_INPUT]],
      ...throttled,
    }),
  },
  [m('account/email/confirm')]: {
    post: say('Open the confirmation link: the e-mail changes; the other sessions end (the one that asked stays)', { 400: ['Refused', ['TOKEN_NOT_FOUND', 'DUPLICATE_EMAIL', ...BAD_INPUT]] }),
  },
  [m('auth/token/obtain')]: { get: say('A one-time authentication token (2 minutes) for login-by-authentication-token') },
  [m('auth/v2/login-by-authentication-token')]: {
    post: say('Log in with a one-time authentication token: a new session (isLoginByAuthToken)', {
      400: ['Unknown, used or expired token', ['TOKEN_NOT_FOUND', ...BAD_INPUT]],
      403: ['Login denied', ['LOGIN_DENIED_BY_PERMISSION']],
    }),
  },
  [m('punter/open-profile')]: {
    post: say('Open a profile again with an open token: payload.loginResult, or the self-exclusion still running (server date in the Date header)', {
      400: ['Unknown, used or expired token', ['GENERAL_ERROR', ...BAD_INPUT]],
      403: ['Still self-excluded (payload selfExcludeSettings)', ['CUSTOMER_SELFEXCLUDED']],
    }),
  },
  [m('account/v2/joinform/save')]: { post: say('Save a sign-up form in progress for 7 days (passwords, answers, codes and personal numbers dropped); answers its key') },
  [m('account/v2/joinform/load')]: { post: say('Load a saved sign-up form by its key', { 404: ['Unknown or expired key', ['TOKEN_NOT_FOUND']] }) },
}
