/**
 * Keeps this tab's session in line with the one all tabs share (see ./session-tabs): takes over
 * another tab's login or rotated tokens, and follows its logout.
 */
import { LOGOUT_REASONS, type LogoutReason } from '../../kernel/core/action-choices'
import type { StoredSession } from '../core/stores'
import { sessionFieldsOf, startTimer, type SessionCore } from './session-core'
import { endLocally } from './session-logout'

/** The shared session is not the one this tab holds (other tokens or another hash). */
export const differs = (core: SessionCore, stored: StoredSession): boolean =>
  stored.accessToken !== core.session().accessToken || stored.refreshToken !== core.session().refreshToken || stored.sessionHash !== core.session().sessionHash

/** Takes over the session another tab stored: same session → new tokens only; another one → a
 * new punter here too (status 'restoring' until its heartbeat is in). */
export function adopt(core: SessionCore, stored: StoredSession): void {
  const sameSession = core.holdsSession() && stored.sessionHash === core.session().sessionHash
  core.session().setSession(sessionFieldsOf(stored))
  core.session().setSessionHash(stored.sessionHash)
  startTimer(core)
  if (sameSession) return
  core.stores.user.getState().clearUser()
  core.session().setStatus('restoring')
  void core.controller.loadUser()
}

/** Brings this tab in line with the shared storage. `reason`: why the other tab logged out. */
export function syncWithTabs(core: SessionCore, reason: string | null): void {
  const stored = core.tabs.read()
  if (!stored) {
    if (core.holdsSession()) void endLocally(core, isLogoutReason(reason) ? reason : null)
    return
  }
  if (differs(core, stored)) adopt(core, stored)
  else if (core.expired()) void core.controller.updateTokens()
}

const isLogoutReason = (value: string | null): value is LogoutReason => value !== null && (LOGOUT_REASONS as readonly string[]).includes(value)
