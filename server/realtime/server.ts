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
 *
 * This file is the wiring; the parts: who follows what (./followers.ts), a client frame to its
 * handler (./dispatch.ts, ./handlers.ts), feed changes out (./fan-out.ts), punter events out
 * (./punter-channel.ts), and the sweep of open sockets' sessions (./session-sweep.ts).
 */
import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import { PLATFORMS } from '../../kernel/documents/kinds'
import type { ServerDeps } from '../deps'
import { feedFor, type Feed } from '../feed'
import { emitPunterEvent } from '../punters/events'
import { newConnection, type Connection, type SocketRole } from './connection'
import { createDispatch } from './dispatch'
import { createFanOut } from './fan-out'
import { createFollowers } from './followers'
import { gamblingEvents, type BigWin } from './gambling'
import { createMessageHandlers } from './handlers'
import { createSnapshotCache } from './messages'
import { watchMirrors } from './mirror'
import { createOutbox } from './outbox'
import { listenToPunterEvents } from './punter-channel'
import { sweepEvery } from './session-sweep'
import { CLOSE, type Wire } from './wire'

export { CLOSE } from './wire'

export const SOCKET_PATHS = { events: '/sockets/v2/events', punter: '/sockets/v2/punter', combined: '/sockets/events' } as const
/** Largest frame a client may send (bytes); a bigger one closes the socket (1009). */
export const MAX_FRAME_BYTES = 16 * 1024
/** How often sessions of open sockets are checked, and the feed is played up to the clock. */
const SWEEP_MS = 1000
const FEED_TICK_MS = 250

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

/** Frames of one turn go out in one write per socket (./outbox.ts); closing, what was queued goes first. */
function socketWire(outbox: ReturnType<typeof createOutbox>): Wire {
  return {
    send: (connection, frame) => outbox.queue(connection.socket, frame),
    close(connection, code, reason) {
      outbox.flush(connection.socket)
      connection.socket.close(code, reason)
    },
  }
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
  const followers = createFollowers()
  const outbox = createOutbox()
  const wire = socketWire(outbox)
  const snapshots = createSnapshotCache()
  const dispatch = createDispatch(deps, createMessageHandlers({ deps, feed, followers, wire, snapshots }), wire)
  let nextId = 1

  wss.on('connection', (socket: WebSocket, _req: IncomingMessage, role: SocketRole, channel: string, jurisdiction: string) => {
    const connection = newConnection(nextId++, socket, role, channel, deps.now())
    connection.jurisdiction = jurisdiction
    followers.all.add(connection)
    socket.on('message', (data, isBinary) => dispatch(connection, data, isBinary))
    socket.on('close', () => followers.forget(connection))
    socket.on('error', () => followers.forget(connection))
  })

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy())
    const asked = roleOf(deps, req)
    if ('status' in asked) return refuse(socket, asked.status, asked.reason)
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req, asked.role, asked.channel, asked.jurisdiction))
  }
  server.on('upgrade', onUpgrade)

  const unsubscribeFeed = feed.subscribe(createFanOut({ followers, wire, snapshots }))
  /** GI: a big win goes, serialised once, to every socket on the gambling channel. */
  const onBigWin = (win: BigWin) => {
    const frame = Buffer.from(JSON.stringify({ type: 'casino', kind: 'bigWin', ...win, at: deps.now() }))
    for (const connection of followers.gambling) wire.send(connection, frame)
  }
  gamblingEvents.on('casino', onBigWin)
  const endSession = (connection: Connection, reason: string) => {
    wire.send(connection, JSON.stringify({ type: 'accountLogout', payload: { reason } }))
    wire.close(connection, CLOSE.sessionEnded, 'SESSION_ENDED')
  }
  const stopPunterEvents = listenToPunterEvents(followers, wire.send, endSession)
  /** A site's new working mirror (an operator's remote config), to its punters' open pages. */
  const stopMirrors = watchMirrors(deps.documents, (jurisdiction, mirrorName) => emitPunterEvent('mirror', { jurisdiction, mirrorName }))
  const timers = [sweepEvery(SWEEP_MS, { deps, followers, wire, endSession }), setInterval(() => feed.advanceTo(deps.now()), FEED_TICK_MS)]
  for (const timer of timers) timer.unref()

  return {
    feed,
    connections: () => followers.all.size,
    async close() {
      for (const timer of timers) clearInterval(timer)
      server.off('upgrade', onUpgrade)
      unsubscribeFeed()
      stopPunterEvents()
      stopMirrors()
      gamblingEvents.off('casino', onBigWin)
      for (const connection of followers.all) outbox.flush(connection.socket)
      await closeGoingAway([...followers.all].map((c) => c.socket))
      await new Promise<void>((done) => wss.close(() => done()))
    },
  }
}
