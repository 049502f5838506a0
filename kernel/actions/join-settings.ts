/** The definitions of the actions engine/actions/join-settings.ts implements (data; the one source is ./index.ts). */
import { NO_PARAMS } from './fragments'
import type { ActionDefinitions } from './types'

export const definitions = {
  'join.loadSettings': {
    description: 'Loads the site\'s sign-up settings (GET dictionary/settings: sign-up, nickname policy with skipCountryIds, country check) into the screen data as data.joinSettings, for the forms\' field conditions.',
    params: NO_PARAMS,
  },
} as const satisfies ActionDefinitions
