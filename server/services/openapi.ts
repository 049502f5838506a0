/** Notes for the services part of the OpenAPI document (analytics ingest, error envelopes, recognition link, admin reads). */
import { GATEWAY } from '../deps'
import { openapi, type Operation, type PathItem } from '../http/openapi-registry'

const BAD_INPUT = ['ValidationError', 'MALFORMED_JSON', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE']
const admin = (summary: string): Operation => ({ tags: ['admin', 'services'], summary, responses: { 200: openapi.ok('The list, newest first') } })

export const servicesOpenApi: Record<string, PathItem> = {
  '/analytics/api/2/httpapi': {
    post: {
      tags: ['services'],
      summary: 'Analytics upload {api_key, events}: 200 {code, events_ingested, payload_size_bytes, server_upload_time}; 400 {code, error, missing_field}; 413 too large; 429 {code, error, throttling}',
      responses: {},
    },
  },
  '/analytics/api/2/config': {
    get: {
      tags: ['services'],
      summary: 'Analytics remote config (query api_key, config_keys, session_id): 200 {code, configs} with the asked keys of the site\'s remote-config document; private, 60 s',
      responses: { 200: openapi.ok('The asked settings'), 400: openapi.error('Bad query', ['ValidationError']), 403: openapi.error('Not the site\'s AMPLITUDE_KEY', ['INVALID_API_KEY']) },
    },
  },
  '/errors/api/1/envelope': {
    post: { tags: ['services'], summary: 'Error envelope (application/x-sentry-envelope): header line, then item header and event lines', responses: { 200: openapi.ok('How many errors were stored'), 400: openapi.error('Not an envelope', BAD_INPUT) } },
  },
  [`${GATEWAY.mobile}/punter/recognition/link`]: {
    post: { tags: ['services'], summary: 'Links the browser fingerprint to the punter of the session (login, registration)', security: openapi.session, responses: { 200: openapi.ok('Linked'), 400: openapi.error('Bad body', BAD_INPUT), 401: openapi.error('No live session', ['UNAUTHORIZED']) } },
  },
  '/admin/api/services/events': { get: admin('Analytics events (audited read)') },
  '/admin/api/services/errors': { get: admin('Reported errors with source-mapped frames (audited read)') },
  '/admin/api/services/recognitions': { get: admin('Recognitions and visitor ids shared by several punters (audited read)') },
  '/replay/api/1/batch': {
    post: {
      tags: ['services'],
      summary: 'Session-replay batch (query device_id, session_id, type=replay; body {version: 1, events}, gzip as application/vnd.parlay.replay+gzip or plain as application/vnd.parlay.replay; at most 1,000,000 bytes unpacked)',
      responses: { 200: openapi.ok('Stored'), 400: openapi.error('Bad query or body', BAD_INPUT), 403: openapi.error('Replay off for this site', ['REPLAY_DISABLED']), 413: openapi.error('Over 1,000,000 bytes unpacked', ['PAYLOAD_TOO_LARGE']), 415: openapi.error('Another content type', ['UNSUPPORTED_MEDIA_TYPE']) },
    },
  },
  '/replay/api/1/interactions': {
    post: {
      tags: ['services'],
      summary: 'Interaction summary by beacon (query device_id, session_id; body {windowStart, windowEnd, clicks: [{page, target, clicks}]}, one window of at most an hour)',
      responses: { 200: openapi.ok('Stored'), 400: openapi.error('Bad query or body', BAD_INPUT), 403: openapi.error('Replay off for this site', ['REPLAY_DISABLED']), 429: openapi.error('Too many from one device', ['TOO_MANY_REQUESTS']) },
    },
  },
  '/admin/api/services/clicks': { get: admin('The most tapped elements per page, from interaction summaries (audited read)') },
  '/admin/api/services/replays': { get: admin('Recorded sessions (audited read)') },
  '/admin/api/services/replays/{deviceId}/{sessionId}': { get: admin('The events of one recorded session, for the replayer (audited view)') },
}
