/** The definitions of the actions engine/actions/settings.ts implements (data; the one source is ./index.ts). */
import { NO_PARAMS } from './fragments'
import type { ActionDefinitions } from './types'

export const definitions = {
  'settings.detect': {
    description: 'Detects the device\'s time zone (Intl) and the visitor\'s currency; with time-zone auto-detection on, saves the zone as the punter\'s timeZoneId.',
    params: NO_PARAMS,
  },
} as const satisfies ActionDefinitions
