/** The definitions of the actions engine/actions/credentials.ts implements (data; the one source is ./index.ts). */
import { NO_PARAMS } from './fragments'
import type { ActionDefinitions } from './types'

export const definitions = {
  'account.confirmEmail': {
    description: 'Opens an e-mail confirmation link (add or change e-mail); the heartbeat is reloaded when logged in.',
    params: {
      type: 'object',
      required: ['token'],
      properties: { token: { type: 'string' } },
      additionalProperties: false,
    },
  },
  'auth.loginByToken': {
    description: 'Logs in with a one-time authentication token (auth/token/obtain elsewhere) and loads the user.',
    params: {
      type: 'object',
      required: ['token'],
      properties: { token: { type: 'string' } },
      additionalProperties: false,
    },
  },
  'auth.openProfile': {
    description: 'Reopens an account whose self-exclusion has ended (POST /punter/open-profile with the token the refused login passed through) and logs the punter in.',
    params: {
      type: 'object',
      required: ['openToken'],
      properties: { openToken: { type: 'string', minLength: 1 } },
      additionalProperties: false,
    },
  },
  'credentials.load': {
    description: 'Loads the punter\'s credentials into data.credentials: passwordMode (CREATING or CHANGING), secretQuestion, email.',
    params: NO_PARAMS,
  },
  'password.answerSecretQuestion': {
    description: 'Answers the secret question of the recovery in progress (SQ_* codes on failure).',
    params: {
      type: 'object',
      required: ['answer'],
      properties: { answer: { type: 'string' } },
      additionalProperties: false,
    },
  },
  'password.inspectLink': {
    description: 'The page behind a recovery link: keeps its token and sets data.recovery.linkValid and the secret question to answer.',
    params: {
      type: 'object',
      required: ['token'],
      properties: { token: { type: 'string' } },
      additionalProperties: false,
    },
  },
  'password.recover': {
    description:
      'Lost password, step one: an e-mail address gets a link, a phone number a code (by SMS, or by Telegram with channelType tg_gateway where the site allows it); data.recovery.channel says which (sms for a code by either).',
    params: {
      type: 'object',
      required: ['login'],
      properties: { login: { type: 'string' }, channelType: { enum: ['sms', 'tg_gateway'] } },
      additionalProperties: false,
    },
  },
  'password.reset': {
    description: 'Lost password, last step: sets the new password with the recovery in progress; every session of the punter ends.',
    params: {
      type: 'object',
      required: ['password'],
      properties: { password: { type: 'string' } },
      additionalProperties: false,
    },
  },
  'password.verifyCode': {
    description: 'Lost password by SMS: the code for a password token; data.recovery.secretQuestion names a question to answer first, if any.',
    params: {
      type: 'object',
      required: ['code'],
      properties: { code: { type: 'string' } },
      additionalProperties: false,
    },
  },
} as const satisfies ActionDefinitions
