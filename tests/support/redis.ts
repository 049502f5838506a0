/**
 * Test support: a throw-away Redis (Debian's redis-server, installed by .ci/run when missing) on a
 * free loopback port, with nothing written to disk. Stop and start it again on the same port to
 * play an outage.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createConnection, createServer } from 'node:net'

export const REDIS_SERVER = process.env.PARLAY_REDIS_SERVER ?? '/usr/bin/redis-server'

export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as { port: number }
  await new Promise<void>((done) => server.close(() => done()))
  return port
}

/** Does a Redis answer PING on this port? */
export function pings(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection({ host: '127.0.0.1', port })
    socket.setTimeout(1_000, () => (socket.destroy(), done(false)))
    socket.once('error', () => done(false))
    socket.once('connect', () => socket.write('PING\r\n'))
    socket.once('data', (data) => {
      socket.destroy()
      done(data.toString().startsWith('+PONG'))
    })
  })
}

export interface TestRedis {
  port: number
  url: string
  start(): Promise<void>
  stop(): Promise<void>
}

export async function startTestRedis(deadlineMs = 15_000): Promise<TestRedis> {
  const port = await freePort()
  let child: ChildProcess | undefined
  const redis: TestRedis = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'], { stdio: 'ignore' })
      const until = Date.now() + deadlineMs
      while (!(await pings(port))) {
        if (child.exitCode !== null || Date.now() > until) throw new Error(`redis-server did not start on ${port}`)
        await new Promise((done) => setTimeout(done, 20)) // poll interval, not a wait for time to pass
      }
    },
    async stop() {
      const running = child
      if (!running || running.exitCode !== null || running.signalCode !== null) return
      const exited = new Promise((done) => running.once('exit', done))
      running.kill('SIGKILL')
      await exited
    },
  }
  await redis.start()
  return redis
}

export interface HoldingProxy {
  port: number
  /** Client connections that have sent something (a connection's handshake has gone out). */
  talking(): number
  /** From now on Redis's answers flow; those held so far go first. */
  release(): void
  close(): Promise<void>
}

/**
 * A loopback TCP proxy in front of a Redis that forwards what clients send at once but holds
 * Redis's answers until `release()`: a client stays in its connection handshake (connected, its
 * first commands sent, no reply yet) for as long as a test needs, with no timing involved.
 */
export async function holdingProxy(redisPort: number): Promise<HoldingProxy> {
  let held = true
  const waiting: (() => void)[] = []
  const sockets = new Set<import('node:net').Socket>()
  let talking = 0
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: redisPort })
    sockets.add(client).add(upstream)
    let counted = false
    client.on('data', (chunk) => {
      if (!counted) (counted = true), talking++
      upstream.write(chunk)
    })
    upstream.on('data', (chunk) => (held ? waiting.push(() => client.write(chunk)) : client.write(chunk)))
    const end = () => (client.destroy(), upstream.destroy())
    client.on('close', end).on('error', end)
    upstream.on('close', end).on('error', end)
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return {
    port: (server.address() as { port: number }).port,
    talking: () => talking,
    release() {
      held = false
      for (const flush of waiting.splice(0)) flush()
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((done) => server.close(() => done()))
    },
  }
}
