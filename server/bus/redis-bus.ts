/**
 * The bus on Redis (`REDIS_URL`, ioredis 5): one connection for commands and one for pub/sub.
 * Counters are one Lua script each (INCR and PEXPIRE together, so a window never loses its expiry
 * between two commands). Commands are not queued while Redis is away: they fail at once
 * (BusUnavailableError), and the connections keep reconnecting (backoff up to 2 s) and resubscribe.
 *
 * Subscriptions are made only on a READY listener connection, and made again on each of its
 * "ready" events (ioredis's own auto-resubscribe is off). ioredis writes a SUBSCRIBE at once while
 * its connection is still in the handshake (status "connect": CLIENT SETNAME/SETINFO sent, the
 * ready check's INFO not yet), because SUBSCRIBE is allowed while Redis loads; the connection is
 * then in subscriber mode when the INFO follows, the ready check fails, and ioredis reconnects
 * without the channel: the instance never heard another instance's punter events (the two-instance
 * test lost them in 3 of 12 runs; `CLIENT LIST` showed the listener with `sub=0`, last command
 * `info`).
 */
import { randomUUID } from 'node:crypto'
import { EventEmitter } from 'node:events'
import { Redis } from 'ioredis'
import type { Logger } from '../log'
import { BusUnavailableError, KEY_PREFIX, type Bus, type BusChannel, type BusEnvelope } from './bus'

const HIT = `local n = redis.call('INCR', KEYS[1])
if n == 1 or redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`

const ADD = `local n = redis.call('INCRBY', KEYS[1], ARGV[1])
local left = redis.call('PTTL', KEYS[1])
if left < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) left = tonumber(ARGV[2]) end
return {n, left}`

const CLAIM = `if redis.call('SET', KEYS[1], '1', 'PX', ARGV[1], 'NX') then return 0 end
local left = redis.call('PTTL', KEYS[1])
if left < 1 then return 1 end
return left`

/** How long the start waits for Redis before serving anyway (counters refuse until it answers). */
export const REDIS_START_WAIT_MS = 5_000

const retryStrategy = (attempt: number) => Math.min(100 * attempt, 2_000)

export async function createRedisBus(url: string, log: Logger, startWaitMs = REDIS_START_WAIT_MS): Promise<Bus> {
  const instanceId = randomUUID()
  const commands = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, retryStrategy, connectionName: `parlay-${instanceId}` })
  const listener = commands.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null, autoResubscribe: false })
  /** The channels this instance listens to, subscribed on every ready listener connection. */
  const channels = new Set<string>()
  const subscribeAll = () => {
    if (listener.status === 'ready' && channels.size > 0) listener.subscribe(...channels).catch(onError)
  }
  const local = new EventEmitter()
  local.setMaxListeners(0)
  let reported = false
  const onError = (error: Error) => {
    // one line per outage, not one per reconnection attempt
    if (!reported) log.warn('bus.redis.unavailable', { error: error.message })
    reported = true
  }
  const onReady = () => {
    if (reported) log.info('bus.redis.back')
    reported = false
  }
  for (const client of [commands, listener]) {
    client.on('error', onError)
    client.on('ready', onReady)
  }
  listener.on('ready', subscribeAll)
  listener.on('message', (channel: string, text: string) => {
    try {
      local.emit(channel.slice(KEY_PREFIX.length), JSON.parse(text) as BusEnvelope)
    } catch (error) {
      log.warn('bus.message.unreadable', { channel, error: (error as Error).message })
    }
  })
  // both connections: the listener's channels are subscribed as soon as it is ready
  await Promise.all([waitReady(commands, startWaitMs), waitReady(listener, startWaitMs)]).catch(() =>
    log.warn('bus.redis.not-ready-at-start', { url: redactedUrl(url) }),
  )

  const run = async <T>(command: () => Promise<T>): Promise<T> => {
    if (commands.status !== 'ready') throw new BusUnavailableError(`redis is ${commands.status}`)
    try {
      return await command()
    } catch (error) {
      throw new BusUnavailableError((error as Error).message)
    }
  }
  return {
    kind: 'redis',
    instanceId,
    publish(channel: BusChannel, body: unknown) {
      if (commands.status !== 'ready') return
      commands.publish(KEY_PREFIX + channel, JSON.stringify({ from: instanceId, body })).catch(onError)
    },
    subscribe(channel, handler) {
      const name = KEY_PREFIX + channel
      if (!channels.has(name)) {
        channels.add(name)
        // not ready yet: the "ready" handler subscribes every channel
        if (listener.status === 'ready') listener.subscribe(name).catch(onError)
      }
      local.on(channel, handler)
      return () => local.off(channel, handler)
    },
    hit: (key, windowMs) => run(async () => Number(await commands.eval(HIT, 1, KEY_PREFIX + key, Math.max(1, Math.round(windowMs))))),
    count: (key) => run(async () => Number((await commands.get(KEY_PREFIX + key)) ?? 0)),
    add: (key, amount, windowMs) =>
      run(async () => {
        const [total, left] = (await commands.eval(ADD, 1, KEY_PREFIX + key, Math.max(0, Math.round(amount)), Math.max(1, Math.round(windowMs)))) as [number, number]
        return { total: Number(total), resetInMs: Math.max(1, Number(left)) }
      }),
    forget: (key) => run(async () => void (await commands.del(KEY_PREFIX + key))),
    claim: (key, ms) => run(async () => Number(await commands.eval(CLAIM, 1, KEY_PREFIX + key, Math.max(1, Math.round(ms))))),
    available: () => commands.status === 'ready',
    async close() {
      local.removeAllListeners()
      await Promise.all([commands, listener].map((client) => client.quit().catch(() => client.disconnect())))
    },
  }
}

function waitReady(client: Redis, ms: number): Promise<void> {
  if (client.status === 'ready') return Promise.resolve()
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      client.off('ready', ready)
      fail(new Error('timeout'))
    }, ms)
    const ready = () => {
      clearTimeout(timer)
      done()
    }
    client.once('ready', ready)
  })
}

/** The URL for logs: no password. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = '***'
    return parsed.toString()
  } catch {
    return 'redis://(unreadable url)'
  }
}
