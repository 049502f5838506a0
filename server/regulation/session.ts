/**
 * The punter's session for the regulation calls: the same check as the accounts calls
 * (punter-session-hash header, optional Bearer access token), 401 UNAUTHORIZED when not live.
 */
import { requirePunterSession } from '../auth/session-check'
import type { ServerDeps } from '../deps'

export function requirePunter(deps: Pick<ServerDeps, 'db' | 'data' | 'now' | 'documents'>) {
  return requirePunterSession(deps)
}
