/** The definitions of the actions engine/actions/notify.ts implements (data; the one source is ./index.ts). */
import { NOTIFICATION_STATUSES } from '../core/action-choices'
import type { ActionDefinitions } from './types'

export const definitions = {
  'notify': {
    description: 'Shows a notification with an i18n message for a while (8 s by default).',
    params: {
      type: 'object',
      required: ['message', 'status'],
      properties: {
        message: { type: 'string', description: 'The i18n key of the message.' },
        status: { enum: NOTIFICATION_STATUSES },
        duration: {
          type: 'integer',
          minimum: 0,
          description: 'Milliseconds; 0 keeps it until dismissed. Default 8000.',
        },
        values: { type: 'object', description: 'Interpolation values for the message.' },
      },
      additionalProperties: false,
    },
  },
} as const satisfies ActionDefinitions
