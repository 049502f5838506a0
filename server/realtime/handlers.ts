/**
 * What each client message does on the socket server (spec §4 "Real-time channels", §7), one named
 * handler per message type: AUTH opens the punter side, SET_TREE_CTX / SUBSCRIBE / UNSUBSCRIBE
 * change the events followed (new ones get their snapshot), GI the gambling channel, and
 * WATCH_ON_BET / INACTIVE_SELECTION the bet channel's selections. The rules of one socket's state
 * are in ./connection.ts.
 */
import { authenticate } from '../auth/sessions'
import type { ServerDeps } from '../deps'
import type { Feed } from '../feed'
import { PREVIEW_SESSION_PREFIX } from '../store/preview'
import { followedEvents, MAX_SUBSCRIPTIONS, modeOf, type Connection } from './connection'
import { indexed, type Followers } from './followers'
import { errorFrame, type createSnapshotCache } from './messages'
import type { ClientMessage } from './protocol'
import type { Wire } from './wire'

export interface HandlerContext {
  deps: ServerDeps
  feed: Feed
  followers: Followers
  wire: Wire
  snapshots: ReturnType<typeof createSnapshotCache>
}

type Message<T extends ClientMessage['type']> = Extract<ClientMessage, { type: T }>
export type MessageHandlers = { [T in ClientMessage['type']]: (connection: Connection, message: Message<T>) => void | Promise<void> }

export function createMessageHandlers(context: HandlerContext): MessageHandlers {
  return {
    AUTH: (connection, message) => authenticateSocket(context, connection, message),
    SET_TREE_CTX: (connection, message) => setTreeContext(context, connection, message),
    SUBSCRIBE: (connection, message) => subscribe(context, connection, message),
    UNSUBSCRIBE: (connection, message) => unsubscribe(context, connection, message),
    GI: (connection, message) => gamblingChannel(context, connection, message),
    WATCH_ON_BET: (connection, message) => betChannel(context, connection, message),
    INACTIVE_SELECTION: (connection, message) => betChannel(context, connection, message),
  }
}

/** After a change of a connection's subscriptions: index it and send snapshots of new events. */
function follow({ feed, followers, wire, snapshots }: HandlerContext, connection: Connection, before: Set<string>, changed: Iterable<string>): void {
  for (const id of changed) {
    const mode = modeOf(connection, id)
    indexed(followers.byEvent, id, connection, mode !== undefined)
    const event = mode && feed.event(id)
    if (event && (!before.has(id) || mode === 'FULL')) wire.send(connection, snapshots.frame(event, mode, feed.elapsed(event)))
  }
}

/** The ids the feed knows; the others are named back in an UNKNOWN_EVENT error. */
function knownIds({ feed, wire }: HandlerContext, connection: Connection, ids: string[]): string[] {
  const unknown = ids.filter((id) => !feed.event(id))
  if (unknown.length) wire.send(connection, errorFrame('UNKNOWN_EVENT', 'no such event', { ids: unknown }))
  return ids.filter((id) => !unknown.includes(id))
}

const tooMany = (context: HandlerContext, connection: Connection) =>
  context.wire.send(connection, errorFrame('TOO_MANY_SUBSCRIPTIONS', `at most ${MAX_SUBSCRIPTIONS} events`))

async function authenticateSocket(context: HandlerContext, connection: Connection, message: Message<'AUTH'>): Promise<void> {
  const { deps, followers, wire } = context
  // the messages that follow wait for this check (./message-queue.ts)
  const session = await authenticate(deps.data, message.punterHash, message.accessToken, deps.now())
  if (!followers.all.has(connection)) return // closed meanwhile
  if (!session) return wire.send(connection, errorFrame('UNAUTHORIZED', 'the session is not live'))
  if (connection.punter) indexed(followers.byPunter, connection.punter.punterId, connection, false)
  const preview = message.punterHash.startsWith(PREVIEW_SESSION_PREFIX) ? { sessionHash: message.punterHash, accessToken: message.accessToken } : undefined
  connection.punter = { punterId: session.punterId, sessionId: session.sessionId, ...(preview ? { preview } : {}) }
  indexed(followers.byPunter, session.punterId, connection, true)
  wire.send(connection, JSON.stringify({ type: 'AUTH', status: 'OK' }))
}

function setTreeContext(context: HandlerContext, connection: Connection, message: Message<'SET_TREE_CTX'>): void {
  const before = followedEvents(connection)
  const dropped = message.resetSubscribe ? [...connection.dynamic] : message.unSubscribe
  if (message.resetSubscribe) connection.dynamic.clear()
  for (const id of message.unSubscribe) connection.dynamic.delete(id)
  const added = knownIds(context, connection, message.subscribe)
  if (before.size + added.length > MAX_SUBSCRIPTIONS) return tooMany(context, connection)
  for (const id of added) connection.dynamic.add(id)
  follow(context, connection, before, [...dropped, ...added])
}

function subscribe(context: HandlerContext, connection: Connection, message: Message<'SUBSCRIBE'>): void {
  const before = followedEvents(connection)
  const ids = knownIds(context, connection, message.ids)
  if (before.size + ids.length > MAX_SUBSCRIPTIONS) return tooMany(context, connection)
  // the client decides: FULL replaces SHORT, and a SHORT after FULL is the FULL being dropped
  for (const id of ids) connection.modes.set(id, message.displayMode)
  follow(context, connection, before, ids)
}

function unsubscribe(context: HandlerContext, connection: Connection, message: Message<'UNSUBSCRIBE'>): void {
  const before = followedEvents(connection)
  for (const id of message.ids) if (!message.displayMode || connection.modes.get(id) === message.displayMode) connection.modes.delete(id)
  follow(context, connection, before, message.ids)
}

function gamblingChannel({ followers }: HandlerContext, connection: Connection, message: Message<'GI'>): void {
  connection.gambling = !message.resetSubscribe
  if (connection.gambling) followers.gambling.add(connection)
  else followers.gambling.delete(connection)
}

function betChannel({ followers, wire }: HandlerContext, connection: Connection, message: Message<'WATCH_ON_BET' | 'INACTIVE_SELECTION'>): void {
  if (!connection.punter) return wire.send(connection, errorFrame('UNAUTHORIZED', `${message.type} needs a logged-in punter`))
  const watched = connection.betChannel[message.type]
  const other = message.type === 'WATCH_ON_BET' ? connection.betChannel.INACTIVE_SELECTION : connection.betChannel.WATCH_ON_BET
  if (message.resetSubscribe) for (const id of watched) if (!other.has(id)) indexed(followers.bySelection, id, connection, false)
  if (message.resetSubscribe) watched.clear()
  for (const id of message.ids) {
    watched.add(id)
    indexed(followers.bySelection, id, connection, true)
  }
}
