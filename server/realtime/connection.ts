/**
 * One socket's state and what its messages do (spec §4 "Real-time channels", §7):
 * - SET_TREE_CTX: the dynamic subscriptions (events shown in lists), as a diff; resetSubscribe
 *   clears them first. Each subscribed event gets a SHORT snapshot.
 * - SUBSCRIBE FULL|SHORT ids: event pages; FULL replaces SHORT for the same ids. UNSUBSCRIBE drops.
 * - GI: the gambling channel (casino messages), subscribed once; resetSubscribe drops it.
 * - WATCH_ON_BET / INACTIVE_SELECTION (bet channel, punter only): notices about these selections.
 * - AUTH: opens the punter side of the socket for a live session.
 * Every message spends from a per-connection budget (a token bucket on the server's clock); over
 * budget a message is refused with TOO_MANY_MESSAGES, and a client that keeps going is closed.
 */
import type { WebSocket } from 'ws'
import type { BetChannelType, ClientMessage, DisplayMode } from './protocol'

export type SocketRole = 'events' | 'punter' | 'combined'

/** Budget: a burst of 40 messages, refilled at 20 a second; 200 refusals close the socket. */
export const MESSAGE_BUDGET = { burst: 40, perSecond: 20, refusalsBeforeClose: 200 } as const
/** Events one connection may follow at once. */
export const MAX_SUBSCRIPTIONS = 500

export interface Connection {
  id: number
  socket: WebSocket
  role: SocketRole
  channel: string
  /** The site's jurisdiction (from the handshake's host): site-wide events such as `mirror`. */
  jurisdiction?: string
  /** `preview`: a studio preview's read-only punter session (server/store/preview.ts), which has no
   * `auth_sessions` row; the session sweep asks the preview store about it instead. */
  punter?: { punterId: number; sessionId: string; preview?: { sessionHash: string; accessToken: string } }
  dynamic: Set<string>
  modes: Map<string, DisplayMode>
  gambling: boolean
  betChannel: Record<BetChannelType, Set<string>>
  budget: { tokens: number; at: number; refused: number }
}

export function newConnection(id: number, socket: WebSocket, role: SocketRole, channel: string, now: number): Connection {
  return {
    id,
    socket,
    role,
    channel,
    dynamic: new Set(),
    modes: new Map(),
    gambling: false,
    betChannel: { WATCH_ON_BET: new Set(), INACTIVE_SELECTION: new Set() },
    budget: { tokens: MESSAGE_BUDGET.burst, at: now, refused: 0 },
  }
}

/** Spends one message from the budget; false when there is none left. */
export function spend(connection: Connection, now: number): boolean {
  const budget = connection.budget
  budget.tokens = Math.min(MESSAGE_BUDGET.burst, budget.tokens + (Math.max(0, now - budget.at) / 1000) * MESSAGE_BUDGET.perSecond)
  budget.at = now
  if (budget.tokens >= 1) {
    budget.tokens -= 1
    return true
  }
  budget.refused++
  return false
}

/** The mode an event is followed in, if it is followed. */
export function modeOf(connection: Connection, eventId: string): DisplayMode | undefined {
  const explicit = connection.modes.get(eventId)
  if (explicit) return explicit
  return connection.dynamic.has(eventId) ? 'SHORT' : undefined
}

export const followedEvents = (connection: Connection): Set<string> => new Set([...connection.dynamic, ...connection.modes.keys()])

/** Which messages a socket of this role takes (separated sockets split events from bets). */
export function allowedOn(role: SocketRole, type: ClientMessage['type']): boolean {
  if (role === 'combined') return true
  const punterOnly = type === 'WATCH_ON_BET' || type === 'INACTIVE_SELECTION'
  const eventsOnly = type === 'SET_TREE_CTX' || type === 'SUBSCRIBE' || type === 'UNSUBSCRIBE' || type === 'GI'
  return role === 'punter' ? !eventsOnly : !punterOnly
}
