/** The definitions of the actions engine/actions/popup.ts implements (data; the one source is ./index.ts). */
import { POPUP_ANIMATION_NAMES } from '../core/action-choices'
import type { ActionDefinitions } from './types'

export const definitions = {
  'popup.close': {
    description: 'Closes the top popup, the popup with the given id, or all popups.',
    params: {
      type: 'object',
      properties: {
        id: { type: 'string', description: 'Close this popup (default: the top one).' },
        all: { type: 'boolean', description: 'Close every open popup.' },
      },
      additionalProperties: false,
    },
  },
  'popup.open': {
    description: 'Opens a popup document by id on top of the popup stack.',
    params: {
      type: 'object',
      required: ['id'],
      properties: {
        id: { type: 'string', description: 'The popup document id.' },
        params: { type: 'object', description: 'Values the popup reads as data.params.' },
        animation: { enum: POPUP_ANIMATION_NAMES, description: 'Overrides the document\'s animation.' },
        stack: { type: 'boolean', description: 'false closes the open popups first (default true).' },
      },
      additionalProperties: false,
    },
  },
} as const satisfies ActionDefinitions
