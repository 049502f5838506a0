/** Notes for the bets part of the OpenAPI document: summaries and error codes; paths, schemas and security come from the router. */
import { GATEWAY } from '../deps'
import { openapi, type Operation, type PathItem } from '../http/openapi-registry'

const m = (path: string) => `${GATEWAY.mobile}/${path}`
const BAD_INPUT = ['ValidationError', 'MALFORMED_JSON', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE']
const unauthorised = { 401: openapi.error('No live session', ['UNAUTHORIZED']) }
const op = (summary: string, responses: Record<string, object> = {}): Operation => ({ tags: ['bets'], summary, security: openapi.session, responses: { ...unauthorised, ...responses } })

export const betsOpenApi: Record<string, PathItem> = {
  [m('betslip/selections')]: {
    get: { tags: ['bets'], summary: 'The bet slip\'s selections as they stand now: price, status (OPEN, SUSPENDED, SETTLED, UNKNOWN), what each backs', responses: { 400: openapi.error('Bad ids', BAD_INPUT) } },
  },
  [m('bets/place')]: {
    post: op('Place a single or an accumulator: debits the stake once per idempotency key; prices judged by the punter\'s betPlacingMode', {
      200: openapi.ok('The bet (the same bet again for a repeated idempotency key) and the balance after it', { type: 'object', properties: { betId: { type: 'string' }, status: { const: 'open' }, balance: { type: 'number' } } }),
      400: openapi.error("Bad input, or a stake or potential win outside the punter's jurisdiction's money rules (payload: limit, currency)", [...BAD_INPUT, 'STAKE_TOO_LOW', 'STAKE_TOO_HIGH', 'PAYOUT_TOO_HIGH']),
      403: openapi.error('A restriction takes betting away (payload: operation, restriction, endDate), or the potential wins of the last 24 hours would pass the daily maximum (payload: limit, available, currency), or the stake could take the net loss past a loss limit (payload: period, limit, used, available, currency)', ['CUSTOMER_SELFEXCLUDED', 'INCORRECT_PUNTER_STATE', 'LOGIN_NOT_FOUND', 'DAILY_PAYOUT_LIMIT_EXCEED', 'LOSS_LIMIT_EXCEEDED']),
      409: openapi.error('Cannot be taken now (payload: selectionIds, or changes [{selectionId, price, previous}])', ['SELECTION_SUSPENDED', 'SELECTION_NOT_AVAILABLE', 'RELATED_SELECTIONS', 'ODDS_CHANGED', 'INSUFFICIENT_FUNDS']),
    }),
  },
  [m('bets')]: { get: op('The punter\'s open bets (with the current cash-out offer) or settled bets, newest first', { 400: openapi.error('Bad query', BAD_INPUT) }) },
  [m('bets/open')]: { get: op('The punter\'s open bets with the current cash-out offer (as GET bets?status=open)') },
  [m('bets/settled')]: { get: op('The punter\'s settled bets, newest first (as GET bets?status=settled)') },
  [m('bets/{betId}')]: { get: op('One bet of the punter', { 404: openapi.error('Not the punter\'s bet', ['BET_NOT_FOUND']) }) },
  [m('bets/{betId}/cash-out')]: {
    post: op('Cash out at the offer shown; a changed offer is taken per the confirmation type (INCREASE, ALWAYS, NEVER); with delay, PENDING until asked again after retryAfterMs', {
      200: openapi.ok('ACCEPTED (amount, bet, balance) or PENDING (requestId, retryAfterMs)'),
      400: openapi.error('Bad input', BAD_INPUT),
      404: openapi.error('Not the punter\'s bet', ['BET_NOT_FOUND']),
      409: openapi.error('No offer now, the offer changed (payload: amount), or the bet is closed', ['CASH_OUT_UNAVAILABLE', 'CASH_OUT_AMOUNT_CHANGED', 'BET_CLOSED']),
    }),
  },
}
