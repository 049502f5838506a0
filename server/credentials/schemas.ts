/** Request bodies of the credential calls: strict (unknown fields refused), bounded. */
import { SECRET_QUESTION_TYPES } from './secret-question'

const token = { type: 'string', minLength: 1, maxLength: 200 } as const
const password = { type: 'string', minLength: 1, maxLength: 256 } as const
const email = { type: 'string', minLength: 3, maxLength: 254, format: 'email' } as const
const object = <P extends Record<string, object>, R extends readonly (keyof P & string)[]>(properties: P, required: R) =>
  ({ type: 'object', required, additionalProperties: false, properties }) as const

export const RECOVER_SCHEMA = object(
  { login: { type: 'string', minLength: 1, maxLength: 254 }, channelType: { enum: ['sms', 'tg_gateway', 'SMS', 'TG_GATEWAY'], description: 'A phone code by SMS (default) or Telegram, where the site allows it' } },
  ['login'],
)
export const RECOVER_CODE_SCHEMA = object({ recoveryToken: token, code: { type: 'string', pattern: '^[0-9]{6}$' } }, ['recoveryToken', 'code'])
export const PASSWORD_TOKEN_SCHEMA = object({ token }, ['token'])
export const RESET_SCHEMA = object({ token, password }, ['token', 'password'])
export const CHANGE_SCHEMA = object({ currentPassword: password, password }, ['currentPassword', 'password'])
export const CREATE_SCHEMA = object({ password }, ['password'])
export const SECRET_QUESTION_SCHEMA = object(
  { questionType: { enum: SECRET_QUESTION_TYPES }, answer: { type: 'string', minLength: 1, maxLength: 200 }, password },
  ['questionType', 'answer', 'password'],
)
export const ANSWER_VALIDATION_SCHEMA = object({ answer: { type: 'string', minLength: 1, maxLength: 200 }, token }, ['answer'])
export const ADD_EMAIL_SCHEMA = object({ email }, ['email'])
export const UPDATE_EMAIL_SCHEMA = object({ email, password }, ['email', 'password'])
export const CHECK_PASSWORD_SCHEMA = object(
  {
    password,
    firstName: { type: 'string', maxLength: 100 },
    lastName: { type: 'string', maxLength: 100 },
    email: { type: 'string', maxLength: 254 },
    nickname: { type: 'string', maxLength: 33 },
    phoneNumber: { type: 'string', maxLength: 40 },
    birthDay: { type: 'string', maxLength: 10 },
  },
  ['password'],
)
export const LOGIN_BY_TOKEN_SCHEMA = object({ token }, ['token'])
export const OPEN_PROFILE_SCHEMA = object({ openToken: token }, ['openToken'])

/** A sign-up form in progress: flat values only, never the password or a code (the server drops them). */
export const JOIN_FORM_SAVE_SCHEMA = object(
  {
    key: token,
    form: {
      type: 'object',
      maxProperties: 40,
      propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9_]{0,39}$' },
      additionalProperties: { type: ['string', 'number', 'boolean', 'null'], maxLength: 300 },
    },
  },
  ['form'],
)
export const JOIN_FORM_LOAD_SCHEMA = object({ key: token }, ['key'])
