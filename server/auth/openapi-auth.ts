/** Notes for the accounts part of the OpenAPI document (spec §7 "Session and user"): summaries and error codes; paths, schemas and security come from the router. */
import { GATEWAY } from '../deps'
import { SERVER_SETTINGS_SCHEMA } from '../punters/repository'
import { openapi, type PathItem } from '../http/openapi-registry'
import { LEGAL_AGREEMENT_SCHEMA, LOGIN_SCHEMA, PHONE_LOGIN_SCHEMA, REFRESH_SCHEMA } from './router'

const m = (path: string) => GATEWAY.mobile + '/' + path.replace(/^\//, '')
const BAD_INPUT = ['ValidationError', 'MALFORMED_JSON', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE']
const tokens = {
  type: 'object',
  properties: {
    status: { const: 'OK' },
    accessToken: { type: 'string' },
    refreshToken: { type: 'string' },
    creationTime: { type: 'integer', description: 'ms since epoch, server clock' },
    loginTimeout: { type: 'integer', description: 'ms the access token lives' },
  },
}
const loginResult = {
  ...tokens,
  properties: {
    ...tokens.properties,
    expireTokenTime: { type: 'integer' },
    rememberMe: { type: 'boolean' },
    punterHash: { type: 'string', description: 'The session hash; also sent as the punter-session-hash response header.' },
    loginByAuthType: { enum: ['email', 'account_number', 'nickname', 'phone_number', 'other'] },
    needEmailConfirmation: { type: 'boolean' },
  },
}
const LOGIN_ERRORS = [
  'INCORRECT_PASSWORD',
  'CAPTCHA_REQUIRED',
  'INVALID_CAPTCHA',
  'PHONE_NUMBER_AUTH_TYPE_NEEDED',
  'EMAIL_AUTH_TYPE_NEEDED',
  'LOGIN_AUTH_TYPE_NEEDED',
  'NICKNAME_AUTH_TYPE_NEEDED',
  ...BAD_INPUT,
]
const login = (schema: object, summary: string) => ({
  post: {
    tags: ['session'],
    summary,
    requestBody: openapi.json(schema),
    responses: {
      200: openapi.ok('Logged in', loginResult),
      400: openapi.error('Unknown login, wrong password and locked login all answer INCORRECT_PASSWORD', LOGIN_ERRORS),
      403: openapi.error('Right password, but the account cannot log in (CUSTOMER_SELFEXCLUDED payload: selfExcludeSettings; after the exclusion has ended also canOpen and the openToken for POST /punter/open-profile)', ['CANNOT_LOGIN_NO_EMAIL_CONFIRMED', 'CANNOT_LOGIN_PENDING_CONFIRMATION', 'LOGIN_DENIED_BY_PERMISSION', 'CUSTOMER_SELFEXCLUDED']),
    },
  },
})
const unauthorised = { 401: openapi.error('No live session', ['UNAUTHORIZED']) }
const get = (summary: string, payload: object) => ({
  get: { tags: ['user'], summary, security: openapi.session, responses: { 200: openapi.ok(summary, payload), ...unauthorised } },
})

export const authOpenApi: Record<string, PathItem> = {
  [m('auth/v2/login')]: login(LOGIN_SCHEMA, 'Log in by e-mail, account number or nickname'),
  [m('auth/v2/login/phone-number')]: login(PHONE_LOGIN_SCHEMA, 'Log in by phone number'),
  [m('auth/captcha/challenge')]: {
    get: { tags: ['session'], summary: "The site's challenge: proof of work (RQ_POW, ALTCHA v1; answer kind pow, base64 JSON), a single-use nonce for ?purpose=login|signup-sms (NONCE; answer kind token, the nonce as given), or a vendor widget's site key; the answer goes in the captcha field", responses: { 200: openapi.ok('Challenge', { type: 'object' }) } },
  },
  [m('auth/v2/token/refresh')]: {
    post: {
      tags: ['session'],
      summary: 'Rotate the refresh token; a reused one revokes its whole family',
      requestBody: openapi.json(REFRESH_SCHEMA),
      responses: { 200: openapi.ok('New tokens', { ...tokens, properties: { ...tokens.properties, punterToken: { type: 'string' } } }), 401: openapi.error('Refused: unknown, used, revoked or expired refresh token', ['INVALID_REFRESH_TOKEN']) },
    },
  },
  [m('auth/token/logout')]: {
    post: {
      tags: ['session'],
      summary: 'Log out by refresh token (text/plain body): every session of the punter ends',
      requestBody: { required: true, content: { 'text/plain': { schema: { type: 'string', maxLength: 200 } } } },
      responses: { 200: openapi.ok('Logged out (also for an unknown token)', { type: 'null' }) },
    },
  },
  [m('auth/logout')]: {
    post: { tags: ['session'], summary: 'Log out by session hash: every session of the punter ends', security: openapi.session, responses: { 200: openapi.ok('Logged out', { type: 'null' }) } },
  },
  [m('heartbeat')]: get('User data (spec §3), whole', { type: 'object' }),
  [m('auth/punter-session/expiration-timeout')]: get('Time left on the access token', {
    type: 'object',
    properties: { expirationTimeout: { type: 'integer' }, expiresAt: { type: 'integer' } },
  }),
  [m('punter/settings')]: {
    put: {
      tags: ['user'],
      summary: 'Save server-side settings (local-only keys are refused)',
      security: openapi.session,
      requestBody: openapi.json(SERVER_SETTINGS_SCHEMA),
      responses: { 200: openapi.ok('Saved settings', { type: 'object' }), 400: openapi.error('Bad input', BAD_INPUT), ...unauthorised },
    },
  },
  [m('punter/legal-aggreement')]: {
    post: {
      tags: ['user'],
      summary: 'Accept or decline the legal agreement',
      security: openapi.session,
      requestBody: openapi.json(LEGAL_AGREEMENT_SCHEMA),
      responses: { 200: openapi.ok('Recorded', { type: 'object' }), 400: openapi.error('Bad input', BAD_INPUT), ...unauthorised },
    },
  },
  [m('nickname/enabled')]: get('Whether the nickname prompt applies', { type: 'boolean' }),
  [m('account/first-deposit-date')]: get('First deposit date or null', { type: ['string', 'null'] }),
  [m('punter/vip/is-punter-vip')]: get('VIP flag', { type: 'boolean' }),
  [m('punter/identity')]: get('Identity state', { type: 'object' }),
}
