/** The definitions of the actions engine/actions/nav.ts implements (data; the one source is ./index.ts). */
import type { ActionDefinitions } from './types'

export const definitions = {
  'nav.back': {
    description: 'Goes back one history step if one exists, otherwise to the given path or the root.',
    params: {
      type: 'object',
      properties: { to: { type: 'string', description: 'Fallback path when there is no history step (default /).' } },
      additionalProperties: false,
    },
  },
  'nav.forward': {
    description: 'Goes forward one history step if one exists, otherwise to the given path or the root (spec §2).',
    params: {
      type: 'object',
      properties: { to: { type: 'string', description: 'Fallback path when there is no step forward (default /).' } },
      additionalProperties: false,
    },
  },
  'nav.rememberLoginRedirect': {
    description: "Keeps the page's `redirect` query parameter (a path of this site, with its query) for the login to come: once logged in the punter goes there; a refused target (another site, //host, javascript:) goes home (spec §9 stored key).",
    params: { type: 'object', properties: {}, additionalProperties: false },
  },
  'nav.go': {
    description: 'Goes to a path of the site (the locale prefix is added); an https URL is opened as a full page load.',
    params: {
      type: 'object',
      required: ['to'],
      properties: {
        to: { type: 'string', description: 'A path without locale prefix (/casino/lobby) or an https URL.' },
        replace: { type: 'boolean', description: 'Replace the current history entry instead of pushing.' },
        query: {
          type: 'object',
          additionalProperties: { type: ['string', 'number', 'boolean'] },
          description: 'Query parameters.',
        },
      },
      additionalProperties: false,
    },
  },
} as const satisfies ActionDefinitions
