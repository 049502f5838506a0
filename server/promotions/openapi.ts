/** Notes for the promotions part of the OpenAPI document: summaries and error codes; paths, schemas and security come from the router. */
import { GATEWAY } from '../deps'
import { openapi, type Operation, type PathItem } from '../http/openapi-registry'

const m = (path: string) => `${GATEWAY.mobile}/${path}`
const BAD_INPUT = ['ValidationError']
const card = {
  type: 'object',
  properties: {
    id: { type: 'string' }, product: { type: 'string' }, title: { type: 'string' }, body: { type: 'string' }, subtitle: { type: 'string' }, terms: { type: 'string' },
    startsAt: { type: 'string' }, endsAt: { type: 'string' }, endsText: { type: 'string' }, prize: { type: ['object', 'null'] }, prizeText: { type: ['string', 'null'] },
    shownToGuests: { type: 'boolean' }, forRegistration: { type: 'boolean' }, to: { type: 'string' },
  },
}
const list = { type: 'array', items: card }
const member = (summary: string, responses: Record<string, object> = {}): Operation => ({
  tags: ['promotions'],
  summary,
  security: openapi.session,
  responses: { 401: openapi.error('No live session', ['UNAUTHORIZED']), 400: openapi.error('Bad query', BAD_INPUT), ...responses },
})

export const promotionsOpenApi: Record<string, PathItem> = {
  '/api/promotions': {
    get: { tags: ['promotions'], summary: 'Live promotions of the site a guest may see (not the ones disabled for guests), ending soonest first; ?product= for one product', responses: { 200: openapi.ok('Promotion cards in the asked locale', list), 400: openapi.error('Bad query', BAD_INPUT) } },
  },
  '/api/promotions/{id}': {
    get: { tags: ['promotions'], summary: 'One live promotion a guest may see (its page)', responses: { 200: openapi.ok('The promotion', card), 400: openapi.error('Bad query', BAD_INPUT), 404: openapi.error('Not live, not on this site or only for logged-in punters', ['PROMOTION_NOT_FOUND']) } },
  },
  [m('bonus/promotions')]: { get: member('Live promotions of the site for a logged-in punter, members-only ones included', { 200: openapi.ok('Promotion cards', list) }) },
  [m('bonus/promotions/{product}')]: { get: member('Live promotions of one product for a logged-in punter', { 200: openapi.ok('Promotion cards', list), 404: openapi.error('Not a product with promotions', ['UNKNOWN_PRODUCT']) }) },
  [m('bonus/promotions/detail/{id}')]: { get: member('One live promotion for a logged-in punter', { 200: openapi.ok('The promotion', card), 404: openapi.error('Not live or not on this site', ['PROMOTION_NOT_FOUND']) }) },
  [m('bonus/ticket/active-campaigns')]: {
    get: member('The punter\'s offers: the live campaigns of the site, each with participating (the punter used its promo code), taken part in first', {
      200: openapi.ok('Campaigns', { type: 'array', items: { ...card, properties: { ...card.properties, participating: { type: 'boolean' } } } }),
    }),
  },
}
