/** The definitions of the actions engine/actions/auth.ts implements (data; the one source is ./index.ts). */
import { LOGOUT_REASONS } from '../core/action-choices'
import { NO_PARAMS } from './fragments'
import type { ActionDefinitions } from './types'

export const definitions = {
  'account.acceptLegalAgreement': {
    description: 'Accepts or declines the legal agreement; a decline is remembered so the popup does not come back.',
    params: {
      type: 'object',
      required: ['accepted'],
      properties: {
        accepted: { type: 'boolean' },
        notice: {
          type: 'boolean',
          description: 'Show the failure notice (default true); false when the document handles every code.',
        },
      },
      additionalProperties: false,
    },
  },
  'account.saveSettings': {
    description: 'Saves settings: server-side keys with PUT /punter/settings, local-only keys in the browser.',
    params: {
      type: 'object',
      required: ['settings'],
      properties: {
        settings: { type: 'object' },
        notice: {
          type: 'boolean',
          description: 'Show the failure notice (default true); false when the document handles every code.',
        },
      },
      additionalProperties: false,
    },
  },
  'auth.login': {
    description: 'Logs in by login (e-mail, account number, nickname) or phone number; solves the captcha when asked; loads the user and runs the after-login rules.',
    params: {
      type: 'object',
      required: ['password'],
      properties: {
        login: { type: 'string' },
        phoneNumber: { type: 'string' },
        password: { type: 'string' },
        rememberMe: { type: 'boolean' },
        keepPunterLoggedIn: { type: 'boolean' },
        notice: { type: 'boolean' },
      },
      additionalProperties: false,
    },
  },
  'auth.logout': {
    description: 'Logs out (spec §4): server call, clears the session, closes popups, resets user data and settings, redirects and shows popups by reason.',
    params: {
      type: 'object',
      properties: {
        reason: {
          enum: LOGOUT_REASONS,
          description: 'Default SEFT_LOGOUT (the punter chose to).',
        },
      },
      additionalProperties: false,
    },
  },
  'auth.refresh': {
    description: 'Refreshes the access token now (rotation); INVALID_REFRESH_TOKEN logs out.',
    params: NO_PARAMS,
  },
  'captcha.solve': {
    description: "Fetches and answers the site's challenge (RQ_POW solved, NONCE echoed, or a vendor widget's token); the value is the captcha payload.",
    params: NO_PARAMS,
  },
} as const satisfies ActionDefinitions
