/** The definitions of the actions engine/actions/regulation.ts implements (data; the one source is ./index.ts). */
import { SELF_EXCLUSION_KINDS } from '../core/action-choices'
import { NO_PARAMS } from './fragments'
import type { ActionDefinitions } from './types'

export const definitions = {
  'realityCheck.continue': {
    description: 'The punter read the reality check and goes on playing: the next reminder is one interval away.',
    params: NO_PARAMS,
  },
  'realityCheck.saveSettings': {
    description: 'Chooses the reality-check reminder interval (minutes, one the jurisdiction offers); choosing is the agreement.',
    params: {
      type: 'object',
      required: ['timeout'],
      properties: { timeout: { type: 'number' } },
      additionalProperties: false,
    },
  },
  'realityCheck.stop': {
    description: 'The punter stops playing after the reality check: logged out.',
    params: NO_PARAMS,
  },
  'regulation.confirmAlert': {
    description: 'Confirms the regulation alert (time played, bet and lost); the popup closes.',
    params: NO_PARAMS,
  },
  'regulation.confirmSession': {
    description: 'Confirms Spain\'s running session (offered only in NEED_TO_CONFIRM_SESSION); the popup closes.',
    params: NO_PARAMS,
  },
  'regulation.selfExclude': {
    description: 'Self-excludes the punter (temporary: period; timeout: daysCount; permanent). Takes effect at once: the punter is logged out everywhere and shown the self-exclude popup.',
    params: {
      type: 'object',
      required: ['kind'],
      properties: {
        kind: { enum: SELF_EXCLUSION_KINDS },
        period: { type: 'string' },
        daysCount: { type: 'number' },
      },
      additionalProperties: false,
    },
  },
} as const satisfies ActionDefinitions
