/**
 * `npm run bench realtime` (issue 14 item 7): one server process holding 2,000 socket clients that
 * follow the live sport line (SET_TREE_CTX, the way a live list page does), beside a minimal `ws`
 * broadcast loop serving the same 2,000 clients in the same run. For each:
 * - latency p50/p99 from a feed change (`setPrice`) to each client's receipt, at a steady 20
 *   changes a second (both clocks are this process's, so no skew);
 * - messages/s: a burst of 200 changes sent back to back, deliveries per second until every
 *   client has them all;
 * - memory per connection: RSS growth while the 2,000 connect, divided by 2,000.
 * The clients run in the same process as the servers (one process, two cores shared), so both
 * sides' numbers include the clients' own work; the comparison with the bare loop is what counts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { AddressInfo } from 'node:net'
import WebSocket, { WebSocketServer } from 'ws'
import { startServer } from '../server/main'
import { feedFor } from '../server/feed'

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 2000)
const STEADY_CHANGES = 100
const STEADY_RATE = 20
const BURST = 200

interface Receiver {
  /** Called with each change key (selection id + price) a client receives. */
  onChange(key: string, at: number): void
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN
}

async function connectAll(url: string, onOpen: (socket: WebSocket) => void, receiver: Receiver, keysOf: (frame: string) => string[]): Promise<WebSocket[]> {
  const sockets: WebSocket[] = []
  for (let batch = 0; batch < CLIENTS; batch += 200) {
    await Promise.all(
      Array.from({ length: Math.min(200, CLIENTS - batch) }, () =>
        new Promise<void>((done, fail) => {
          const socket = new WebSocket(url, { perMessageDeflate: false })
          socket.on('message', (data) => {
            const at = performance.now()
            for (const key of keysOf(data.toString())) receiver.onChange(key, at)
          })
          socket.once('open', () => {
            onOpen(socket)
            sockets.push(socket)
            done()
          })
          socket.once('error', fail)
        }),
      ),
    )
  }
  return sockets
}

/** Sends changes through `change(i)` and measures delivery to every client. */
async function measure(change: (i: number) => string, keysSeen: Map<string, { sentAt: number; got: number; latencies: number[] }>) {
  const waitAll = async (keys: string[]) => {
    const deadline = performance.now() + 60_000
    while (keys.some((k) => (keysSeen.get(k)?.got ?? 0) < CLIENTS) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5))
  }
  // steady: latency
  const steadyKeys: string[] = []
  for (let i = 0; i < STEADY_CHANGES; i++) {
    const key = change(i)
    steadyKeys.push(key)
    await new Promise((r) => setTimeout(r, 1000 / STEADY_RATE))
  }
  await waitAll(steadyKeys)
  const latencies = steadyKeys.flatMap((k) => keysSeen.get(k)?.latencies ?? []).sort((a, b) => a - b)
  // burst: throughput
  const started = performance.now()
  const burstKeys: string[] = []
  for (let i = 0; i < BURST; i++) burstKeys.push(change(STEADY_CHANGES + i))
  await waitAll(burstKeys)
  const delivered = burstKeys.reduce((sum, k) => sum + (keysSeen.get(k)?.got ?? 0), 0)
  const seconds = (performance.now() - started) / 1000
  return {
    latencyMs: { p50: +percentile(latencies, 50).toFixed(2), p99: +percentile(latencies, 99).toFixed(2), samples: latencies.length },
    deliveredSteady: steadyKeys.reduce((sum, k) => sum + (keysSeen.get(k)?.got ?? 0), 0),
    expectedSteady: STEADY_CHANGES * CLIENTS,
    messagesPerSecond: Math.round(delivered / seconds),
  }
}

function tracker() {
  const keys = new Map<string, { sentAt: number; got: number; latencies: number[] }>()
  const receiver: Receiver = {
    onChange(key, at) {
      const entry = keys.get(key)
      if (!entry) return
      entry.got++
      entry.latencies.push(at - entry.sentAt)
    },
  }
  const sent = (key: string) => keys.set(key, { sentAt: performance.now(), got: 0, latencies: [] })
  return { keys, receiver, sent }
}

async function parlayRun() {
  const root = mkdtempSync(join(tmpdir(), 'parlay-bench-rt-'))
  const distDir = join(root, 'dist')
  mkdirSync(distDir)
  writeFileSync(join(distDir, 'index.html'), '<!doctype html><title>bench</title>')
  const server = await startServer({ port: 0, dataDir: join(root, 'data'), documentsDir: resolve(import.meta.dirname, '..', 'schemas'), distDir, watch: false, quiet: true })
  const feed = feedFor(server.deps)
  feed.advanceTo() // the hour's ticks so far: the line as it is now
  const live = feed.events({ section: 'sport', state: 'live' })
  const ids = live.map((e) => e.id)
  const { keys, receiver, sent } = tracker()
  const rssBefore = process.memoryUsage().rss
  const sockets = await connectAll(
    `ws://127.0.0.1:${server.port}/sockets/v2/events?channel=web`,
    (socket) => socket.send(JSON.stringify({ type: 'SET_TREE_CTX', subscribe: ids })),
    receiver,
    (frame) => {
      const message = JSON.parse(frame) as { type: string; selections?: { id: string; price: number }[] }
      return message.type === 'EVENT_UPDATE' ? (message.selections ?? []).map((s) => `${s.id}@${s.price}`) : []
    },
  )
  await new Promise((r) => setTimeout(r, 1000)) // snapshots delivered
  const rssPerConnection = Math.round((process.memoryUsage().rss - rssBefore) / CLIENTS)
  const selections = live.map((e) => e.markets[0].selections[0])
  const result = await measure((i) => {
    const selection = selections[i % selections.length]
    const price = Math.round((2 + (i % 400) / 100) * 100) / 100
    const key = `${selection.id}@${price}`
    sent(key)
    feed.setPrice(selection.id, price)
    return key
  }, keys)
  if (process.env.BENCH_DEBUG) console.log([...keys].slice(0, 30).map(([k, v]) => `${k}:${v.got}`).join(' '))
  for (const socket of sockets) socket.terminate()
  await server.close()
  rmSync(root, { recursive: true, force: true })
  return { ...result, rssPerConnectionBytes: rssPerConnection, liveEventsFollowed: ids.length }
}

async function bareRun() {
  const http: Server = createServer()
  const wss = new WebSocketServer({ server: http, perMessageDeflate: false })
  const clients = new Set<WebSocket>()
  wss.on('connection', (socket) => {
    clients.add(socket)
    socket.on('close', () => clients.delete(socket))
  })
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done))
  const port = (http.address() as AddressInfo).port
  const { keys, receiver, sent } = tracker()
  const rssBefore = process.memoryUsage().rss
  const sockets = await connectAll(
    `ws://127.0.0.1:${port}/`,
    () => undefined,
    receiver,
    (frame) => [(JSON.parse(frame) as { key: string }).key],
  )
  const rssPerConnection = Math.round((process.memoryUsage().rss - rssBefore) / CLIENTS)
  const result = await measure((i) => {
    const key = `s${i % 23}@${i}`
    sent(key)
    const frame = JSON.stringify({ type: 'EVENT_UPDATE', key, selections: [{ id: `s${i % 23}`, price: 2 }] })
    for (const client of clients) client.send(frame)
    return key
  }, keys)
  for (const socket of sockets) socket.terminate()
  await new Promise<void>((done) => wss.close(() => done()))
  await new Promise<void>((done) => http.close(() => done()))
  return { ...result, rssPerConnectionBytes: rssPerConnection }
}

export async function runRealtimeBench() {
  const parlay = await parlayRun()
  const bare = await bareRun()
  return {
    clients: CLIENTS,
    parlay,
    bareWsLoop: bare,
    messageRateVsBare: +(parlay.messagesPerSecond / bare.messagesPerSecond).toFixed(2),
    targets: { p99Ms: 50, rateVsBare: 0.8 },
  }
}
