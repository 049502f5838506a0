/**
 * An unauthorised answer (HTTP 401, INVALID_SESSION_HASH; spec §4) ends the session once, with
 * reason AT_EXPIRED and the session-expired popup, unless the request only carried a token since
 * replaced (refreshed here or in another tab): then the gateway sends it again.
 */
import type { SentCredentials } from '../core/gateway'
import type { SessionFields } from '../core/stores'
import { REFRESH_PATH, type AuthController } from './session-contract'
import type { SessionCore } from './session-core'
import { endLocally } from './session-logout'
import { adopt, differs } from './session-tab-sync'

/** An unauthorised answer is the session's to act on: not a refused refresh (the refresh's own
 * outcome, RT_EXPIRED), not the refresh call, not a guest call (no token, no hash sent). */
export function unauthorizedConcernsSession(code: string, sent: SentCredentials, path: string): boolean {
  return code !== 'INVALID_REFRESH_TOKEN' && !path.endsWith(REFRESH_PATH) && Boolean(sent.accessToken || sent.sessionHash)
}

/**
 * What a refused request means, judged against the session held now: it carried credentials since
 * replaced → 'retry'; the held ones, expired, with a refresh token left (the refresh timer was late,
 * a sleeping device) → 'refresh'; the held ones otherwise → 'dead'.
 */
export function refusedCredentialsVerdict(
  held: Pick<SessionFields, 'accessToken' | 'refreshToken'> & { sessionHash: string | null },
  sent: SentCredentials,
  expired: boolean,
): 'retry' | 'refresh' | 'dead' {
  if (held.accessToken !== sent.accessToken || held.sessionHash !== sent.sessionHash) return 'retry'
  return expired && held.refreshToken ? 'refresh' : 'dead'
}

/** Inside the lock: adopts what another tab stored first, then judges; 'ended' when no tab holds a session. */
async function verdictInLock(core: SessionCore, sent: SentCredentials): Promise<'ended' | 'retry' | 'refresh' | 'dead'> {
  return core.tabs.withLock(async () => {
    const stored = core.tabs.read()
    if (!stored) return 'ended' as const
    if (differs(core, stored)) adopt(core, stored)
    return refusedCredentialsVerdict(core.session(), sent, core.expired())
  })
}

/** The controller's `handleUnauthorized`. */
export function unauthorizedMethods(core: SessionCore): Pick<AuthController, 'handleUnauthorized'> {
  return {
    async handleUnauthorized(code, sent, path = '') {
      if (!unauthorizedConcernsSession(code, sent, path) || !core.holdsSession() || core.ending) return undefined
      if (core.refreshing) await core.refreshing
      const verdict = await verdictInLock(core, sent)
      if (verdict === 'retry') return core.holdsSession() ? 'retry' : undefined
      if (verdict === 'ended') return void (core.holdsSession() && (await endLocally(core, null)))
      if (verdict === 'refresh') return (await core.controller.updateTokens()).outcome === 'UPDATED_TOKENS' ? 'retry' : undefined
      await core.controller.logout('AT_EXPIRED')
      return undefined
    },
  }
}
