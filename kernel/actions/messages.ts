/** The definitions of the actions engine/actions/messages.ts implements (data; the one source is ./index.ts). */
import { MESSAGE_SOURCES } from '../core/action-choices'
import { NO_PARAMS } from './fragments'
import type { ActionDefinitions } from './types'

export const definitions = {
  'messages.loadPage': {
    description: 'Loads one page of the punter\'s inbox (20 messages, newest first; pages count from 0) into data.inbox.',
    params: {
      type: 'object',
      required: ['page'],
      properties: { page: { type: 'integer', minimum: 0 } },
      additionalProperties: false,
    },
  },
  'messages.markRead': {
    description: 'Marks messages of one source (web, global, club) read on the server; the inbox page and the unread count follow.',
    params: {
      type: 'object',
      required: ['source', 'ids'],
      properties: { source: { enum: MESSAGE_SOURCES }, ids: { type: 'array', items: { type: 'integer' } } },
      additionalProperties: false,
    },
  },
  'messages.showActive': {
    description: 'Shows the unread EXTERNAL messages (web and club as notifications, global as a popup) and marks them read.',
    params: NO_PARAMS,
  },
} as const satisfies ActionDefinitions
