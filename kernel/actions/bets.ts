/** The definitions of the actions engine/actions/bets.ts implements (data; the one source is ./index.ts). */
import { GAME_PARAMS, NO_PARAMS } from './fragments'
import type { ActionDefinitions } from './types'

export const definitions = {
  'bets.cashOut': {
    description: 'Cashes a bet out at the offer shown. With the punter\'s isCashOutConfirmationActive on it first opens the cash-out-confirm popup with the amount, whose confirm runs this again with confirmed: true. A changed offer is taken per the punter\'s cashOutAutoConfirmationType (INCREASE, ALWAYS, NEVER); one not taken is asked about again with the new amount. With isCashOutDelayActive the server decides after its delay. Reloads data.openBets.',
    params: {
      type: 'object',
      required: ['betId', 'amount'],
      properties: {
        betId: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,40}$' },
        amount: { type: 'number' },
        currency: { type: 'string', pattern: '^([A-Z]{3})?$', description: 'The bet\'s currency, to show the amount in.' },
        confirmed: { type: 'boolean', description: 'The punter confirmed this amount (the confirmation popup).' },
      },
      additionalProperties: false,
    },
  },
  'betslip.check': {
    description: 'Asks the feed about every pick of the bet slip now: its match, its price and whether it is open. The slip runs it for picks restored from storage (a reload, another tab) and on a return to the tab; nothing is placed on a pick the feed has not confirmed.',
    params: NO_PARAMS,
  },
  'betslip.place': {
    description: 'Places the bet slip: a single (one selection) or an accumulator (several) at the slip\'s stake. Picks not yet checked against the feed are checked first; a pick whose price moved against the punter\'s betPlacingMode, a suspended pick or two picks of one match stop it before the server is asked (the slip shows why); the server checks the prices again.',
    params: NO_PARAMS,
  },
  'betslip.toggle': {
    description: 'Adds a selection ({id, label, price}) to the bet slip, or removes it when already there; an added pick is looked up (its match and the price now). With quick bet on (isQuickBetEnable, quickBetAmount > 0) a single is placed at once.',
    params: {
      type: 'object',
      required: ['selection'],
      properties: {
        selection: { type: 'object' },
        event: { type: 'string', description: 'The event the selection belongs to, shown in the slip.' },
      },
      additionalProperties: false,
    },
  },
  'game.favorite': {
    description: 'Adds the game to the product\'s favourites (favorite: true) or removes it; kept on the server, so every device of the punter sees it.',
    params: {
      type: 'object',
      required: ['product', 'gameId', 'favorite'],
      properties: {
        ...GAME_PARAMS,
        favorite: { type: 'boolean' },
      },
      additionalProperties: false,
    },
  },
  'game.launch': {
    description: 'Launches a lobby game into the screen\'s data.game (its engine, stakes, the balance); a restricted punter gets the reason.',
    params: {
      type: 'object',
      required: ['product', 'gameId'],
      properties: {
        ...GAME_PARAMS,
      },
      additionalProperties: false,
    },
  },
  'game.play': {
    description: 'Plays one round (slot spin or crash with an auto cash-out) into the screen\'s data.round; the stake and the win go through the balance.',
    params: {
      type: 'object',
      required: ['product', 'gameId', 'stake'],
      properties: {
        ...GAME_PARAMS,
        stake: { type: 'number' },
        cashOutAt: { type: 'number' },
      },
      additionalProperties: false,
    },
  },
} as const satisfies ActionDefinitions
