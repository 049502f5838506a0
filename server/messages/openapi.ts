/** Notes for the messages part of the OpenAPI document (punter calls and the admin's messages); paths, schemas and security come from the router. */
import { GATEWAY } from '../deps'
import { openapi, type Operation, type PathItem } from '../http/openapi-registry'

const m = (path: string) => `${GATEWAY.mobile}/${path}`
const BAD_INPUT = ['ValidationError', 'MALFORMED_JSON', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE']
const unauthorised = { 401: openapi.error('No live session', ['UNAUTHORIZED']) }
const op = (summary: string, responses: Record<string, object> = {}): Operation => ({ tags: ['messages'], summary, security: openapi.session, responses: { ...unauthorised, ...responses } })
const MESSAGE = {
  type: 'object',
  properties: {
    punterMessageId: { type: 'integer' },
    source: { enum: ['web', 'global', 'club'] },
    kind: { enum: ['INBOX', 'EXTERNAL'] },
    localizedMessage: { type: 'string' },
    iconUrlMobile: { type: ['string', 'null'] },
    createdAt: { type: 'string' },
    read: { type: 'boolean' },
  },
}
const STATISTICS = { type: 'object', properties: { totalMessagesCount: { type: 'integer' }, unreadMessagesCount: { type: 'integer' } } }
const admin = (summary: string, responses: Record<string, object> = {}): Operation => ({ tags: ['admin', 'messages'], summary, responses })

export const messagesOpenApi: Record<string, PathItem> = {
  [m('punter/message/inbox-statistics')]: { get: op('The inbox counts: totalMessagesCount and unreadMessagesCount (INBOX messages)', { 200: openapi.ok('The counts', STATISTICS) }) },
  [m('punter/message/inbox-page')]: {
    get: op('One page of the inbox, newest first: content, pageData (pageNumber from 0, pageSize 20 by default, totalPages, totalElements), totalMessagesCount', {
      200: openapi.ok('The page', { type: 'object', properties: { content: { type: 'array', items: MESSAGE }, pageData: { type: 'object' }, totalMessagesCount: { type: 'integer' } } }),
      400: openapi.error('Bad pageNumber or pageSize', BAD_INPUT),
    }),
  },
  [m('punter/message/active')]: {
    get: op('The unread EXTERNAL messages of the site (messageType WEB) or the VIP club (club): shown as notifications', { 200: openapi.ok('The messages', { type: 'array', items: MESSAGE }), 400: openapi.error('Bad messageType', BAD_INPUT) }),
  },
  [m('punter/message/active-global')]: { get: op('The unread EXTERNAL messages to everyone (source global): shown as a popup', { 200: openapi.ok('The messages', { type: 'array', items: MESSAGE }) }) },
  [m('punter/message/mark-read/{source}')]: {
    put: op('Marks the punter\'s messages of a source (web, global, club) read, on the server; ids that are not the punter\'s change nothing', {
      200: openapi.ok('How many changed, and the counts after', { type: 'object', properties: { marked: { type: 'integer' }, ...STATISTICS.properties } }),
      400: openapi.error('Bad source or ids', BAD_INPUT),
    }),
  },
  '/admin/api/messages': {
    get: admin('The latest messages to punters with their status (PENDING_APPROVAL, DELIVERED, REJECTED), author, approver and recipients'),
    post: admin('Writes a message: to one punter it is delivered immediately, answering 201; to a segment (jurisdiction, state, tier) or everyone it waits for a second admin (202). Audited', {
      400: openapi.error('Bad input, or a segment without a criterion', BAD_INPUT),
      404: openapi.error('No punter with that account number', ['PUNTER_NOT_FOUND']),
    }),
  },
  '/admin/api/messages/{id}/approve': {
    post: admin('Approves a mass message and delivers it; the author cannot approve their own. Audited', {
      403: openapi.error('The approver wrote the message', ['SELF_APPROVAL']),
      404: openapi.error('No such message', ['NOT_FOUND']),
      409: openapi.error('Not waiting for approval', ['INVALID_STATE']),
    }),
  },
  '/admin/api/messages/{id}/reject': {
    post: admin('Rejects a mass message (optional comment); it is never delivered. Audited', {
      400: openapi.error('Bad input', BAD_INPUT),
      404: openapi.error('No such message', ['NOT_FOUND']),
      409: openapi.error('Not waiting for approval', ['INVALID_STATE']),
    }),
  },
}
