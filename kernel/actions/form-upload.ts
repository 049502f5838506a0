/** The definitions of the actions engine/renderers/form/upload-action.ts implements (data; the one source is ./index.ts). */
import type { ActionDefinitions } from './types'

export const definitions = {
  'documents.upload': {
    description: 'Uploads the file picked in a form file field with its document type (JPEG, PNG or PDF, at most 5 MB), then reloads the user data.',
    params: {
      type: 'object',
      required: ['documentType'],
      properties: {
        documentType: { type: 'string', description: 'One of the spec §3 identity document types.' },
        field: { type: 'string', description: 'The file field of the form; default: document.' },
      },
      additionalProperties: false,
    },
  },
} as const satisfies ActionDefinitions
