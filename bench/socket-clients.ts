/**
 * The socket bench's clients (bench/realtime.ts), in a process of their own: the 2,000 phones are
 * not the server, so their parsing and reading must not share the server's one thread (on the same
 * thread every delivery was paid twice, by the writer and by the reader, and the clients' work
 * showed up as the server's latency). Driven over IPC by the bench:
 *   {cmd: 'connect', url, clients, hello?, parlay}  → {connected, rssPerConnectionBytes}
 *   {cmd: 'wait', sent: [key, sentAtMs][], timeoutMs} → latencies (ms), deliveries, last receipt
 *   {cmd: 'close'}
 * Times are CLOCK_MONOTONIC (process.hrtime), the same clock in both processes.
 */
import WebSocket from 'ws'

const now = () => Number(process.hrtime.bigint()) / 1e6
const receipts = new Map<string, number[]>()
const sockets: WebSocket[] = []

type Command =
  | { cmd: 'connect'; url: string; clients: number; hello?: string; parlay: boolean }
  | { cmd: 'wait'; sent: [string, number][]; timeoutMs: number; clients: number }
  | { cmd: 'close' }

/** The change keys a frame carries: Parlay's EVENT_UPDATE selections, or the bare loop's key. */
function keysOf(frame: string, parlay: boolean): string[] {
  const message = JSON.parse(frame) as { type: string; key?: string; selections?: { id: string; price: number }[] }
  if (!parlay) return message.key ? [message.key] : []
  return message.type === 'EVENT_UPDATE' ? (message.selections ?? []).map((s) => `${s.id}@${s.price}`) : []
}

async function connect({ url, clients, hello, parlay }: Extract<Command, { cmd: 'connect' }>) {
  const rssBefore = process.memoryUsage().rss
  for (let batch = 0; batch < clients; batch += 200) {
    await Promise.all(
      Array.from({ length: Math.min(200, clients - batch) }, () =>
        new Promise<void>((done, fail) => {
          const socket = new WebSocket(url, { perMessageDeflate: false })
          socket.on('message', (data) => {
            const at = now()
            for (const key of keysOf(data.toString(), parlay)) {
              const list = receipts.get(key)
              if (list) list.push(at)
              else receipts.set(key, [at])
            }
          })
          socket.once('open', () => {
            if (hello) socket.send(hello)
            sockets.push(socket)
            done()
          })
          socket.once('error', fail)
        }),
      ),
    )
  }
  return { connected: sockets.length, clientRssPerConnectionBytes: Math.round((process.memoryUsage().rss - rssBefore) / clients) }
}

async function wait({ sent, timeoutMs, clients }: Extract<Command, { cmd: 'wait' }>) {
  const deadline = now() + timeoutMs
  const complete = () => sent.every(([key]) => (receipts.get(key)?.length ?? 0) >= clients)
  while (!complete() && now() < deadline) await new Promise((r) => setTimeout(r, 5))
  const latencies: number[] = []
  let lastAt = 0
  for (const [key, sentAt] of sent)
    for (const at of receipts.get(key) ?? []) {
      latencies.push(at - sentAt)
      lastAt = Math.max(lastAt, at)
    }
  latencies.sort((a, b) => a - b)
  const at = (p: number) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] : NaN)
  return { p50: +at(50).toFixed(2), p99: +at(99).toFixed(2), samples: latencies.length, delivered: latencies.length, lastAt }
}

process.on('message', async (command: Command) => {
  if (command.cmd === 'connect') process.send!(await connect(command))
  else if (command.cmd === 'wait') process.send!(await wait(command))
  else {
    for (const socket of sockets) socket.terminate()
    process.send!({ closed: true }, () => process.exit(0))
  }
})
