/**
 * The outcome of one token update (spec §3 "token-update outcomes", §4 "Token refresh"), decided in
 * one place for every caller (the refresh timer, a page load, another tab's news, a late 401):
 *
 * - AT_NOT_FOUND: no access token stored — there is no session to keep alive;
 * - CURRENT_AT_ACTIVE: the access token is still valid by the local clock — no refresh call;
 * - RT_NOT_AVAILABLE: the access token has expired and no refresh token is stored;
 * - UPDATED_TOKENS: the refresh call rotated both tokens;
 * - ERROR_RT_UPDATE: the refresh call was refused (the family is dead: reuse, expiry, logout
 *   elsewhere) or failed on its way (`transient`: network, 5xx — keep the session, try later).
 *
 * Pure: the clock and the refresh call are passed in. The client's reaction to each outcome lives
 * with the session (engine/auth/session.ts).
 */

export const TOKEN_UPDATE_OUTCOMES = ['CURRENT_AT_ACTIVE', 'UPDATED_TOKENS', 'ERROR_RT_UPDATE', 'RT_NOT_AVAILABLE', 'AT_NOT_FOUND'] as const
export type TokenUpdateOutcome = (typeof TOKEN_UPDATE_OUTCOMES)[number]

export type TokenUpdate =
  | { outcome: 'CURRENT_AT_ACTIVE' | 'UPDATED_TOKENS' | 'RT_NOT_AVAILABLE' | 'AT_NOT_FOUND' }
  | { outcome: 'ERROR_RT_UPDATE'; code: string; transient: boolean }

/** What the session holds that the decision reads (times in the local clock, ms). */
export interface HeldTokens {
  accessToken: string | null
  refreshToken: string | null
  /** When the access token must be refreshed; null: no known expiry (counts as still valid). */
  expireTokenTime: number | null
}

/** The decision before any call: an outcome, or 'REFRESH' when only the refresh call can tell. */
export function tokenUpdateNeed(tokens: HeldTokens, now: number): Exclude<TokenUpdateOutcome, 'UPDATED_TOKENS' | 'ERROR_RT_UPDATE'> | 'REFRESH' {
  if (!tokens.accessToken) return 'AT_NOT_FOUND'
  if (tokens.expireTokenTime === null || tokens.expireTokenTime > now) return 'CURRENT_AT_ACTIVE'
  if (!tokens.refreshToken) return 'RT_NOT_AVAILABLE'
  return 'REFRESH'
}

/** Failures that say nothing about the session: try again later, keep it. */
export function isTransientFailure(code: string): boolean {
  return code === 'NETWORK_ERROR' || code === 'TIMEOUT' || code === 'INTERNAL_SERVER_ERROR' || /^5\d\d$/.test(code)
}

/** The outcome of a refresh call's answer. */
export function tokenUpdateOfRefresh(answer: { ok: true } | { ok: false; code: string }): TokenUpdate {
  if (answer.ok) return { outcome: 'UPDATED_TOKENS' }
  return { outcome: 'ERROR_RT_UPDATE', code: answer.code, transient: isTransientFailure(answer.code) }
}

/** One token update: the decision, and the refresh call only when it is needed. */
export async function updateTokens(tokens: HeldTokens, now: number, refresh: () => Promise<{ ok: true } | { ok: false; code: string }>): Promise<TokenUpdate> {
  const need = tokenUpdateNeed(tokens, now)
  if (need !== 'REFRESH') return { outcome: need }
  return tokenUpdateOfRefresh(await refresh())
}
