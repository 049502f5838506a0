/** The definitions of the actions engine/actions/locale.ts implements (data; the one source is ./index.ts). */
import type { ActionDefinitions } from './types'

export const definitions = {
  'locale.set': {
    description: 'Switches the site\'s language: reloads the page with the locale code in the path.',
    params: {
      type: 'object',
      required: ['locale'],
      properties: {
        locale: { type: 'string', pattern: '^[a-z]{2,3}$', description: 'One of the locales the site offers.' },
      },
      additionalProperties: false,
    },
  },
} as const satisfies ActionDefinitions
