/** The definitions of the actions engine/actions/join-identity.ts implements (data; the one source is ./index.ts). */
import { NO_PARAMS } from './fragments'
import type { ActionDefinitions } from './types'

export const definitions = {
  'identity.check': {
    description: 'Russia: asks the identification service; fails with NOT_IDENTIFIED unless the level is limited or full.',
    params: NO_PARAMS,
  },
  'identity.mitIdLogin': {
    description: 'Denmark: finishes a MitID login with the broker answer; NEED_CPR_REQUEST starts again asking for the CPR.',
    params: {
      type: 'object',
      required: ['authorizationCode', 'state'],
      properties: { authorizationCode: { type: 'string' }, state: { type: 'string' } },
      additionalProperties: false,
    },
  },
  'identity.mitIdStart': {
    description: 'Denmark: starts a MitID login (askCpr re-asks the personal number) by going to the broker.',
    params: { type: 'object', properties: { askCpr: { type: 'boolean' } }, additionalProperties: false },
  },
  'identity.simplified': {
    description: 'Russia: simplified identification (optionally with verification) with the form data.',
    params: {
      type: 'object',
      required: ['data'],
      properties: { data: { type: 'object' }, withVerification: { type: 'boolean' } },
      additionalProperties: false,
    },
  },
  'identity.waitIdentified': {
    description: 'Russia: re-checks identification every intervalMs (spec: 1500 ms) until identified; gives up after maxMs.',
    params: {
      type: 'object',
      properties: { intervalMs: { type: 'integer', minimum: 500 }, maxMs: { type: 'integer', minimum: 1000 } },
      additionalProperties: false,
    },
  },
} as const satisfies ActionDefinitions
