/**
 * Sessions of open sockets (spec §7 "Real-time"): revoked or expired ones end here, not at the next
 * message (a logout on another instance too). One query for all the sockets' sessions per sweep. A
 * studio preview's punter session has no `auth_sessions` row (it lives in the preview store while
 * its preview and the admin session that made it do), so the preview store is asked about it:
 * looked up among the rows it is "not found", which logged every preview page out within a second
 * of its socket's AUTH. Every verdict is in before any socket is ended.
 */
import { sessionStates } from '../auth/sessions'
import type { ServerDeps } from '../deps'
import { previewPunterSession } from '../store/preview'
import type { Connection } from './connection'
import type { Followers } from './followers'
import { CLOSE, type Wire } from './wire'

/** How long past its access token's time a session's socket stays open (the refresh in flight). */
export const SESSION_GRACE_MS = 60_000

export type SessionVerdict = 'live' | 'ended' | 'expired'

/**
 * A socket's session by its row: gone or revoked is ended (the page logs out); an access token past
 * its time plus SESSION_GRACE_MS is expired, not a logout (the socket closes and the client
 * reconnects with its refreshed session); otherwise live.
 */
export function sessionVerdict(state: { revokedAt: number | null; accessExpiresAt: number } | undefined, now: number): SessionVerdict {
  if (!state || state.revokedAt !== null) return 'ended'
  return now >= state.accessExpiresAt + SESSION_GRACE_MS ? 'expired' : 'live'
}

export interface SweepContext {
  deps: ServerDeps
  followers: Followers
  wire: Wire
  endSession(connection: Connection, reason: string): void
}

export async function sweepSessions({ deps, followers, wire, endSession }: SweepContext): Promise<void> {
  const watched = [...followers.all].filter((connection) => connection.punter).map((connection) => ({ connection, punter: connection.punter! }))
  if (watched.length === 0) return
  const now = deps.now()
  const [states, previewsLive] = await Promise.all([
    sessionStates(deps.data, watched.filter(({ punter }) => !punter.preview).map(({ punter }) => punter.sessionId)),
    Promise.all(watched.map(async ({ punter }) => (punter.preview ? (await previewPunterSession(punter.preview.sessionHash, punter.preview.accessToken, now)) !== undefined : true))),
  ])
  for (const [i, { connection, punter }] of watched.entries()) {
    // closed, or authenticated again, while the query ran: the next sweep sees it
    if (!followers.all.has(connection) || connection.punter !== punter) continue
    if (punter.preview) {
      // the preview ended (its 10 minutes, or the admin signed out): the page goes back to a guest
      if (!previewsLive[i]) endSession(connection, 'SOCKET')
      continue
    }
    const verdict = sessionVerdict(states.get(punter.sessionId), deps.now())
    if (verdict === 'ended') endSession(connection, 'SOCKET')
    else if (verdict === 'expired') wire.close(connection, CLOSE.sessionEnded, 'SESSION_EXPIRED')
  }
}

/** Sweeps every `everyMs`, one sweep at a time: a slow database never piles sweeps up. */
export function sweepEvery(everyMs: number, context: SweepContext): NodeJS.Timeout {
  let sweeping = false
  return setInterval(() => {
    if (sweeping) return
    sweeping = true
    sweepSessions(context)
      .catch((error: unknown) => context.deps.log.warn('realtime.sweep.failed', { error: (error as Error).message }))
      .finally(() => (sweeping = false))
  }, everyMs)
}
