/**
 * Where the punter's session stands, for the header and profile panel. The session store says it
 * ('restoring' while a stored session's user data loads, then 'punter'; 'guest' without one); an
 * older store without that field is read the same way from the token and the user data, so the
 * header never shows guest buttons to a punter whose page is still loading.
 */
import { useStore } from 'zustand'
import { useRuntime } from '../runtime'

export type SessionStatus = 'restoring' | 'guest' | 'punter'
const STATUSES: readonly string[] = ['restoring', 'guest', 'punter']

export function sessionStatusOf(declared: unknown, hasToken: boolean, hasUser: boolean): SessionStatus {
  if (typeof declared === 'string' && STATUSES.includes(declared)) return declared as SessionStatus
  if (!hasToken) return 'guest'
  return hasUser ? 'punter' : 'restoring'
}

export function useSessionStatus(): SessionStatus {
  const { stores } = useRuntime()
  const declared = useStore(stores.session, (s) => (s as { status?: unknown }).status)
  const hasToken = useStore(stores.session, (s) => Boolean(s.accessToken))
  const hasUser = useStore(stores.user, (s) => s.data !== null)
  return sessionStatusOf(declared, hasToken, hasUser)
}
