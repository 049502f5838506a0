/**
 * `npm run bench scale` (issue 16 item 5): heartbeat, documents API and login throughput and p99
 * on ONE instance over SQLite, ONE over PostgreSQL and TWO over PostgreSQL (one database, one
 * Redis), in one run. autocannon spreads its connections round robin over the instances' ports
 * (sticky-free, as docs/nginx-two-instances.conf does), so no proxy takes CPU from the servers. The
 * load generator shares the machine's cores with them. Requests per server CPU-second (every
 * server's CPU summed; PostgreSQL's own processes not counted) is the per-core figure.
 * Needs redis-server (Debian's, as .ci/run installs) and the PostgreSQL binaries the tests use
 * (tests/support/postgres.ts: a throw-away cluster on a free port, fsync off as in the tests).
 */
import autocannon from 'autocannon'
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { postgresBinaries, startPostgres, type ThrowawayPostgres } from '../tests/support/postgres'
import { cpuSeconds, figuresOf, freePort, type Figures } from './server'

const ROOT = resolve(import.meta.dirname, '..')
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const REDIS_SERVER = process.env.PARLAY_REDIS_SERVER ?? '/usr/bin/redis-server'
const GATE = '/mobile-gate/api/v1'
const DEMO = { login: 'opened@demo.parlay.test', password: 'parlay-demo-1' }

export interface Instance {
  child: ChildProcess
  base: string
}

async function until(what: string, probe: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 900; tries++) {
    if (await probe()) return
    await new Promise((done) => setTimeout(done, 100))
  }
  throw new Error(`${what}: not within 90 s`)
}

export async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' })
  const { Redis } = await import('ioredis')
  const client = new Redis(`redis://127.0.0.1:${port}`, { lazyConnect: true, retryStrategy: () => 100 })
  client.on('error', () => undefined)
  await until('redis-server starts', () => client.ping().then(() => true, () => false))
  client.disconnect()
  return child
}

/** A temp folder with its own documents and a stub client page (the bench loads no browser). */
export function siteFolder(): string {
  const root = mkdtempSync(join(tmpdir(), 'parlay-bench-scale-'))
  mkdirSync(join(root, 'dist'))
  writeFileSync(join(root, 'dist', 'index.html'), '<!doctype html><html><head><title>Parlay</title></head><body><div id="root"></div></body></html>')
  cpSync(join(ROOT, 'schemas'), join(root, 'schemas'), { recursive: true })
  return root
}

/** The staff TOTP key every instance of this run shares (a production start needs one: server/admin/totp-keys.ts). */
const BENCH_TOTP_KEY = randomBytes(32).toString('hex')

export async function startInstance(root: string, env: Record<string, string>): Promise<Instance> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server', 'main.ts')], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), PARLAY_DATA_DIR: join(root, 'data'), PARLAY_DIST_DIR: join(root, 'dist'), PARLAY_DOCUMENTS_DIR: join(root, 'schemas'), PARLAY_TOTP_KEY: BENCH_TOTP_KEY, ...env },
    // production logs one line per request: they go to /dev/null here, but are still written
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const base = `http://127.0.0.1:${port}`
  await until('the server becomes ready', async () => {
    if (child.exitCode !== null) throw new Error('the server exited during start')
    return fetch(`${base}/health/ready`).then((r) => r.status === 200, () => false)
  })
  return { child, base }
}

async function load(instances: Instance[], path: string, options: Partial<autocannon.Options> = {}): Promise<Figures> {
  const before = instances.map((i) => cpuSeconds(i.child.pid!))
  const result = await autocannon({ url: instances.map((i) => `${i.base}${path}`), connections: CONNECTIONS, duration: SECONDS, ...options })
  const cpu = instances.reduce((sum, i, n) => sum + cpuSeconds(i.child.pid!) - before[n], 0)
  return figuresOf(result, cpu)
}

/** The three calls of `npm run bench server`, spread over the given instances. */
async function calls(instances: Instance[]) {
  const json = { 'content-type': 'application/json' }
  const login = await fetch(`${instances[0].base}${GATE}/auth/v2/login`, { method: 'POST', headers: json, body: JSON.stringify(DEMO) })
  const session = ((await login.json()) as { payload: { punterHash: string; accessToken: string } }).payload
  const heartbeat = await load(instances, `${GATE}/heartbeat`, { headers: { 'punter-session-hash': session.punterHash, authorization: `Bearer ${session.accessToken}` } })
  const documents = await load(instances, '/api/documents/screen/casino-lobby')
  const logins = await load(instances, `${GATE}/auth/v2/login`, { method: 'POST', headers: json, body: JSON.stringify(DEMO) })
  return { instances: instances.length, heartbeat, documents, login: logins }
}

export async function stop(children: ChildProcess[]): Promise<void> {
  for (const child of children.reverse()) {
    if (child.exitCode !== null) continue
    const exited = new Promise((done) => child.once('exit', done))
    child.kill('SIGTERM')
    await exited
  }
}

const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100

export async function runScaleBench() {
  if (!existsSync(REDIS_SERVER)) return { skipped: `${REDIS_SERVER} is missing (apt-get install redis-server)` }
  if (!postgresBinaries()) return { skipped: 'the PostgreSQL binaries (initdb, pg_ctl) are missing' }
  const folders: string[] = []
  const running: ChildProcess[] = []
  let cluster: ThrowawayPostgres | undefined
  try {
    const redisPort = await freePort()
    running.push(await startRedis(redisPort))
    const redisUrl = `redis://127.0.0.1:${redisPort}`

    // one instance over its own SQLite file
    const sqliteRoot = siteFolder()
    folders.push(sqliteRoot)
    const lone = await startInstance(sqliteRoot, { REDIS_URL: redisUrl })
    const sqlite = await calls([lone])
    await stop([lone.child])

    // one, then two instances over one PostgreSQL database, each with its own data folder (as on
    // two hosts)
    cluster = await startPostgres()
    const databaseUrl = await cluster.createDatabase()
    // instances on one database share one audit log, so they hold one audit key
    const env = { REDIS_URL: redisUrl, DATABASE_URL: databaseUrl, PARLAY_AUDIT_KEY: randomBytes(32).toString('hex') }
    const pgA = siteFolder()
    const pgB = siteFolder()
    folders.push(pgA, pgB)
    const a = await startInstance(pgA, env)
    running.push(a.child)
    const postgresOne = await calls([a])
    const b = await startInstance(pgB, env)
    running.push(b.child)
    const postgresTwo = await calls([a, b])
    return {
      setup: `autocannon ${CONNECTIONS} connections × ${SECONDS} s per call; one instance over SQLite (WAL), one and then two instances over one PostgreSQL database (a throw-away cluster, fsync off), one Redis; load generator and PostgreSQL on the same ${cpus().length} cores`,
      sqlite,
      postgresOne,
      postgresTwo,
      speedup: {
        heartbeat: ratio(postgresTwo.heartbeat.requestsPerSecond, postgresOne.heartbeat.requestsPerSecond),
        documents: ratio(postgresTwo.documents.requestsPerSecond, postgresOne.documents.requestsPerSecond),
        login: ratio(postgresTwo.login.requestsPerSecond, postgresOne.login.requestsPerSecond),
      },
    }
  } finally {
    await stop(running)
    cluster?.dispose()
    for (const folder of folders) rmSync(folder, { recursive: true, force: true })
  }
}
