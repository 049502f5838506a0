/** Notes for the regulation part of the OpenAPI document: summaries and error codes; paths, schemas and security come from the router. */
import { GATEWAY } from '../deps'
import { openapi, type Operation, type PathItem } from '../http/openapi-registry'

const m = (path: string) => `${GATEWAY.mobile}/${path}`
const GATES = ['/casino-gate/api/v1', '/live-casino-gate/api/v1']
const BAD_INPUT = ['ValidationError', 'MALFORMED_JSON', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE']
const unauthorised = { 401: openapi.error('No live session', ['UNAUTHORIZED']) }
const op = (summary: string, responses: Record<string, object> = {}): Operation => ({ tags: ['regulation'], summary, security: openapi.session, responses: { ...unauthorised, ...responses } })

const selfExclude = (summary: string) =>
  op(summary, {
    200: openapi.ok('Excluded: every session of the punter has ended', { type: 'object', properties: { selfExcludeSettings: { type: 'object' }, loggedOut: { const: true } } }),
    400: openapi.error('Bad input, or a period or day count the jurisdiction does not offer (payload: field, allowed)', [...BAD_INPUT, 'SELF_EXCLUSION_NOT_OFFERED']),
    409: openapi.error('Would end before the exclusion already running (an exclusion is never shortened)', ['SELF_EXCLUSION_CANNOT_BE_SHORTENED']),
  })

const exclusionNotes: Record<string, PathItem> = {
  '/api/regulation/options': { get: { tags: ['regulation'], summary: 'The same as self-exclude/options, for screen data sources' } },
  [m('self-exclude/temporary')]: { post: selfExclude('Self-exclude for a period ({period}: one of the jurisdiction\'s ISO 8601 periods)') },
  [m('self-exclude/permanent')]: { post: selfExclude('Self-exclude permanently ({})') },
  [m('self-exclude/timeout')]: { post: selfExclude('Take a timeout ({daysCount}: one of the jurisdiction\'s day counts)') },
  [m('self-exclude/options')]: { get: { tags: ['regulation'], summary: "What this site offers (public policy): self-exclusion periods, timeout day counts, permanent, and the reality-check intervals" } },
  [m('regulation/punter/restrictions')]: {
    get: op('Active restrictions in priority order (the first decides what the punter sees), each with the operations it takes away'),
  },
}

const alertInfo = { type: 'object', properties: { notificationInfo: { type: 'object', properties: { status: { enum: ['NEED_TO_CONFIRM', 'CONFIRMED', 'NO_ALERT'] }, spentHours: { type: 'number' }, totalBetMinUnit: { type: 'integer' }, totalLostMinUnit: { type: 'integer' } } } } }
const sessionInfo = {
  type: 'object',
  properties: {
    status: { enum: ['NO_ACTIVE_SESSION', 'SESSION_IS_CONFIRMED', 'NEED_TO_CONFIRM_SESSION'] },
    intervalMinutes: { type: ['integer', 'null'] },
    minutesPlayed: { type: 'integer' },
    nextReminderAt: { type: ['integer', 'null'], description: 'ms since epoch, server clock' },
  },
}

const limitNotes: Record<string, PathItem> = {
  [m('regulation/punter/alerts/notification/info')]: { get: op('The regulation alert waiting for confirmation: time played, total bet and lost (minor units)', { 200: openapi.ok('Alert', alertInfo) }) },
  [m('regulation/punter/alerts/notification/confirm')]: { post: op('Confirm the regulation alert ({}); confirming twice changes nothing', { 200: openapi.ok('Confirmed', alertInfo), 400: openapi.error('Bad input', BAD_INPUT) }) },
  [m('regulation/punter/session/notification')]: {
    get: { tags: ['regulation'], summary: "Spain's session reminder: NO_ACTIVE_SESSION (no session, or no reminder on this site), SESSION_IS_CONFIRMED, NEED_TO_CONFIRM_SESSION", responses: { 200: openapi.ok('Session reminder state', sessionInfo) } },
  },
  [m('regulation/punter/session/confirm')]: {
    post: op('Confirm the running session ({}): only in NEED_TO_CONFIRM_SESSION', { 200: openapi.ok('Confirmed: the next reminder is one interval away', sessionInfo), 409: openapi.error('Nothing to confirm (payload: status)', ['SESSION_CONFIRMATION_NOT_NEEDED']) }),
  },
}

const realityCheckNotes: Record<string, PathItem>[] = GATES.map((gate) => {
  const product = gate.startsWith('/live') ? 'live casino' : 'casino'
  return {
    [`${gate}/realitycheck/punter/settings`]: {
      get: op(`Reality check (${product} gate): the chosen reminder interval (timeout, minutes; null until chosen) and the ones offered`),
      post: op(`Reality check (${product} gate): choose the reminder interval ({timeout}); choosing is the punter's agreement`, {
        400: openapi.error('Bad input, or an interval the jurisdiction does not offer (payload: allowed)', [...BAD_INPUT, 'REALITY_CHECK_TIMEOUT_NOT_OFFERED']),
      }),
    },
    [`${gate}/realitycheck/check`]: {
      get: op(`Reality check (${product} gate): remind, and hours and minutes played this session (the clock starts at the first check)`, {
        200: openapi.ok('Check', { type: 'object', properties: { remind: { type: 'boolean' }, hours: { type: 'integer' }, minutes: { type: 'integer' } } }),
      }),
    },
    [`${gate}/realitycheck/clear`]: { post: op(`Reality check (${product} gate): the punter goes on; the next reminder is one interval away ({})`, { 200: openapi.ok('Cleared', { type: 'object', properties: { success: { const: true } } }) }) },
  }
})

const clockNotes: Record<string, PathItem> = {
  '/api/dev/clock': {
    get: { tags: ['regulation'], summary: 'Development servers only: the server clock (now, offsetMs) that tests move' },
    post: { tags: ['regulation'], summary: 'Development servers only: move the server clock forward ({advanceMs}); never back', responses: { 400: openapi.error('Bad input', BAD_INPUT), 404: openapi.error('No movable clock (an injected one, or production)', ['DEV_CLOCK_NOT_AVAILABLE']) } },
  },
}

/** This file's notes, in the order they were written. */
export const regulationOpenApi: readonly Record<string, PathItem>[] = [exclusionNotes, limitNotes, ...realityCheckNotes, clockNotes]
