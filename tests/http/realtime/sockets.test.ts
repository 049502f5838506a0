/**
 * The socket server over real sockets (spec §7 "Real-time", issue 14 item 1): paths per remote
 * config, handshake refusals, bad frames, the message budget, subscriptions and punter events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findPunterByLogin } from '../../../server/punters/repository'
import WebSocket from 'ws'
import { feedFor } from '../../../server/feed'
import { revokeAllSessions } from '../../../server/auth/sessions'
import { emitPunterEvent } from '../../../server/punters/events'
import { MESSAGE_BUDGET } from '../../../server/realtime/connection'
import { startAuthServer, type AuthTestServer } from '../auth/support'
import { openSocketClient, type SocketClient } from '../../support/socket-client'

let server: AuthTestServer

beforeAll(async () => {
  server = await startAuthServer()
})
afterAll(async () => {
  await server?.dispose()
})

type Client = SocketClient
const open = (path: string, host = 'localhost') => openSocketClient(server.port, path, host)

/** Every frame sent before has been handled by the server once its pong is back. */
const roundTrip = (client: Client) => client.roundTrip()

function handshakeStatus(path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((done) => {
    const socket = new WebSocket(`ws://127.0.0.1:${server.port}${path}`, { headers })
    socket.on('unexpected-response', (_req, res) => {
      done(res.statusCode ?? 0)
      socket.terminate()
    })
    socket.on('open', () => {
      done(101)
      socket.close()
    })
    socket.on('error', () => undefined)
  })
}

describe('socket paths follow IS_SEPARATED_SOCKET_ENABLED (spec §7)', () => {
  it('a site with separated sockets serves /sockets/v2/events and /sockets/v2/punter, not /sockets/events', async () => {
    expect(await handshakeStatus('/sockets/v2/events?channel=web')).toBe(101)
    expect(await handshakeStatus('/sockets/v2/punter?channel=web')).toBe(101)
    expect(await handshakeStatus('/sockets/events?channel=web')).toBe(404)
  })

  it('a site without (Russia) serves one /sockets/events', async () => {
    const host = { host: `russia.localhost:${server.port}` }
    expect(await handshakeStatus('/sockets/events?channel=web', host)).toBe(101)
    expect(await handshakeStatus('/sockets/v2/events?channel=web', host)).toBe(404)
  })

  it('a missing or unknown channel is a 400 and a foreign origin a 403, before any upgrade', async () => {
    expect(await handshakeStatus('/sockets/v2/events')).toBe(400)
    expect(await handshakeStatus('/sockets/v2/events?channel=desktop')).toBe(400)
    expect(await handshakeStatus('/sockets/v2/events?channel=web', { origin: 'https://evil.example' })).toBe(403)
  })
})

describe('bad messages get an error frame, never a crash', () => {
  it.each([
    ['not JSON', 'MALFORMED_MESSAGE', '{"type":'],
    ['a list', 'MALFORMED_MESSAGE', '[1,2]'],
    ['an unknown type', 'UNKNOWN_MESSAGE_TYPE', { type: 'DROP_TABLES' }],
    ['a SUBSCRIBE without a display mode', 'INVALID_MESSAGE', { type: 'SUBSCRIBE', ids: ['e1'] }],
    ['ids that are not ids', 'INVALID_MESSAGE', { type: 'SUBSCRIBE', displayMode: 'FULL', ids: ['<script>'] }],
    ['too many ids', 'INVALID_MESSAGE', { type: 'SET_TREE_CTX', subscribe: Array.from({ length: 201 }, (_, i) => `e${i}`) }],
    ['an event that does not exist', 'UNKNOWN_EVENT', { type: 'SUBSCRIBE', displayMode: 'SHORT', ids: ['e1'] }],
    ['a bet message on the events socket', 'WRONG_SOCKET', { type: 'WATCH_ON_BET', ids: [] }],
  ])('%s → %s, and the socket keeps working', async (_name, code, message) => {
    const client = await open('/sockets/v2/events?channel=web')
    client.send(message)
    expect((await client.next((f) => f.type === 'ERROR')).errorCode).toBe(code)
    const live = feedFor(server.deps).events({ state: 'live' })[0]
    client.send({ type: 'SUBSCRIBE', displayMode: 'SHORT', ids: [live.id] })
    expect((await client.next((f) => f.type === 'EVENT')).eventId).toBe(live.id)
    client.socket.close()
  })

  it('a binary frame and a frame over 16 KB are refused', async () => {
    const client = await open('/sockets/v2/events?channel=web')
    client.socket.send(Buffer.from([1, 2, 3]))
    expect((await client.next((f) => f.type === 'ERROR')).errorCode).toBe('MALFORMED_MESSAGE')
    client.send({ type: 'GI', padding: 'x'.repeat(17 * 1024) })
    expect(await client.closed).toBe(1009)
  })
})

describe('per-connection message budget', () => {
  it(`the ${MESSAGE_BUDGET.burst + 1}th message at one instant is refused with TOO_MANY_MESSAGES; time refills the budget`, async () => {
    const client = await open('/sockets/v2/events?channel=web')
    for (let i = 0; i <= MESSAGE_BUDGET.burst; i++) client.send({ type: 'GI' })
    expect((await client.next((f) => f.type === 'ERROR')).errorCode).toBe('TOO_MANY_MESSAGES')
    server.clock.now += 1000
    const live = feedFor(server.deps).events({ state: 'live' })[0]
    client.send({ type: 'SUBSCRIBE', displayMode: 'SHORT', ids: [live.id] })
    expect((await client.next((f) => f.type === 'EVENT')).eventId).toBe(live.id)
    client.socket.close()
  })

  it('a client that keeps sending over budget is closed (4008)', async () => {
    const client = await open('/sockets/v2/events?channel=web')
    for (let i = 0; i < MESSAGE_BUDGET.burst + MESSAGE_BUDGET.refusalsBeforeClose + 5; i++) client.send({ type: 'GI' })
    expect(await client.closed).toBe(4008)
  })
})

describe('event subscriptions: snapshots, then updates by display mode', () => {
  it('SUBSCRIBE FULL gets every market and every price change; SHORT only the main market', async () => {
    const feed = feedFor(server.deps)
    const event = feed.events({ section: 'sport', state: 'live' }).find((e) => e.markets.length > 1)!
    const full = await open('/sockets/v2/events?channel=web')
    const short = await open('/sockets/v2/events?channel=web')
    full.send({ type: 'SUBSCRIBE', displayMode: 'FULL', ids: [event.id] })
    short.send({ type: 'SET_TREE_CTX', subscribe: [event.id] })
    expect((await full.next((f) => f.type === 'EVENT')).event.markets).toHaveLength(event.markets.length)
    expect((await short.next((f) => f.type === 'EVENT')).event.markets).toHaveLength(1)

    const other = event.markets[1].selections[0]
    feed.setPrice(other.id, other.price + 0.5)
    const main = event.markets[0].selections[0]
    feed.setPrice(main.id, main.price + 0.25)
    const mainUpdate = (f: any) => f.type === 'EVENT_UPDATE' && f.selections?.some((s: any) => s.id === main.id)
    expect((await full.next(mainUpdate)).treeId).toBe(event.treeId)
    await short.next(mainUpdate)
    expect(full.frames.some((f) => f.selections?.some((s: any) => s.id === other.id))).toBe(true)
    expect(short.frames.some((f) => f.selections?.some((s: any) => s.id === other.id))).toBe(false)

    short.send({ type: 'SET_TREE_CTX', unSubscribe: [event.id] })
    full.send({ type: 'UNSUBSCRIBE', ids: [event.id] })
    await roundTrip(short)
    const before = short.frames.length
    feed.setPrice(main.id, main.price + 0.5)
    full.send({ type: 'GI' })
    await roundTrip(full)
    expect(short.frames.length).toBe(before)
    full.socket.close()
    short.socket.close()
  })
})

describe('the punter socket: authenticated by the session', () => {
  it('bet-channel messages need a live session; a wrong token is UNAUTHORIZED', async () => {
    const client = await open('/sockets/v2/punter?channel=web')
    client.send({ type: 'WATCH_ON_BET', ids: [] })
    expect((await client.next((f) => f.type === 'ERROR')).errorCode).toBe('UNAUTHORIZED')
    client.send({ type: 'AUTH', punterHash: 'nope', accessToken: 'nope' })
    expect((await client.next((f) => f.type === 'ERROR' && f.message?.includes('session'))).errorCode).toBe('UNAUTHORIZED')
    client.socket.close()
  })

  it('after AUTH the punter gets accountUpdate; INACTIVE_SELECTION tells when a watched selection is suspended', async () => {
    const login = await server.login('opened@demo.parlay.test')
    const { punterHash, accessToken } = login.json.payload
    const client = await open('/sockets/v2/punter?channel=web')
    client.send({ type: 'AUTH', punterHash, accessToken })
    await client.next((f) => f.type === 'AUTH' && f.status === 'OK')
    const punterId = (await findPunterByLogin(server.deps.data, 'curacao', 'email', 'opened@demo.parlay.test'))!.id
    emitPunterEvent('accountUpdate', { punterId, balance: { mainBalance: 90 } })
    emitPunterEvent('accountUpdate', { punterId: punterId + 1000, balance: { mainBalance: 1 } })
    expect((await client.next((f) => f.type === 'accountUpdate')).payload).toEqual({ balance: { mainBalance: 90 } })

    const feed = feedFor(server.deps)
    const event = feed.events({ state: 'live' }).at(-1)!
    const selection = event.markets[0].selections[0].id
    client.send({ type: 'INACTIVE_SELECTION', ids: [selection] })
    await roundTrip(client)
    feed.hold(event.id, true)
    expect(await client.next((f) => f.type === 'INACTIVE_SELECTION')).toMatchObject({ selectionId: selection, status: 'SUSPENDED' })
    feed.hold(event.id, false)
    expect(client.frames.filter((f) => f.type === 'accountUpdate')).toHaveLength(1)
    client.socket.close()
  })

  it('WATCH_ON_BET (the bet slip’s picks): a suspension comes as INACTIVE_SELECTION, a new price or the reopening as WATCH_ON_BET; selections not watched send nothing', async () => {
    const login = await server.login('opened@demo.parlay.test')
    const { punterHash, accessToken } = login.json.payload
    const client = await open('/sockets/v2/punter?channel=web')
    client.send({ type: 'AUTH', punterHash, accessToken })
    await client.next((f) => f.type === 'AUTH' && f.status === 'OK')
    const feed = feedFor(server.deps)
    const [event, other] = feed.events({ state: 'live' }).slice(-2)
    const selection = event.markets[0].selections[0].id
    client.send({ type: 'WATCH_ON_BET', ids: [selection], resetSubscribe: true })
    await roundTrip(client)
    feed.setPrice(other.markets[0].selections[0].id, 3.33)
    feed.hold(event.id, true)
    expect(await client.next((f) => f.type === 'INACTIVE_SELECTION')).toMatchObject({ selectionId: selection, status: 'SUSPENDED' })
    feed.hold(event.id, false)
    expect(await client.next((f) => f.type === 'WATCH_ON_BET')).toMatchObject({ selectionId: selection, status: 'OPEN' })
    feed.setPrice(selection, 4.44)
    expect(await client.next((f) => f.type === 'WATCH_ON_BET' && f.price === 4.44)).toMatchObject({ selectionId: selection, status: 'OPEN' })
    expect(client.frames.some((f) => f.selectionId === other.markets[0].selections[0].id)).toBe(false)
    client.socket.close()
  })

  it('GI (the gambling channel): a subscribed socket gets each big win (≥ ×10) as a casino message, without names or amounts; a small win sends nothing; resetSubscribe stops them', async () => {
    const { announceRound } = await import('../../../server/realtime/gambling')
    const subscribed = await open('/sockets/v2/events?channel=web')
    const other = await open('/sockets/v2/events?channel=web')
    subscribed.send({ type: 'GI' })
    await roundTrip(subscribed)
    announceRound({ product: 'casino', gameId: 'fruit-reels', stake: 2, win: 3 }, 'Fruit Reels')
    announceRound({ product: 'casino', gameId: 'fruit-reels', stake: 2, win: 40 }, 'Fruit Reels')
    const frame = await subscribed.next((f) => f.type === 'casino')
    expect(frame).toMatchObject({ kind: 'bigWin', product: 'casino', gameId: 'fruit-reels', game: 'Fruit Reels', multiplier: 20 })
    expect(Object.keys(frame).sort()).toEqual(['at', 'game', 'gameId', 'kind', 'multiplier', 'product', 'type'])
    subscribed.send({ type: 'GI', resetSubscribe: true })
    await roundTrip(subscribed)
    announceRound({ product: 'crash', gameId: 'rocket', stake: 1, win: 50 }, 'Rocket')
    await roundTrip(subscribed)
    await roundTrip(other)
    expect(subscribed.frames.filter((f) => f.type === 'casino')).toHaveLength(1)
    expect(other.frames.some((f) => f.type === 'casino')).toBe(false)
    subscribed.socket.close()
    other.socket.close()
  })

  it('a session that ends gets accountLogout with reason SOCKET and the socket closes', async () => {
    const login = await server.login('vip@demo.parlay.test')
    const { punterHash, accessToken } = login.json.payload
    const client = await open('/sockets/v2/punter?channel=web')
    client.send({ type: 'AUTH', punterHash, accessToken })
    await client.next((f) => f.type === 'AUTH')
    const punterId = (await findPunterByLogin(server.deps.data, 'curacao', 'email', 'vip@demo.parlay.test'))!.id
    await revokeAllSessions(server.deps.data, punterId, 'blocked', server.clock.now)
    expect((await client.next((f) => f.type === 'accountLogout')).payload).toEqual({ reason: 'SOCKET' })
    expect(await client.closed).toBe(4001)
  })
})
