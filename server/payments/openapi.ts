/** Notes for the withdrawal part of the OpenAPI document (issue 28 item 5): summaries and error codes; paths, schemas and security come from the router. */
import { GATEWAY } from '../deps'
import { openapi, type Operation, type PathItem } from '../http/openapi-registry'

const m = (path: string) => `${GATEWAY.mobile}/${path}`
const BAD_INPUT = ['ValidationError', 'MALFORMED_JSON', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE']
const unauthorised = { 401: openapi.error('No live session', ['UNAUTHORIZED']) }
const op = (summary: string, responses: Record<string, object> = {}): Operation => ({ tags: ['payments'], summary, security: openapi.session, responses: { ...unauthorised, ...responses } })
const withdrawal = { type: 'object', properties: { withdrawalId: { type: 'string' }, status: { enum: ['pending', 'paid', 'cancelled', 'failed'] }, amount: { type: 'number' }, currency: { type: 'string' }, cancellable: { type: 'boolean' }, balance: { type: 'number' }, withdrawable: { type: 'number' } } }

export const paymentsOpenApi: Record<string, PathItem> = {
  [m('payments/withdrawals')]: {
    get: op("The withdrawal cashier: balance and withdrawable, the payout sources of the punter's jurisdiction (minimum, maximum), the identity rule (checkAbove, verified), the punter's withdrawals (pending ones first brought up to date with the provider)"),
  },
  [m('payments/withdrawal')]: {
    post: op("Withdraw: only withdrawable money (real money less deposits not yet staked), through a payout source of the punter's jurisdiction within its minimum and maximum, identity verified first where the jurisdiction says; the amount leaves the balance at once and the withdrawal waits pending at the provider. A repeated idempotency key answers the first", {
      200: openapi.ok('The pending withdrawal, with the balance and withdrawable after it', withdrawal),
      400: openapi.error('Bad input, an unknown payout source (field method), or an amount outside its minimum or maximum (payload: field, code, limit)', BAD_INPUT),
      403: openapi.error('The jurisdiction needs a verified identity for this amount (payload: limit, currency)', ['WITHDRAWAL_IDENTITY_REQUIRED']),
      409: openapi.error('More than is withdrawable now (payload: withdrawable, currency)', ['WITHDRAWAL_EXCEEDS_WITHDRAWABLE']),
      503: openapi.error('No payout provider configured and simulators off', ['SERVICE_UNAVAILABLE']),
    }),
  },
  [m('payments/withdrawal/cancel')]: {
    post: op('Cancel a pending withdrawal: stopped at the provider, then its amount comes back to the balance (once, however often asked)', {
      200: openapi.ok('The cancelled withdrawal, with the balance and withdrawable after it', withdrawal),
      400: openapi.error('Bad input', BAD_INPUT),
      404: openapi.error("Not the punter's withdrawal", ['WITHDRAWAL_NOT_FOUND']),
      409: openapi.error('Already paid or failed (payload: status)', ['WITHDRAWAL_NOT_CANCELLABLE']),
    }),
  },
  [m('payments/withdrawal/{withdrawalId}')]: {
    get: op('One withdrawal of the punter as it stands (asked at the provider first: paid, or failed and its money back)', { 404: openapi.error("Not the punter's withdrawal", ['WITHDRAWAL_NOT_FOUND']) }),
  },
  '/dev/payments/payouts': {
    get: { tags: ['payments'], summary: "The payout simulator's back-office page (simulators on): the payouts waiting, each paid a day after it was sent", responses: { 200: openapi.raw('Payouts page', 'text/html') } },
    post: { tags: ['payments'], summary: 'Pay a waiting payout now, or fail it; redirects to the page' },
  },
}
