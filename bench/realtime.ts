/**
 * `npm run bench realtime` (issue 14 item 7): one server process holding 2,000 socket clients that
 * follow the live sport line (SET_TREE_CTX, the way a live list page does), beside a minimal `ws`
 * broadcast loop serving the same 2,000 clients in the same run. For each:
 * - latency p50/p99 from a feed change (`setPrice`) to each client's receipt, at a steady 20
 *   changes a second (CLOCK_MONOTONIC in both processes, so no skew);
 * - messages/s: a burst of 200 changes sent back to back, deliveries per second until the last
 *   client has the last one, and per CPU-second of the server's process (the steady phase's too:
 *   the figure for capacity, as a burst's changes travel several to a frame);
 * - memory per connection: the server process's growth while the 2,000 connect (and get their
 *   snapshots), ÷ 2,000, read after a full collection: RSS, and what the heap and buffers hold.
 * The clients run in a child process of their own (bench/socket-clients.ts), as phones are not the
 * server; the servers run in this process, one after the other: the bare loop, Parlay with its own
 * feed paused (the same fan-out as the bare loop's), and Parlay playing its feed meanwhile (its live
 * events' ticks go to the same clients too, which the bare loop does not do).
 */
import { fork, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { AddressInfo } from 'node:net'
import { WebSocketServer, type WebSocket } from 'ws'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { startServer } from '../server/main'
import { feedFor } from '../server/feed'
import { randomBytes } from 'node:crypto'

setFlagsFromString('--expose-gc')
/** A full collection before each memory reading: RSS alone keeps garbage the heap has not given back. */
const collect = runInNewContext('gc') as () => void

/** The server's memory now, after a full collection. */
function memoryNow() {
  collect()
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage()
  return { rss, heap: heapUsed + external + arrayBuffers }
}
const perConnection = (before: ReturnType<typeof memoryNow>, after: ReturnType<typeof memoryNow>) => ({
  rssPerConnectionBytes: Math.round((after.rss - before.rss) / CLIENTS),
  heapPerConnectionBytes: Math.round((after.heap - before.heap) / CLIENTS),
})

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 2000)
const STEADY_CHANGES = 100
const STEADY_RATE = 20
const BURST = 200

const now = () => Number(process.hrtime.bigint()) / 1e6

/** The clients' process, and a call that sends it a command and waits for its answer. */
function clientsProcess() {
  const child: ChildProcess = fork(resolve(import.meta.dirname, 'socket-clients.ts'), [], { execArgv: ['--import', 'tsx'] })
  const ask = <T>(command: object) =>
    new Promise<T>((done, fail) => {
      child.once('message', (answer) => done(answer as T))
      child.once('error', fail)
      child.send(command)
    })
  return { ask, close: () => ask<unknown>({ cmd: 'close' }) }
}

interface Waited {
  p50: number
  p99: number
  samples: number
  delivered: number
  lastAt: number
}

/** Sends changes through `change(i)` (which answers its key) and measures delivery to every client. */
async function measure(clients: ReturnType<typeof clientsProcess>, change: (i: number) => string) {
  const wait = (sent: [string, number][]) => clients.ask<Waited>({ cmd: 'wait', sent, timeoutMs: 60_000, clients: CLIENTS })
  // steady: latency
  const steady: [string, number][] = []
  const steadyCpu = process.cpuUsage()
  for (let i = 0; i < STEADY_CHANGES; i++) {
    const at = now()
    steady.push([change(i), at])
    await new Promise((r) => setTimeout(r, 1000 / STEADY_RATE))
  }
  const latency = await wait(steady)
  const steadyUsed = process.cpuUsage(steadyCpu)
  // burst: throughput
  const burst: [string, number][] = []
  const started = now()
  const cpu = process.cpuUsage() // the server runs in this process (the clients in their own)
  for (let i = 0; i < BURST; i++) burst.push([change(STEADY_CHANGES + i), started])
  const delivery = await wait(burst)
  const { user, system } = process.cpuUsage(cpu)
  return {
    latencyMs: { p50: latency.p50, p99: latency.p99, samples: latency.samples },
    deliveredSteady: latency.delivered,
    expectedSteady: STEADY_CHANGES * CLIENTS,
    /** At the steady rate (one change per frame, the feed's own ticks too): deliveries per CPU-second of the server's process. */
    steadyDeliveriesPerCpuSecond: Math.round(latency.delivered / ((steadyUsed.user + steadyUsed.system) / 1e6)),
    messagesPerSecond: Math.round(delivery.delivered / ((delivery.lastAt - started) / 1000)),
    burstDelivered: delivery.delivered,
    /** Socket deliveries per CPU-second of the server's process during the burst (docs/capacity.md). */
    deliveriesPerCpuSecond: Math.round(delivery.delivered / ((user + system) / 1e6)),
  }
}

/** Parlay's server; with `feedPlaying` false its own feed schedule is paused during the run, so only
 * the bench's changes move (the same fan-out as the bare loop's). */
async function parlayRun(feedPlaying: boolean) {
  const root = mkdtempSync(join(tmpdir(), 'parlay-bench-rt-'))
  const distDir = join(root, 'dist')
  mkdirSync(distDir)
  writeFileSync(join(distDir, 'index.html'), '<!doctype html><title>bench</title>')
  const server = await startServer({ port: 0, dataDir: join(root, 'data'), documentsDir: resolve(import.meta.dirname, '..', 'schemas'), distDir, watch: false, quiet: true, totpKeys: { current: randomBytes(32).toString('hex') } })
  const feed = feedFor(server.deps)
  feed.advanceTo() // the hour's ticks so far: the line as it is now
  feed.pause(!feedPlaying)
  const live = feed.events({ section: 'sport', state: 'live' })
  const ids = live.map((e) => e.id)
  const clients = clientsProcess()
  const before = memoryNow()
  const connected = await clients.ask<{ clientRssPerConnectionBytes: number }>({
    cmd: 'connect',
    url: `ws://127.0.0.1:${server.port}/sockets/v2/events?channel=web`,
    clients: CLIENTS,
    hello: JSON.stringify({ type: 'SET_TREE_CTX', subscribe: ids }),
    parlay: true,
  })
  await new Promise((r) => setTimeout(r, 1000)) // snapshots delivered
  const memory = perConnection(before, memoryNow())
  const selections = live.map((e) => e.markets[0].selections[0])
  const result = await measure(clients, (i) => {
    const selection = selections[i % selections.length]
    const price = Math.round((2 + (i % 400) / 100) * 100) / 100
    feed.setPrice(selection.id, price)
    return `${selection.id}@${price}`
  })
  await clients.close()
  await server.close()
  rmSync(root, { recursive: true, force: true })
  return { feedPlaying, ...result, ...memory, clientRssPerConnectionBytes: connected.clientRssPerConnectionBytes, liveEventsFollowed: ids.length }
}

async function bareRun() {
  const http: Server = createServer()
  const wss = new WebSocketServer({ server: http, perMessageDeflate: false })
  const sockets = new Set<WebSocket>()
  wss.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done))
  const port = (http.address() as AddressInfo).port
  const clients = clientsProcess()
  const before = memoryNow()
  const connected = await clients.ask<{ clientRssPerConnectionBytes: number }>({ cmd: 'connect', url: `ws://127.0.0.1:${port}/`, clients: CLIENTS, parlay: false })
  await new Promise((r) => setTimeout(r, 1000)) // as Parlay's run: the same settling time
  const memory = perConnection(before, memoryNow())
  const result = await measure(clients, (i) => {
    const key = `s${i % 23}@${i}`
    const frame = JSON.stringify({ type: 'EVENT_UPDATE', key, selections: [{ id: `s${i % 23}`, price: 2 }] })
    for (const socket of sockets) socket.send(frame)
    return key
  })
  await clients.close()
  await new Promise<void>((done) => wss.close(() => done()))
  await new Promise<void>((done) => http.close(() => done()))
  return { ...result, ...memory, clientRssPerConnectionBytes: connected.clientRssPerConnectionBytes }
}

export async function runRealtimeBench() {
  const loadAverage = (await import('node:os')).loadavg().map((n) => +n.toFixed(2))
  const bare = await bareRun()
  const parlayQuiet = await parlayRun(false)
  const parlay = await parlayRun(true)
  const ratio = (a: number, b: number) => +(a / b).toFixed(2)
  return {
    clients: CLIENTS,
    loadAverageAtStart: loadAverage,
    loadAverageAtEnd: (await import('node:os')).loadavg().map((n) => +n.toFixed(2)),
    parlay,
    parlayFeedPaused: parlayQuiet,
    bareWsLoop: bare,
    messageRateVsBare: ratio(parlay.messagesPerSecond, bare.messagesPerSecond),
    p99VsBare: ratio(parlay.latencyMs.p99, bare.latencyMs.p99),
    feedPausedP99VsBare: ratio(parlayQuiet.latencyMs.p99, bare.latencyMs.p99),
    feedPausedRateVsBare: ratio(parlayQuiet.messagesPerSecond, bare.messagesPerSecond),
    targets: { p99Ms: 50, rateVsBare: 0.8 },
  }
}
