/** The definitions of the actions engine/actions/join.ts implements (data; the one source is ./index.ts). */
import { SIGNUP_VARIANT_NAMES } from '../documents/signup-variants'
import { NOTIFICATION_STATUSES } from '../core/action-choices'
import { NO_PARAMS } from './fragments'
import type { ActionDefinitions } from './types'

export const definitions = {
  'deposit.redirect': {
    description: 'Goes to the deposit page (after sign-up with isAfterSignUp=true).',
    params: { type: 'object', properties: { afterSignUp: { type: 'boolean' } }, additionalProperties: false },
  },
  'join.afterSignUp': {
    description: 'Runs the jurisdiction document\'s afterSignUp chain (Curacao: deposit; Russia: identity check; Belarus: upload).',
    params: NO_PARAMS,
  },
  'join.loginByRegistrationToken': {
    description: 'Spec §4: logs in with the registration token of a confirmation link; OK goes to the root and runs the jurisdiction document\'s afterRegistrationTokenLogin chain, otherwise the confirmation-failure popup.',
    params: {
      type: 'object',
      required: ['token'],
      properties: { token: { type: 'string' } },
      additionalProperties: false,
    },
  },
  'join.notice': {
    description: 'Shows a notice (i18n key) for 8 s, as the `notify` action does (whose name documents cannot call).',
    params: {
      type: 'object',
      required: ['message'],
      properties: { message: { type: 'string' }, status: { enum: NOTIFICATION_STATUSES } },
      additionalProperties: false,
    },
  },
  'join.resendCode': {
    description: 'Sends a new code for the join session; refused inside the resend window (TEMPORARY_BLOCKED).',
    params: NO_PARAMS,
  },
  'join.resendEmail': {
    description: 'Sends the confirmation e-mail of the join session again.',
    params: NO_PARAMS,
  },
  'join.reset': {
    description: 'Forgets the join session (start again).',
    params: NO_PARAMS,
  },
  'join.checkStep': {
    description: 'Checks the step the punter is leaving as the final submit would (the step\'s schema, minimum age, the jurisdiction\'s document checks, phone, promo code): its field errors show on that step. Put it in the submit of every sign-up step but the last.',
    params: {
      type: 'object',
      required: ['variant', 'step', 'data'],
      properties: {
        variant: { enum: SIGNUP_VARIANT_NAMES },
        step: { type: 'string', description: 'The id of this step.' },
        data: { type: 'object', description: 'The form values (bind {"$": "form"}).' },
      },
      additionalProperties: false,
    },
  },
  'join.start': {
    description: 'Sends the sign-up of a variant (kernel/documents/signup-variants.json) with the form data; phone variants keep the join session for the code popup.',
    params: {
      type: 'object',
      required: ['variant', 'data'],
      properties: {
        variant: { enum: SIGNUP_VARIANT_NAMES },
        data: { type: 'object', description: 'The form values (bind {"$": "form"}).' },
      },
      additionalProperties: false,
    },
  },
  'join.switchMethod': {
    description: 'Continues the sign-up with another method (e-mail instead of phone).',
    params: {
      type: 'object',
      required: ['method'],
      properties: { method: { enum: ['phone', 'email'] } },
      additionalProperties: false,
    },
  },
  'join.verifyCode': {
    description: 'Checks the sign-up code of the join session and, when right, logs the new punter in. CODE_* errors come back as a field error of verificationCode.',
    params: {
      type: 'object',
      required: ['code'],
      properties: { code: { type: 'string' } },
      additionalProperties: false,
    },
  },
  'promo.check': {
    description: 'Checks a promo code together with the country (spec §5).',
    params: {
      type: 'object',
      required: ['promoCode'],
      properties: { promoCode: { type: 'string' }, countryId: { type: 'number' } },
      additionalProperties: false,
    },
  },
} as const satisfies ActionDefinitions
