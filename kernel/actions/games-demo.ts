/** The definitions of the actions engine/actions/games-demo.ts implements (data; the one source is ./index.ts). */
import { GAME_PARAMS, NO_PARAMS } from './fragments'
import type { ActionDefinitions } from './types'

export const definitions = {
  'game.demoPlay': {
    description: "A guest's demo round of a lobby game with play money (POST /api/games/demo/…/play) where the site's jurisdiction allows demo play: the same game maths as a real round, never the ledger; the round goes into data.round and the play money left into data.playMoney. Refused: not enough play money (PLAY_MONEY_TOO_LOW), demo play not allowed here (DEMO_PLAY_NOT_ALLOWED).",
    params: {
      type: 'object',
      required: ['product', 'gameId', 'stake'],
      properties: {
        ...GAME_PARAMS,
        stake: { type: 'number', exclusiveMinimum: 0 },
        cashOutAt: { type: 'number', minimum: 1.01, description: 'Crash only: the multiplier to cash out at automatically.' },
      },
      additionalProperties: false,
    },
  },
  'game.demoReset': {
    description: "Gives the guest a fresh stack of play money (1,000) for demo play, into data.playMoney.",
    params: NO_PARAMS,
  },
} as const satisfies ActionDefinitions
