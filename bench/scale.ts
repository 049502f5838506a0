/**
 * `npm run bench scale` (issue 16 item 5): the heartbeat's throughput and p99 on ONE instance and
 * on TWO instances sharing one SQLite file and one Redis, in one run. autocannon spreads its
 * connections round robin over both ports (sticky-free, as the README's nginx example does), so
 * no proxy takes CPU from the servers. The load generator shares the machine's cores with them.
 * Requests per server CPU-second (both servers' CPU summed) is the per-core figure.
 * Needs redis-server (Debian's, as .ci/run installs); the PostgreSQL layer of issue 16 is not built.
 */
import autocannon from 'autocannon'
import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { cpuSeconds, figuresOf, freePort } from './server'

const ROOT = resolve(import.meta.dirname, '..')
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const REDIS_SERVER = process.env.PARLAY_REDIS_SERVER ?? '/usr/bin/redis-server'
const GATE = '/mobile-gate/api/v1'
const DEMO = { login: 'opened@demo.parlay.test', password: 'parlay-demo-1' }

async function until(what: string, probe: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 600; tries++) {
    if (await probe()) return
    await new Promise((done) => setTimeout(done, 100))
  }
  throw new Error(`${what}: not within 60 s`)
}

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' })
  const { Redis } = await import('ioredis')
  const client = new Redis(`redis://127.0.0.1:${port}`, { lazyConnect: true, retryStrategy: () => 100 })
  client.on('error', () => undefined)
  await until('redis-server starts', () => client.ping().then(() => true, () => false))
  client.disconnect()
  return child
}

async function startInstance(root: string, redisUrl: string) {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server', 'main.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), PARLAY_DATA_DIR: join(root, 'data'), PARLAY_DIST_DIR: join(root, 'dist'), PARLAY_DOCUMENTS_DIR: join(root, 'schemas'), REDIS_URL: redisUrl },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const base = `http://127.0.0.1:${port}`
  await until('the server becomes ready', async () => {
    if (child.exitCode !== null) throw new Error('the server exited during start')
    return fetch(`${base}/health/ready`).then((r) => r.status === 200, () => false)
  })
  return { child, base }
}

async function heartbeatLoad(instances: { child: ChildProcess; base: string }[], headers: Record<string, string>) {
  const before = instances.map((i) => cpuSeconds(i.child.pid!))
  const result = await autocannon({ url: instances.map((i) => `${i.base}${GATE}/heartbeat`), connections: CONNECTIONS, duration: SECONDS, headers })
  const cpu = instances.reduce((sum, i, n) => sum + cpuSeconds(i.child.pid!) - before[n], 0)
  return { instances: instances.length, ...figuresOf(result, cpu) }
}

export async function runScaleBench() {
  if (!existsSync(REDIS_SERVER)) return { skipped: `${REDIS_SERVER} is missing (apt-get install redis-server)` }
  const root = mkdtempSync(join(tmpdir(), 'parlay-bench-scale-'))
  mkdirSync(join(root, 'dist'))
  writeFileSync(join(root, 'dist', 'index.html'), '<!doctype html><html><head><title>Parlay</title></head><body><div id="root"></div></body></html>')
  cpSync(join(ROOT, 'schemas'), join(root, 'schemas'), { recursive: true })
  const redisPort = await freePort()
  const redis = await startRedis(redisPort)
  const running: ChildProcess[] = [redis]
  try {
    const redisUrl = `redis://127.0.0.1:${redisPort}`
    const a = await startInstance(root, redisUrl)
    running.push(a.child)
    const login = await fetch(`${a.base}${GATE}/auth/v2/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(DEMO) })
    const session = ((await login.json()) as { payload: { punterHash: string; accessToken: string } }).payload
    const headers = { 'punter-session-hash': session.punterHash, authorization: `Bearer ${session.accessToken}` }
    const one = await heartbeatLoad([a], headers)
    const b = await startInstance(root, redisUrl)
    running.push(b.child)
    const two = await heartbeatLoad([a, b], headers)
    return {
      setup: `heartbeat, autocannon ${CONNECTIONS} connections × ${SECONDS} s; one instance, then two (round robin over both ports), one SQLite file (WAL) and one Redis; load generator on the same ${cpus().length} cores`,
      one,
      two,
      speedup: Math.round((two.requestsPerSecond / one.requestsPerSecond) * 100) / 100,
    }
  } finally {
    for (const child of running.reverse()) {
      if (child.exitCode !== null) continue
      const exited = new Promise((done) => child.once('exit', done))
      child.kill('SIGTERM')
      await exited
    }
    rmSync(root, { recursive: true, force: true })
  }
}
