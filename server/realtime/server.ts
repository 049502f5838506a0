/**
 * The socket server (spec §7 "Real-time", issue 14): `ws` on the site's own HTTP server.
 * With IS_SEPARATED_SOCKET_ENABLED in the site's remote config the paths are
 * `/sockets/v2/events?channel={platform}` (the event tree) and `/sockets/v2/punter?channel=…`
 * (account and bets); without it one `/sockets/events?channel=…` carries both. Another path is a
 * 404, a missing or unknown channel a 400, a foreign Origin a 403 — all before the upgrade.
 *
 * Feed changes fan out by subscription (FULL or SHORT per event); punter events of
 * `server/punters/events.ts` go to that punter's authenticated sockets. A session that ends
 * (logout, blocking, expiry without refresh) gets `accountLogout` and the socket is closed.
 */
import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type RawData, type WebSocket } from 'ws'
import { PLATFORMS } from '../../kernel/documents/kinds'
import { authenticate, sessionStates } from '../auth/sessions'
import { isStorageUnavailable } from '../db/database'
import type { ServerDeps } from '../deps'
import { feedFor, type EventUpdate, type Feed } from '../feed'
import { emitPunterEvent, PUNTER_EVENT_TYPES, punterEvents, type PunterEvent } from '../punters/events'
import { PREVIEW_SESSION_PREFIX, previewPunterSession } from '../store/preview'
import { allowedOn, followedEvents, MAX_SUBSCRIPTIONS, MESSAGE_BUDGET, modeOf, newConnection, spend, type Connection, type SocketRole } from './connection'
import { gamblingEvents, type BigWin } from './gambling'
import { createSnapshotCache, errorFrame, updateFrames } from './messages'
import { watchMirrors } from './mirror'
import { createOutbox } from './outbox'
import { parseClientMessage, type ClientMessage } from './protocol'

export const SOCKET_PATHS = { events: '/sockets/v2/events', punter: '/sockets/v2/punter', combined: '/sockets/events' } as const
/** Largest frame a client may send (bytes); a bigger one closes the socket (1009). */
export const MAX_FRAME_BYTES = 16 * 1024
/** How often sessions of open sockets are checked, and the feed is played up to the clock. */
const SWEEP_MS = 1000
const FEED_TICK_MS = 250
const SESSION_GRACE_MS = 60_000
/** Close codes of ours (4000–4999 are the application's). */
export const CLOSE = { sessionEnded: 4001, overBudget: 4008, serverStopping: 1001 } as const

/** How long a stopping server waits for clients to answer its close frame before cutting them. */
export const CLOSE_HANDSHAKE_MS = 500

/** Stopping: every socket gets 1001 "going away" (clients reconnect, to another instance behind a
 * balancer); those that do not answer within CLOSE_HANDSHAKE_MS are cut. */
async function closeGoingAway(sockets: WebSocket[]): Promise<void> {
  const closed = sockets.map((socket) => new Promise<void>((done) => {
    if (socket.readyState === socket.CLOSED) return done()
    socket.once('close', () => done())
    socket.close(CLOSE.serverStopping, 'SERVER_STOPPING')
  }))
  let timer: NodeJS.Timeout | undefined
  await Promise.race([Promise.all(closed), new Promise<void>((done) => (timer = setTimeout(done, CLOSE_HANDSHAKE_MS)))])
  clearTimeout(timer)
  for (const socket of sockets) if (socket.readyState !== socket.CLOSED) socket.terminate()
}

export interface RealtimeServer {
  feed: Feed
  connections(): number
  close(): Promise<void>
}

function refuse(socket: Duplex, status: number, reason: string): void {
  const body = JSON.stringify({ status: 'ERROR', errorCode: reason })
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
}

function separatedSockets(deps: ServerDeps, host: string, platform: string): boolean {
  const site = deps.documents.siteForHost(host)
  const record = deps.documents.resolve('remote-config', 'app', { jurisdiction: site.jurisdiction, locale: site.defaultLocale, platform })
  return (record?.source as { config?: Record<string, unknown> } | undefined)?.config?.IS_SEPARATED_SOCKET_ENABLED === true
}

/** Which socket a handshake asks for, or why it is refused. */
function roleOf(deps: ServerDeps, req: IncomingMessage): { role: SocketRole; channel: string; jurisdiction: string } | { status: number; reason: string } {
  const url = new URL(req.url ?? '/', 'http://socket')
  const host = (req.headers.host ?? '').replace(/:\d+$/, '')
  const channel = url.searchParams.get('channel') ?? ''
  const origin = req.headers.origin
  if (origin !== undefined) {
    let originHost = ''
    try {
      originHost = new URL(origin).host
    } catch {
      // an Origin that is not a URL is foreign
    }
    if (originHost !== req.headers.host) return { status: 403, reason: 'FOREIGN_ORIGIN' }
  }
  const separated = separatedSockets(deps, host, (PLATFORMS as readonly string[]).includes(channel) ? channel : 'web')
  const role: SocketRole | undefined = separated
    ? url.pathname === SOCKET_PATHS.events ? 'events' : url.pathname === SOCKET_PATHS.punter ? 'punter' : undefined
    : url.pathname === SOCKET_PATHS.combined ? 'combined' : undefined
  if (!role) return { status: 404, reason: 'NOT_FOUND' }
  if (!(PLATFORMS as readonly string[]).includes(channel)) return { status: 400, reason: 'UNKNOWN_CHANNEL' }
  return { role, channel, jurisdiction: deps.documents.siteForHost(host).jurisdiction }
}

export function attachRealtime(server: Server, deps: ServerDeps): RealtimeServer {
  const feed = feedFor(deps)
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false })
  const byEvent = new Map<string, Set<Connection>>()
  const bySelection = new Map<string, Set<Connection>>()
  const byPunter = new Map<number, Set<Connection>>()
  const gambling = new Set<Connection>()
  const all = new Set<Connection>()
  let nextId = 1

  /** A frame for many sockets is encoded once (a string would be turned into bytes per socket);
   * frames of one turn go out in one write per socket (outbox.ts). */
  const outbox = createOutbox()
  const send = (connection: Connection, frame: string | Buffer) => outbox.queue(connection.socket, frame)
  /** Closing: what was queued for the socket goes first. */
  const closeSocket = (connection: Connection, code: number, reason: string) => {
    outbox.flush(connection.socket)
    connection.socket.close(code, reason)
  }
  const encoded = (frame: string | undefined) => (frame === undefined ? undefined : Buffer.from(frame))
  const index = <K>(map: Map<K, Set<Connection>>, key: K, connection: Connection, on: boolean) => {
    let set = map.get(key)
    if (on) {
      if (!set) map.set(key, (set = new Set()))
      set.add(connection)
    } else if (set) {
      set.delete(connection)
      if (set.size === 0) map.delete(key)
    }
  }

  const snapshots = createSnapshotCache()
  /** After a change of a connection's subscriptions: index it and send snapshots of new events. */
  const follow = (connection: Connection, before: Set<string>, changed: Iterable<string>) => {
    for (const id of changed) {
      const mode = modeOf(connection, id)
      index(byEvent, id, connection, mode !== undefined)
      const event = mode && feed.event(id)
      if (event && (!before.has(id) || mode === 'FULL')) send(connection, snapshots.frame(event, mode, feed.elapsed(event)))
    }
  }

  const unknownIds = (connection: Connection, ids: string[]) => {
    const unknown = ids.filter((id) => !feed.event(id))
    if (unknown.length) send(connection, errorFrame('UNKNOWN_EVENT', 'no such event', { ids: unknown }))
    return ids.filter((id) => !unknown.includes(id))
  }

  const handlers: { [T in ClientMessage['type']]: (connection: Connection, message: Extract<ClientMessage, { type: T }>) => void | Promise<void> } = {
    async AUTH(connection, message) {
      // the messages that follow wait for this check (see `pending` below)
      const session = await authenticate(deps.data, message.punterHash, message.accessToken, deps.now())
      if (!all.has(connection)) return // closed meanwhile
      if (!session) return send(connection, errorFrame('UNAUTHORIZED', 'the session is not live'))
      if (connection.punter) index(byPunter, connection.punter.punterId, connection, false)
      const preview = message.punterHash.startsWith(PREVIEW_SESSION_PREFIX) ? { sessionHash: message.punterHash, accessToken: message.accessToken } : undefined
      connection.punter = { punterId: session.punterId, sessionId: session.sessionId, ...(preview ? { preview } : {}) }
      index(byPunter, session.punterId, connection, true)
      send(connection, JSON.stringify({ type: 'AUTH', status: 'OK' }))
    },
    SET_TREE_CTX(connection, message) {
      const before = followedEvents(connection)
      const dropped = message.resetSubscribe ? [...connection.dynamic] : message.unSubscribe
      if (message.resetSubscribe) connection.dynamic.clear()
      for (const id of message.unSubscribe) connection.dynamic.delete(id)
      const added = unknownIds(connection, message.subscribe)
      if (before.size + added.length > MAX_SUBSCRIPTIONS) return send(connection, errorFrame('TOO_MANY_SUBSCRIPTIONS', `at most ${MAX_SUBSCRIPTIONS} events`))
      for (const id of added) connection.dynamic.add(id)
      follow(connection, before, [...dropped, ...added])
    },
    SUBSCRIBE(connection, message) {
      const before = followedEvents(connection)
      const ids = unknownIds(connection, message.ids)
      if (before.size + ids.length > MAX_SUBSCRIPTIONS) return send(connection, errorFrame('TOO_MANY_SUBSCRIPTIONS', `at most ${MAX_SUBSCRIPTIONS} events`))
      // the client decides: FULL replaces SHORT, and a SHORT after FULL is the FULL being dropped
      for (const id of ids) connection.modes.set(id, message.displayMode)
      follow(connection, before, ids)
    },
    UNSUBSCRIBE(connection, message) {
      const before = followedEvents(connection)
      for (const id of message.ids) if (!message.displayMode || connection.modes.get(id) === message.displayMode) connection.modes.delete(id)
      follow(connection, before, message.ids)
    },
    GI(connection, message) {
      connection.gambling = !message.resetSubscribe
      if (connection.gambling) gambling.add(connection)
      else gambling.delete(connection)
    },
    WATCH_ON_BET: (connection, message) => betChannel(connection, message),
    INACTIVE_SELECTION: (connection, message) => betChannel(connection, message),
  }

  const betChannel = (connection: Connection, message: Extract<ClientMessage, { type: 'WATCH_ON_BET' | 'INACTIVE_SELECTION' }>) => {
    if (!connection.punter) return send(connection, errorFrame('UNAUTHORIZED', `${message.type} needs a logged-in punter`))
    const watched = connection.betChannel[message.type]
    const other = message.type === 'WATCH_ON_BET' ? connection.betChannel.INACTIVE_SELECTION : connection.betChannel.WATCH_ON_BET
    if (message.resetSubscribe) for (const id of watched) if (!other.has(id)) index(bySelection, id, connection, false)
    if (message.resetSubscribe) watched.clear()
    for (const id of message.ids) {
      watched.add(id)
      index(bySelection, id, connection, true)
    }
  }

  const receive = (connection: Connection, data: RawData, isBinary: boolean): void | Promise<void> => {
    if (!spend(connection, deps.now())) {
      if (connection.budget.refused >= MESSAGE_BUDGET.refusalsBeforeClose) return closeSocket(connection, CLOSE.overBudget, 'TOO_MANY_MESSAGES')
      return send(connection, errorFrame('TOO_MANY_MESSAGES', `at most ${MESSAGE_BUDGET.perSecond} messages a second`))
    }
    if (isBinary) return send(connection, errorFrame('MALFORMED_MESSAGE', 'messages are JSON text'))
    const parsed = parseClientMessage(data.toString())
    if (!parsed.ok) return send(connection, errorFrame(parsed.code, parsed.message))
    const { message } = parsed
    if (!allowedOn(connection.role, message.type)) return send(connection, errorFrame('WRONG_SOCKET', `${message.type} goes on the other socket`))
    return (handlers[message.type] as (c: Connection, m: ClientMessage) => void | Promise<void>)(connection, message)
  }

  /**
   * A message whose handler waits for the database (AUTH): the connection's later messages wait
   * for it, so they are handled in the order they came (a subscription right after AUTH sees
   * the punter). Connections with nothing pending run their messages at once.
   */
  const pending = new WeakMap<Connection, Promise<void>>()
  const failed = (connection: Connection, error: unknown) => {
    const unavailable = isStorageUnavailable(error)
    deps.log[unavailable ? 'warn' : 'error']('realtime.message.failed', { error: (error as Error).message })
    send(connection, errorFrame(unavailable ? 'STORAGE_UNAVAILABLE' : 'INTERNAL_ERROR'))
  }
  const handle = (connection: Connection, data: RawData, isBinary: boolean): Promise<void> | undefined => {
    try {
      return receive(connection, data, isBinary)?.catch((error: unknown) => failed(connection, error))
    } catch (error) {
      failed(connection, error)
    }
  }
  const wait = (connection: Connection, done: Promise<void>) => {
    const tail: Promise<void> = done.finally(() => {
      if (pending.get(connection) === tail) pending.delete(connection)
    })
    pending.set(connection, tail)
  }

  const forget = (connection: Connection) => {
    all.delete(connection)
    gambling.delete(connection)
    for (const id of followedEvents(connection)) index(byEvent, id, connection, false)
    for (const set of Object.values(connection.betChannel)) for (const id of set) index(bySelection, id, connection, false)
    if (connection.punter) index(byPunter, connection.punter.punterId, connection, false)
  }

  wss.on('connection', (socket: WebSocket, _req: IncomingMessage, role: SocketRole, channel: string, jurisdiction: string) => {
    const connection = newConnection(nextId++, socket, role, channel, deps.now())
    connection.jurisdiction = jurisdiction
    all.add(connection)
    socket.on('message', (data, isBinary) => {
      const before = pending.get(connection)
      if (before) return wait(connection, before.then(() => handle(connection, data, isBinary)))
      const done = handle(connection, data, isBinary)
      if (done) wait(connection, done)
    })
    socket.on('close', () => forget(connection))
    socket.on('error', () => forget(connection))
  })

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy())
    const asked = roleOf(deps, req)
    if ('status' in asked) return refuse(socket, asked.status, asked.reason)
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req, asked.role, asked.channel, asked.jurisdiction))
  }
  server.on('upgrade', onUpgrade)

  const fanOut = (updates: EventUpdate[]) => {
    for (const update of updates) {
      snapshots.changed(update.eventId)
      const followers = byEvent.get(update.eventId)
      if (followers) {
        const text = updateFrames(update)
        const full = encoded(text.full)!
        const frames = { full, short: text.short === text.full ? full : encoded(text.short) }
        for (const connection of followers) {
          const frame = modeOf(connection, update.eventId) === 'FULL' ? frames.full : frames.short
          if (frame) send(connection, frame)
        }
      }
      for (const change of update.selections ?? []) {
        const watchers = bySelection.get(change.id)
        if (!watchers) continue
        if (change.status === 'OPEN') {
          // a watched pick's price or reopening: only for the bet slip's WATCH_ON_BET
          const frame = JSON.stringify({ type: 'WATCH_ON_BET', selectionId: change.id, eventId: update.eventId, status: change.status, price: change.price, previous: change.previous })
          for (const connection of watchers) if (connection.betChannel.WATCH_ON_BET.has(change.id)) send(connection, frame)
          continue
        }
        const frame = JSON.stringify({ type: 'INACTIVE_SELECTION', selectionId: change.id, eventId: update.eventId, status: change.status, ...(change.result ? { result: change.result } : {}) })
        for (const connection of watchers) send(connection, frame)
      }
    }
  }
  const unsubscribeFeed = feed.subscribe(fanOut)

  /** GI: a big win goes, serialised once, to every socket on the gambling channel. */
  const onBigWin = (win: BigWin) => {
    const frame = Buffer.from(JSON.stringify({ type: 'casino', kind: 'bigWin', ...win, at: deps.now() }))
    for (const connection of gambling) send(connection, frame)
  }
  gamblingEvents.on('casino', onBigWin)

  const endSession = (connection: Connection, reason: string) => {
    send(connection, JSON.stringify({ type: 'accountLogout', payload: { reason } }))
    closeSocket(connection, CLOSE.sessionEnded, 'SESSION_ENDED')
  }

  const punterListeners = PUNTER_EVENT_TYPES.map((type) => {
    const listener = (event: PunterEvent) => {
      const { punterId, ...payload } = event
      // an event without a punter is site-wide: every punter socket, or those of its jurisdiction
      const site = typeof payload.jurisdiction === 'string' ? payload.jurisdiction : undefined
      const targets = punterId === undefined ? [...all].filter((c) => c.punter && (site === undefined || c.jurisdiction === site)) : [...(byPunter.get(punterId) ?? [])]
      const frame = JSON.stringify({ type, payload })
      for (const connection of targets) {
        if (connection.role === 'events') continue
        if (type === 'accountLogout') endSession(connection, String(payload.reason ?? 'SOCKET'))
        else send(connection, frame)
      }
    }
    punterEvents.on(type, listener)
    return () => punterEvents.off(type, listener)
  })

  /** A site's new working mirror (an operator's remote config), to its punters' open pages. */
  const stopMirrors = watchMirrors(deps.documents, (jurisdiction, mirrorName) => emitPunterEvent('mirror', { jurisdiction, mirrorName }))

  /** Sessions of open sockets: revoked or expired ones end here, not at the next message (a
   * logout on another instance too). One query for all the sockets' sessions per sweep. A studio
   * preview's punter session has no `auth_sessions` row (it lives in the preview store while its
   * preview and the admin session that made it do), so the preview store is asked about it:
   * looked up among the rows it is "not found", which logged every preview page out within a
   * second of its socket's AUTH. Every verdict is in before any socket is ended. */
  const sweep = async () => {
    const watched = [...all].filter((connection) => connection.punter).map((connection) => ({ connection, punter: connection.punter! }))
    if (watched.length === 0) return
    const now = deps.now()
    const [states, previewsLive] = await Promise.all([
      sessionStates(deps.data, watched.filter(({ punter }) => !punter.preview).map(({ punter }) => punter.sessionId)),
      Promise.all(watched.map(async ({ punter }) => (punter.preview ? (await previewPunterSession(punter.preview.sessionHash, punter.preview.accessToken, now)) !== undefined : true))),
    ])
    for (const [i, { connection, punter }] of watched.entries()) {
      // closed, or authenticated again, while the query ran: the next sweep sees it
      if (!all.has(connection) || connection.punter !== punter) continue
      if (punter.preview) {
        // the preview ended (its 10 minutes, or the admin signed out): the page goes back to a guest
        if (!previewsLive[i]) endSession(connection, 'SOCKET')
        continue
      }
      const state = states.get(punter.sessionId)
      if (!state || state.revokedAt !== null) endSession(connection, 'SOCKET')
      // an access token past its time (plus a minute for the refresh in flight) is not a logout:
      // the socket closes and the client reconnects with its refreshed session
      else if (deps.now() >= state.accessExpiresAt + SESSION_GRACE_MS) closeSocket(connection, CLOSE.sessionEnded, 'SESSION_EXPIRED')
    }
  }
  /** One sweep at a time: a slow database never piles sweeps up. */
  let sweeping = false
  const timers = [
    setInterval(() => {
      if (sweeping) return
      sweeping = true
      sweep()
        .catch((error: unknown) => deps.log.warn('realtime.sweep.failed', { error: (error as Error).message }))
        .finally(() => (sweeping = false))
    }, SWEEP_MS),
    setInterval(() => feed.advanceTo(deps.now()), FEED_TICK_MS),
  ]
  for (const timer of timers) timer.unref()

  return {
    feed,
    connections: () => all.size,
    async close() {
      for (const timer of timers) clearInterval(timer)
      server.off('upgrade', onUpgrade)
      unsubscribeFeed()
      for (const off of punterListeners) off()
      stopMirrors()
      gamblingEvents.off('casino', onBigWin)
      for (const connection of all) outbox.flush(connection.socket)
      await closeGoingAway([...all].map((c) => c.socket))
      await new Promise<void>((done) => wss.close(() => done()))
    },
  }
}
