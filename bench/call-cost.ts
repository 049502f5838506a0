/**
 * `npm run bench call-cost` (issue 30 item 9, docs/capacity.md): what each call a punter makes costs,
 * in CPU seconds per 1,000 calls of the node server, of PostgreSQL (every process of the cluster)
 * and of the load generator, and PostgreSQL statements per call: figures that hold while other work
 * shares the machine (throughput does not). One instance over a throw-away PostgreSQL cluster (fsync
 * off) and one Redis, in development mode only for the feed controls (a bet needs a priced, open
 * selection that does not move), autocannon BENCH_CONNECTIONS (50) × BENCH_SECONDS (5) per call:
 * the heartbeat, a document read, a login (argon2id), a bet placement (a single at the minimum
 * stake, a fresh idempotency key per request, by the VIP demo punter whose balance covers them) and
 * a casino round (the same way). Redis's own CPU per 1,000 calls is read too, and per 1,000
 * deliveries of its pub/sub (`pubsubCost`).
 */
import autocannon from 'autocannon'
import { randomBytes } from 'node:crypto'
import { existsSync, rmSync } from 'node:fs'
import pg from 'pg'
import type { ChildProcess } from 'node:child_process'
import { postgresBinaries, type ThrowawayPostgres } from '../tests/support/postgres'
import { clusterCountingStatements, postgresCpu, selfCpu } from './heartbeat-cost'
import { siteFolder, startInstance, startRedis, stop, type Instance } from './scale'
import { cpuSeconds, freePort } from './server'

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const GATE = '/mobile-gate/api/v1'
const REDIS_SERVER = process.env.PARLAY_REDIS_SERVER ?? '/usr/bin/redis-server'
const json = { 'content-type': 'application/json' }

async function post(base: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(base + path, { method: 'POST', headers: { ...json, ...headers }, body: JSON.stringify(body) })
  return (await res.json()) as { payload: any } // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function session(base: string, login: string) {
  const { payload } = await post(base, `${GATE}/auth/v2/login`, { login, password: 'parlay-demo-1' })
  return { 'punter-session-hash': payload.punterHash as string, authorization: `Bearer ${payload.accessToken as string}` }
}

/** A live selection, unheld, priced 2.5, with the demo feed paused: a bet on it is accepted. */
async function openSelection(base: string) {
  await post(base, '/api/dev/feed/pause', { paused: true })
  const line = ((await (await fetch(`${base}/api/content/line?section=sport&state=live`)).json()) as { payload: { id: string; main: { selections: { id: string }[] } | null }[] }).payload
  const event = line.find((e) => e.main)!
  await post(base, '/api/dev/feed/hold', { eventId: event.id, held: false })
  const priced = await post(base, '/api/dev/feed/price', { selectionId: event.main!.selections[0].id, price: 2.5 })
  return { selectionId: event.main!.selections[0].id, price: priced.payload.selections[0].price as number }
}

type Call = { name: string; options: Partial<autocannon.Options> }

async function calls(base: string): Promise<Call[]> {
  const opened = await session(base, 'opened@demo.parlay.test')
  const vip = await session(base, 'vip@demo.parlay.test')
  const selection = await openSelection(base)
  let key = 0
  const fresh = () => `bench-${process.pid}-${++key}`
  const bet = () => JSON.stringify({ kind: 'single', selections: [selection], stake: 0.1, idempotencyKey: fresh() })
  const round = () => JSON.stringify({ stake: 0.1, idempotencyKey: fresh() })
  return [
    { name: 'heartbeat', options: { url: `${base}${GATE}/heartbeat`, headers: opened } },
    { name: 'documents', options: { url: `${base}/api/documents/screen/casino-lobby` } },
    { name: 'login', options: { url: `${base}${GATE}/auth/v2/login`, method: 'POST', headers: json, body: JSON.stringify({ login: 'opened@demo.parlay.test', password: 'parlay-demo-1' }) } },
    { name: 'bet', options: { url: `${base}${GATE}/bets/place`, method: 'POST', headers: { ...json, ...vip }, requests: [{ setupRequest: (request) => ({ ...request, body: bet() }) }] } },
    { name: 'round', options: { url: `${base}${GATE}/games/casino/book-of-ra/play`, method: 'POST', headers: { ...json, ...vip }, requests: [{ setupRequest: (request) => ({ ...request, body: round() }) }] } },
  ]
}

/** Statements PostgreSQL ran per call (pg_stat_statements over `n` calls one after another). */
async function statementsPerCall(admin: pg.Client, call: Call, n = 50): Promise<number> {
  await admin.query('SELECT pg_stat_statements_reset()')
  const { url, method = 'GET', headers, body, requests } = call.options as autocannon.Options
  for (let i = 0; i < n; i++) await (await fetch(url as string, { method, headers, body: requests ? requests[0].setupRequest({}).body : body })).arrayBuffer()
  const { rows } = await admin.query<{ calls: string }>(`SELECT calls FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query NOT ILIKE '%pg_stat_statements%'`)
  return Math.round((rows.reduce((sum, r) => sum + Number(r.calls), 0) / n) * 10) / 10
}

async function cost(port: number, instance: Instance, redis: ChildProcess, call: Call) {
  const before = { node: cpuSeconds(instance.child.pid!), postgres: postgresCpu(port), redis: cpuSeconds(redis.pid!), bench: selfCpu() }
  const result = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...call.options } as autocannon.Options)
  const ok = result.requests.total - result.non2xx
  const per = (seconds: number) => Math.round((seconds / ok) * 1000 * 1000) / 1000
  return {
    requestsPerSecond: Math.round(result.requests.average),
    ok,
    non2xx: result.non2xx,
    cpuSecondsPer1000: { node: per(cpuSeconds(instance.child.pid!) - before.node), postgres: per(postgresCpu(port) - before.postgres), redis: per(cpuSeconds(redis.pid!) - before.redis), loadGenerator: per(selfCpu() - before.bench) },
  }
}

/**
 * Redis's share of the socket fan-out between instances: every feed change and punter event is
 * published once and delivered to every instance subscribed (server/bus). SUBSCRIBERS connections
 * stand for instances; Redis's CPU per 1,000 deliveries of a 300-byte message.
 */
const SUBSCRIBERS = 20
const PUBLISHED = 20_000
async function pubsubCost(redisPort: number, redis: ChildProcess) {
  const { Redis } = await import('ioredis')
  const subscribers = Array.from({ length: SUBSCRIBERS }, () => new Redis(`redis://127.0.0.1:${redisPort}`))
  let delivered = 0
  for (const subscriber of subscribers) {
    await subscriber.subscribe('bench:fan-out')
    subscriber.on('message', () => delivered++)
  }
  const publisher = new Redis(`redis://127.0.0.1:${redisPort}`)
  const message = 'x'.repeat(300)
  const before = cpuSeconds(redis.pid!)
  for (let sent = 0; sent < PUBLISHED; sent += 500) await Promise.all(Array.from({ length: 500 }, () => publisher.publish('bench:fan-out', message)))
  while (delivered < SUBSCRIBERS * PUBLISHED) await new Promise((done) => setTimeout(done, 20))
  const seconds = cpuSeconds(redis.pid!) - before
  for (const client of [publisher, ...subscribers]) client.disconnect()
  return { subscribers: SUBSCRIBERS, published: PUBLISHED, delivered, redisCpuSecondsPer1000Deliveries: Math.round((seconds / delivered) * 1000 * 10000) / 10000 }
}

export async function runCallCostBench() {
  if (!existsSync(REDIS_SERVER)) return { skipped: `${REDIS_SERVER} is missing (apt-get install redis-server)` }
  if (!postgresBinaries()) return { skipped: 'the PostgreSQL binaries (initdb, pg_ctl) are missing' }
  const running: ChildProcess[] = []
  const folder = siteFolder()
  let cluster: ThrowawayPostgres | undefined
  let admin: pg.Client | undefined
  try {
    const redisPort = await freePort()
    const redis = await startRedis(redisPort)
    running.push(redis)
    const counting = await clusterCountingStatements()
    cluster = counting.cluster
    admin = counting.admin
    const databaseUrl = counting.databaseUrl
    const env = { REDIS_URL: `redis://127.0.0.1:${redisPort}`, DATABASE_URL: databaseUrl, PARLAY_AUDIT_KEY: randomBytes(32).toString('hex'), PARLAY_DEVELOPMENT: 'on' }
    const instance = await startInstance(folder, env)
    running.push(instance.child)
    const result: Record<string, unknown> = { setup: `one instance over PostgreSQL (fsync off) and Redis, autocannon ${CONNECTIONS} connections × ${SECONDS} s per call` }
    for (const call of await calls(instance.base)) result[call.name] = { statementsPerCall: await statementsPerCall(admin, call, call.name === 'login' ? 10 : 50), ...(await cost(cluster.port, instance, redis, call)) }
    result.pubsub = await pubsubCost(redisPort, redis)
    return result
  } finally {
    await admin?.end().catch(() => undefined)
    await stop(running)
    cluster?.dispose()
    rmSync(folder, { recursive: true, force: true })
  }
}
