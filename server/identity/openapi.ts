/**
 * OpenAPI notes for the identity calls added with issue 13 (agreement data, auto-verification,
 * nickname, the portals' simulator pages). The older identity calls are described in
 * server/auth/openapi-catalogue.ts; notes merge per path and method.
 */
import { GATEWAY } from '../deps'
import { openapi, type Operation, type PathItem } from '../http/openapi-registry'

const m = (path: string) => `${GATEWAY.mobile}/${path}`
const op = (summary: string, extra: Operation = {}): Operation => ({ tags: ['identity'], summary, ...extra })
const html = (description: string) => ({ responses: { 200: openapi.raw(description, 'text/html') } })
const SERVICE_UNAVAILABLE = { 503: openapi.error('No provider configured and simulators off', ['SERVICE_UNAVAILABLE']) }
const simulatorForm = (fields: Record<string, object>, back: string): Operation => ({
  requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: fields } } } },
  responses: { 303: { description: back } },
})

export const identityOpenApi: Record<string, PathItem> = {
  [m('punter/cps/agreement-data')]: {
    get: op('Russia: what the punter agrees to before identifying (data sent to the identification service, purpose, version)', {
      responses: {
        200: openapi.ok('The agreement', {
          type: 'object',
          properties: { version: { type: 'string' }, processor: { type: 'string' }, purpose: { type: 'string' }, operator: { type: 'string' }, personalData: { type: 'array', items: { type: 'string' } }, documentPath: { type: 'string' } },
        }),
        ...SERVICE_UNAVAILABLE,
      },
    }),
  },
  [m('verification/start-punter-auto-verification')]: {
    post: op('Start the online auto-verification: the link to send the punter to, and the state (STARTED; CONFIRMED when already done)', {
      responses: {
        200: openapi.ok('Started', { type: 'object', properties: { link: { type: ['string', 'null'] }, autoVerificationState: { enum: ['STARTED', 'CONFIRMED', 'UNCONFIRMED', 'CLOSED', 'UNKNOWN'] } } }),
        ...SERVICE_UNAVAILABLE,
      },
    }),
  },
  [m('nickname')]: {
    put: op('Set the nickname: 3-33 characters starting with a letter (trimmed), unique regardless of case, where the jurisdiction document asks for one', {
      responses: {
        200: openapi.ok('Saved', { type: 'object', properties: { nickname: { type: 'string' } } }),
        400: openapi.error('Breaks a rule ({field, code}: minLength, maxLength, pattern)', ['ValidationError']),
        403: openapi.error('No nickname on this site or for this country', ['FORBIDDEN']),
        409: openapi.error('Taken by another punter', ['NICKNAME_ALREADY_EXIST']),
      },
    }),
  },
  [m('punter/documents/upload')]: {
    post: op('Upload an identity document (the six spec §3 types; JPEG, PNG or PDF by its first bytes, at most 5 MB); sets documentsUploadState UPLOADED'),
  },
  '/dev/identity/esia': {
    get: op('State portal (ESIA) simulator: the page where the punter allows or refuses (simulators on)', html('HTML form')),
    post: op('State portal simulator: the answer; redirects to /account/tsupis/identity?esia=approved|refused|unknown', simulatorForm({ state: { type: 'string' }, decision: { enum: ['approve', 'refuse'] } }, 'Back to the identity page')),
  },
  '/dev/identity/auto-verification': {
    get: op('Auto-verification simulator: the page where a tester picks the answer (simulators on)', html('HTML form')),
    post: op('Auto-verification simulator: the answer; redirects to /account/id-confirmation?autoVerification=STATE', simulatorForm({ state: { type: 'string' }, outcome: { enum: ['CONFIRMED', 'UNCONFIRMED', 'CLOSED'] } }, 'Back to the ID confirmation page')),
  },
}
