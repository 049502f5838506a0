/**
 * The open-profile token (spec §7 `POST /punter/open-profile {openToken}`): issued by the login
 * that refuses a punter whose self-exclusion has ended, exchanged once for a session. Its own
 * module because the login (server/regulation/self-exclusion.ts) issues it and the credentials
 * router redeems it; neither should load the other.
 */
import type { DataLayer } from '../db/data-layer'
import { SECRET_RULES, newToken, storeSecret } from './store'

/** An open-profile token for a punter whose login was refused (self-exclusion): single use, 15 minutes. */
export async function issueOpenProfileToken(data: DataLayer, punterId: number, now: number): Promise<string> {
  const token = newToken()
  await storeSecret(data, { kind: 'open-profile', punterId, token, ttlMs: SECRET_RULES.openProfileMs, supersede: true }, now)
  return token
}
