/** Notes for the games part of the OpenAPI document: summaries and error codes; paths, schemas and security come from the router. */
import { GATEWAY } from '../deps'
import { openapi, type Operation, type PathItem } from '../http/openapi-registry'

const m = (path: string) => `${GATEWAY.mobile}/${path}`
const BAD_INPUT = ['ValidationError', 'MALFORMED_JSON', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE']
const unauthorised = { 401: openapi.error('No live session', ['UNAUTHORIZED']) }
const op = (summary: string, responses: Record<string, object> = {}): Operation => ({ tags: ['games'], summary, security: openapi.session, responses: { ...unauthorised, ...responses } })
const restrictedText = "A restriction takes games away (payload: operation, restriction, endDate), or the game's declared return lies outside the punter's own jurisdiction's range (payload: returnToPlayer, range)"
const restrictedCodes = ['CUSTOMER_SELFEXCLUDED', 'INCORRECT_PUNTER_STATE', 'LOGIN_NOT_FOUND', 'GAME_RETURN_NOT_ALLOWED']
const restricted = {
  403: openapi.error(
    restrictedText,
    restrictedCodes,
  ),
}
const unknown = { 404: openapi.error('No such game in the product', ['GAME_NOT_FOUND']) }

const launchNotes: Record<string, PathItem> = {
  [m('games/favorites')]: {
    get: op('The punter\'s favourite games of a product (kept on the server)', { 400: openapi.error('Bad product', BAD_INPUT) }),
    put: op('Add a game to (favorite: true) or remove it from the product\'s favourites', { 400: openapi.error('Bad input', BAD_INPUT), ...unknown }),
  },
  [m('games/favorites/{product}')]: { get: op('The punter\'s favourites of a product as lobby cards (id, title, provider, image)', unknown) },
  [m('games/{product}/{gameId}')]: {
    get: op("Launch a lobby game: its engine (slot or crash), its declared return to player and volatility (the punter's own jurisdiction's game), stakes and the balance", { ...restricted, ...unknown }),
  },
  [m('games/{product}/{gameId}/play')]: {
    post: op('Play one round, decided on the server (seeded HMAC): the stake and the win in one balance change, once per idempotency key', {
      200: openapi.ok('The round (reels and multiplier, or crashAt, cashOutAt and won), the win and the balance after it'),
      400: openapi.error('Bad input, or a stake outside the game\'s limits (payload: limit, currency)', [...BAD_INPUT, 'STAKE_TOO_LOW', 'STAKE_TOO_HIGH']),
      403: openapi.error(`${restrictedText}, or the stake could take the net loss past a loss limit (payload: period, limit, used, available, currency)`, [...restrictedCodes, 'LOSS_LIMIT_EXCEEDED']),
      ...unknown,
      409: openapi.error('The balance does not cover the stake', ['INSUFFICIENT_FUNDS']),
    }),
  },
}

const slotNotes: Record<string, PathItem> = {
  '/api/games/info': {
    get: {
      tags: ['games'],
      summary: "A lobby game's public card: title, engine, declared return to player, volatility, and whether the request's site offers it",
      responses: { 200: openapi.ok('The card'), 400: openapi.error('Bad query', BAD_INPUT), ...unknown },
    },
  },
}

const crashNotes: Record<string, PathItem> = {
  '/api/dev/games/next-round': {
    post: { tags: ['development'], summary: 'The next round played pays at least this multiple of its stake (an honest draw among round ids; development only)', responses: { 400: openapi.error('Bad input', BAD_INPUT) } },
  },
}

/** This file's notes, in the order they were written. */
export const gamesOpenApi: readonly Record<string, PathItem>[] = [launchNotes, slotNotes, crashNotes]
