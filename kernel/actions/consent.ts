/** The definitions of the actions engine/actions/consent.ts implements (data; the one source is ./index.ts). */
import { CONSENT_CHOICES } from '../core/action-choices'
import { NO_PARAMS } from './fragments'
import type { ActionDefinitions } from './types'

export const definitions = {
  'consent.choose': {
    description: 'Records the cookie-consent choice (all, or necessary only) in the consent cookie.',
    params: {
      type: 'object',
      required: ['choice'],
      properties: { choice: { enum: CONSENT_CHOICES } },
      additionalProperties: false,
    },
  },
  'consent.manage': {
    description: 'Opens the cookie-consent banner again so the punter can change the choice.',
    params: NO_PARAMS,
  },
} as const satisfies ActionDefinitions
