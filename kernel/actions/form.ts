/** The definitions of the actions engine/renderers/form/actions.ts implements (data; the one source is ./index.ts). */
import type { ActionDefinitions } from './types'

export const definitions = {
  'form.post': {
    description: 'Posts JSON to a same-origin API path; without body, the values of the form being submitted.',
    params: {
      type: 'object',
      required: ['url'],
      properties: {
        url: { type: 'string', description: 'A same-origin API path, e.g. /api/demo/contact.' },
        body: { type: 'object', description: 'The JSON body; default: the form values.' },
      },
      additionalProperties: false,
    },
  },
} as const satisfies ActionDefinitions
