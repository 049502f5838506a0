/** The definitions of the actions engine/actions/money.ts implements (data; the one source is ./index.ts). */
import type { ActionDefinitions } from './types'

export const definitions = {
  'account.load': {
    description: 'Loads a punter-only gateway answer (e.g. the heartbeat, the deposit limits) into the screen\'s data.<name>.',
    params: {
      type: 'object',
      required: ['name', 'path'],
      properties: {
        name: { type: 'string', pattern: '^[a-zA-Z][a-zA-Z0-9]{0,40}$' },
        path: { type: 'string', description: 'A path under /mobile-gate/api/v1/.' },
      },
      additionalProperties: false,
    },
  },
  'deposit.confirm': {
    description: 'Back from the provider: asks the server for the payment\'s outcome (credited once), reloads the balance, shows the outcome.',
    params: {
      type: 'object',
      required: ['paymentId'],
      properties: {
        paymentId: { type: 'string' },
        notice: { type: 'boolean', description: 'Show the failure notice (default true).' },
      },
      additionalProperties: false,
    },
  },
  'deposit.start': {
    description: 'Starts a deposit with a payment source and an amount, then opens the provider\'s page (3-D Secure returns through /threedsconfirm).',
    params: {
      type: 'object',
      required: ['method', 'amount'],
      properties: {
        method: { type: 'string' },
        amount: { type: 'number' },
        notice: { type: 'boolean', description: 'Show the failure notice (default true).' },
      },
      additionalProperties: false,
    },
  },
  'limits.save': {
    description: 'Saves the deposit or loss limits filled in a form (daily, weekly, monthly; an empty field keeps its limit), or removes one period\'s limit: a lower one applies at once, a higher one or a removal after the cooling-off time.',
    params: {
      type: 'object',
      properties: {
        values: { type: 'object' },
        kind: { enum: ['deposit', 'loss'], description: 'Which limits (default deposit); the answer goes to data.limits or data.lossLimits.' },
        remove: { enum: ['daily', 'weekly', 'monthly'], description: 'Removes this period\'s limit (a removal waits the cooling-off time).' },
        notice: { type: 'boolean', description: 'Show the failure notice (default true).' },
      },
      additionalProperties: false,
    },
  },
  'promo.redeem': {
    description: 'Redeems a promo code (POST /bonus/punter/promo-code/input); the bonus shows in the punter\'s bonus info.',
    params: {
      type: 'object',
      required: ['promoCode'],
      properties: {
        promoCode: { type: 'string' },
        notice: { type: 'boolean', description: 'Show the failure notice (default true).' },
      },
      additionalProperties: false,
    },
  },
  'withdrawal.cancel': {
    description: 'Cancels a pending withdrawal (POST payments/withdrawal/cancel): its amount comes back to the balance; reloads the balance and shows the notice.',
    params: {
      type: 'object',
      required: ['withdrawalId'],
      properties: {
        withdrawalId: { type: 'string' },
        notice: { type: 'boolean', description: 'Show the notices (default true).' },
      },
      additionalProperties: false,
    },
  },
  'withdrawal.start': {
    description: "Withdraws an amount to a payout source (POST payments/withdrawal): only withdrawable money, within the source's limits, identity verified first where the jurisdiction says; the withdrawal waits pending and can be cancelled.",
    params: {
      type: 'object',
      required: ['method', 'amount'],
      properties: {
        method: { type: 'string' },
        amount: { type: 'number' },
        notice: { type: 'boolean', description: 'Show the notices (default true).' },
      },
      additionalProperties: false,
    },
  },
} as const satisfies ActionDefinitions
