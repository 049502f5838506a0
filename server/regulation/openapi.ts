/** Notes for the regulation part of the OpenAPI document: summaries and error codes; paths, schemas and security come from the router. */
import { GATEWAY } from '../deps'
import { openapi, registerOpenApiPaths, type Operation } from '../http/openapi-registry'

const m = (path: string) => `${GATEWAY.mobile}/${path}`
const BAD_INPUT = ['ValidationError', 'MALFORMED_JSON', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE']
const unauthorised = { 401: openapi.error('No live session', ['UNAUTHORIZED']) }
const op = (summary: string, responses: Record<string, object> = {}): Operation => ({ tags: ['regulation'], summary, security: openapi.session, responses: { ...unauthorised, ...responses } })

const selfExclude = (summary: string) =>
  op(summary, {
    200: openapi.ok('Excluded: every session of the punter has ended', { type: 'object', properties: { selfExcludeSettings: { type: 'object' }, loggedOut: { const: true } } }),
    400: openapi.error('Bad input, or a period or day count the jurisdiction does not offer (payload: field, allowed)', [...BAD_INPUT, 'SELF_EXCLUSION_NOT_OFFERED']),
    409: openapi.error('Would end before the exclusion already running (an exclusion is never shortened)', ['SELF_EXCLUSION_CANNOT_BE_SHORTENED']),
  })

registerOpenApiPaths({
  [m('self-exclude/temporary')]: { post: selfExclude('Self-exclude for a period ({period}: one of the jurisdiction\'s ISO 8601 periods)') },
  [m('self-exclude/permanent')]: { post: selfExclude('Self-exclude permanently ({})') },
  [m('self-exclude/timeout')]: { post: selfExclude('Take a timeout ({daysCount}: one of the jurisdiction\'s day counts)') },
  [m('self-exclude/options')]: { get: op('The periods and day counts this jurisdiction offers, and the running exclusion') },
  [m('regulation/punter/restrictions')]: {
    get: op('Active restrictions in priority order (the first decides what the punter sees), each with the operations it takes away'),
  },
})
