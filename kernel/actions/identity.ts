/** The definitions of the actions engine/actions/identity.ts implements (data; the one source is ./index.ts). */
import { NO_PARAMS } from './fragments'
import type { ActionDefinitions } from './types'

export const definitions = {
  'identity.autoVerify': {
    description: 'Starts the online auto-verification: goes to its link; CONFIRMED when the punter is already verified (no link).',
    params: NO_PARAMS,
  },
  'identity.esia': {
    description: 'Russia: starts the full identification on the state services portal (ESIA) and goes there.',
    params: NO_PARAMS,
  },
  'identity.identify': {
    description: 'Russia: identifies the punter with passport data by the simplified method (withVerification: simplified with verification, then continues it). Fails with IDENTIFICATION_FAILED and the display text of the error and lock reason.',
    params: {
      type: 'object',
      required: ['data'],
      properties: { data: { type: 'object' }, withVerification: { type: 'boolean' } },
      additionalProperties: false,
    },
  },
  'identity.loadAgreement': {
    description: 'Russia: loads what the punter agrees to before identifying (GET punter/cps/agreement-data) into the screen data as data.agreement.',
    params: NO_PARAMS,
  },
  'nickname.check': {
    description: 'Asks the server whether the nickname applies to this punter (GET nickname/enabled) and puts the answer in the screen data as data.nicknameEnabled.',
    params: NO_PARAMS,
  },
  'nickname.set': {
    description: 'Sets the punter nickname (3–33 characters starting with a letter) and reloads the user data; NICKNAME_ALREADY_EXIST comes back on the field.',
    params: {
      type: 'object',
      required: ['nickname'],
      properties: { nickname: { type: 'string' } },
      additionalProperties: false,
    },
  },
} as const satisfies ActionDefinitions
