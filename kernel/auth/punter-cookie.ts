/**
 * The punter-hint cookie's name and how the server reads it from a Cookie header (issue 10); the
 * browser side that writes it is engine/auth/punter-hint.ts.
 */
export const PUNTER_HINT_COOKIE = 'parlay_punter'

/** Does the request's Cookie header carry the hint? */
export function hasPunterHint(cookieHeader: string): boolean {
  return cookieHeader.split(';').some((part) => part.trim() === `${PUNTER_HINT_COOKIE}=1`)
}
