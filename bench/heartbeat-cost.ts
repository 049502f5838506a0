/**
 * `npm run bench heartbeat-cost` (issue 16, the heartbeat's scale-out): what one heartbeat costs,
 * in figures that hold while other work shares the machine (throughput does not: it is whatever
 * the other processes leave). One instance over a throw-away PostgreSQL cluster, one Redis:
 * - statements: the SQL statements PostgreSQL ran per heartbeat (pg_stat_statements over a fixed
 *   number of sequential heartbeats, BEGIN/COMMIT included), each with its calls;
 * - CPU seconds per 1,000 heartbeats under autocannon load, of the node server, of every
 *   PostgreSQL process of the cluster (/proc utime + stime of the postmaster's children), and of
 *   the bench process itself (the load generator: autocannon runs in it).
 * Two instances are bound by the machine, one by its thread: with per-request CPU node N,
 * PostgreSQL P and load generator A, two give about 2N / (N + P + A) of one, so these three
 * figures say whether the heartbeat can scale on a 2-core machine before any throughput is taken.
 * BENCH_TWO=1 adds a run on two instances (and their ratio); BENCH_SERVER_NODE_OPTIONS is given to
 * the servers (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` for a profile of where node's share goes).
 */
import autocannon from 'autocannon'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import pg from 'pg'
import { postgresBinaries, startPostgres, type ThrowawayPostgres } from '../tests/support/postgres'
import { siteFolder, startInstance, startRedis, stop, type Instance } from './scale'
import { cpuSeconds, freePort } from './server'
import type { ChildProcess } from 'node:child_process'

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const SEQUENTIAL = 200
const GATE = '/mobile-gate/api/v1'
const DEMO = { login: 'opened@demo.parlay.test', password: 'parlay-demo-1' }
const REDIS_SERVER = process.env.PARLAY_REDIS_SERVER ?? '/usr/bin/redis-server'

/** The cluster's processes: the postmaster (its command line names the port) and its children. */
export function postgresPids(port: number): number[] {
  const stats = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((pid) => {
      try {
        return { pid: Number(pid), cmdline: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'), ppid: Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]) }
      } catch {
        return undefined
      }
    })
    .filter((p) => p !== undefined)
  const postmaster = stats.find((p) => p.cmdline[0].endsWith('postgres') && p.cmdline.includes('-p') && p.cmdline[p.cmdline.indexOf('-p') + 1] === String(port))
  if (!postmaster) throw new Error(`no postmaster on port ${port}`)
  return [postmaster.pid, ...stats.filter((p) => p.ppid === postmaster.pid).map((p) => p.pid)]
}

/** CPU seconds of the cluster so far (processes that ended between two readings are lost: the pool's connections live on). */
export const postgresCpu = (port: number) => postgresPids(port).reduce((sum, pid) => sum + (cpuSeconds(pid) || 0), 0)
export const selfCpu = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1e6
}

async function session(base: string) {
  const login = await fetch(`${base}${GATE}/auth/v2/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(DEMO) })
  const payload = ((await login.json()) as { payload: { punterHash: string; accessToken: string } }).payload
  return { 'punter-session-hash': payload.punterHash, authorization: `Bearer ${payload.accessToken}` }
}

/** A throw-away cluster with pg_stat_statements (it must be preloaded, so the cluster restarts once),
 * a database on it, and a client of that database that can read and reset the counts. */
export async function clusterCountingStatements(): Promise<{ cluster: ThrowawayPostgres; databaseUrl: string; admin: pg.Client }> {
  const cluster = await startPostgres()
  const superuser = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${cluster.port}/postgres` })
  await superuser.connect()
  await superuser.query(`ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'`)
  await superuser.end()
  cluster.stopServer()
  cluster.startServer()
  const databaseUrl = await cluster.createDatabase()
  const admin = new pg.Client({ connectionString: databaseUrl })
  await admin.connect()
  await admin.query('CREATE EXTENSION pg_stat_statements')
  return { cluster, databaseUrl, admin }
}

/** Statements per heartbeat: pg_stat_statements over SEQUENTIAL heartbeats, one after another. */
async function statements(admin: pg.Client, base: string, headers: Record<string, string>) {
  await admin.query('SELECT pg_stat_statements_reset()')
  for (let n = 0; n < SEQUENTIAL; n++) {
    const answer = await fetch(`${base}${GATE}/heartbeat`, { headers })
    if (answer.status !== 200) throw new Error(`heartbeat answered ${answer.status}`)
    await answer.arrayBuffer()
  }
  const { rows } = await admin.query<{ query: string; calls: string }>(
    `SELECT query, calls FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query NOT ILIKE '%pg_stat_statements%' ORDER BY calls DESC`,
  )
  const perHeartbeat = rows.map((r) => ({ calls: Math.round((Number(r.calls) / SEQUENTIAL) * 100) / 100, query: r.query.replace(/\s+/g, ' ').slice(0, 160) }))
  return { perHeartbeat: Math.round(perHeartbeat.reduce((sum, r) => sum + r.calls, 0) * 100) / 100, statements: perHeartbeat.filter((r) => r.calls >= 0.05) }
}

/** CPU per 1,000 heartbeats under autocannon load against the given instances. */
async function cpuPerThousand(port: number, instances: Instance[], headers: Record<string, string>) {
  const node = () => instances.reduce((sum, i) => sum + cpuSeconds(i.child.pid!), 0)
  const before = { node: node(), postgres: postgresCpu(port), bench: selfCpu() }
  const perProcess = new Map(postgresPids(port).map((pid) => [pid, cpuSeconds(pid)]))
  const result = await autocannon({ url: instances.map((i) => `${i.base}${GATE}/heartbeat`), headers, connections: CONNECTIONS, duration: SECONDS })
  if (process.env.BENCH_DEBUG) for (const pid of postgresPids(port)) console.error(pid, (cpuSeconds(pid) - (perProcess.get(pid) ?? 0)).toFixed(2), readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '))
  const per = (seconds: number) => Math.round((seconds / result.requests.total) * 1000 * 1000) / 1000
  return {
    requestsPerSecond: Math.round(result.requests.average),
    requests: result.requests.total,
    non2xx: result.non2xx,
    cpuSecondsPer1000: { node: per(node() - before.node), postgres: per(postgresCpu(port) - before.postgres), bench: per(selfCpu() - before.bench) },
  }
}

export async function runHeartbeatCostBench() {
  if (!existsSync(REDIS_SERVER)) return { skipped: `${REDIS_SERVER} is missing (apt-get install redis-server)` }
  if (!postgresBinaries()) return { skipped: 'the PostgreSQL binaries (initdb, pg_ctl) are missing' }
  const running: ChildProcess[] = []
  const folders: string[] = []
  let cluster: ThrowawayPostgres | undefined
  let admin: pg.Client | undefined
  try {
    const redisPort = await freePort()
    running.push(await startRedis(redisPort))
    const counting = await clusterCountingStatements()
    cluster = counting.cluster
    admin = counting.admin
    const databaseUrl = counting.databaseUrl
    const env = { REDIS_URL: `redis://127.0.0.1:${redisPort}`, DATABASE_URL: databaseUrl, PARLAY_AUDIT_KEY: randomBytes(32).toString('hex'), ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}) }
    const a = await startInstance(folders[folders.push(siteFolder()) - 1], env)
    running.push(a.child)
    const headers = await session(a.base)
    const counted = await statements(admin, a.base, headers)
    const one = await cpuPerThousand(cluster.port, [a], headers)
    const result: Record<string, unknown> = { setup: `one instance over PostgreSQL (fsync off), autocannon ${CONNECTIONS} connections × ${SECONDS} s`, statements: counted, one }
    if (process.env.BENCH_TWO === '1') {
      const b = await startInstance(folders[folders.push(siteFolder()) - 1], env)
      running.push(b.child)
      const two = await cpuPerThousand(cluster.port, [a, b], headers)
      result.two = two
      result.ratio = Math.round((two.requestsPerSecond / one.requestsPerSecond) * 100) / 100
    }
    return result
  } finally {
    await admin?.end().catch(() => undefined)
    await stop(running)
    cluster?.dispose()
    for (const folder of folders) rmSync(folder, { recursive: true, force: true })
  }
}
