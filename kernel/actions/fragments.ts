/**
 * JSON Schema fragments several action definitions share, spelled once (issue 17: one source).
 * The emitted editor schemas are the same as when each definition spelled them out.
 */

/** An action that takes no params. */
export const NO_PARAMS = { type: 'object', properties: {}, additionalProperties: false } as const

/** A lobby game: its product and id. */
export const GAME_PARAMS = {
  product: { type: 'string', pattern: '^[a-z-]{2,20}$' },
  gameId: { type: 'string', pattern: '^[a-z0-9-]{1,60}$' },
} as const
