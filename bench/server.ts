/**
 * `npm run bench server` (issue 16 item 5): HTTP throughput and latency of ONE production server
 * process over its embedded SQLite, driven by autocannon with 50 connections, in one run:
 * - heartbeat: `GET /mobile-gate/api/v1/heartbeat` with a live punter session (session lookup +
 *   the punter's data, the call every open page repeats);
 * - documents: `GET /api/documents/screen/casino-lobby` (a resolved document, ETag);
 * - login: `POST /mobile-gate/api/v1/auth/v2/login` of a demo punter (argon2id verify + a new
 *   session row: the costly call by design).
 * The server is `npm start` in a child process (its own temp data, documents and stub client) so
 * the load generator is another process; both share this machine's cores. Beside requests/s the
 * bench reads the server's own CPU seconds from /proc, giving requests per CPU-second of the
 * server: the per-core figure, independent of how many cores the load generator took.
 */
import autocannon from 'autocannon'
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { cpus, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..')
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const GATE = '/mobile-gate/api/v1'
const DEMO = { login: 'opened@demo.parlay.test', password: 'parlay-demo-1' }

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer()
    probe.once('error', fail)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => done(port))
    })
  })
}

/** utime + stime of a process, in seconds (Linux /proc; NaN elsewhere). */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100 // clock ticks: 100 per second on Linux
  } catch {
    return NaN
  }
}

async function startChild(root: string) {
  const dist = join(root, 'dist')
  mkdirSync(dist)
  writeFileSync(join(dist, 'index.html'), '<!doctype html><html><head><title>Parlay</title></head><body><div id="root"></div></body></html>')
  cpSync(join(ROOT, 'schemas'), join(root, 'schemas'), { recursive: true })
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server', 'main.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), PARLAY_DATA_DIR: join(root, 'data'), PARLAY_DIST_DIR: dist, PARLAY_DOCUMENTS_DIR: join(root, 'schemas'), PARLAY_TOTP_KEY: randomBytes(32).toString('hex') },
    // production logs one line per request: they go to /dev/null here, but are still written
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const base = `http://127.0.0.1:${port}`
  for (let tries = 0; tries < 600; tries++) {
    if (child.exitCode !== null) throw new Error('the server exited during start')
    const ready = await fetch(`${base}/health/ready`).then((r) => r.status === 200, () => false)
    if (ready) return { child, base }
    await new Promise((done) => setTimeout(done, 100))
  }
  throw new Error('the server did not become ready in 60 s')
}

export interface Figures {
  requestsPerSecond: number
  p50Ms: number
  p99Ms: number
  non2xx: number
  errors: number
  serverCpuSeconds: number
  requestsPerServerCpuSecond: number
}

async function load(pid: number, options: autocannon.Options): Promise<Figures> {
  const cpuBefore = cpuSeconds(pid)
  const result = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...options })
  return figuresOf(result, cpuSeconds(pid) - cpuBefore)
}

/** An autocannon result as the bench's figures, with the server CPU seconds it cost (also bench/scale.ts). */
export function figuresOf(result: autocannon.Result, cpu: number): Figures {
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    serverCpuSeconds: Math.round(cpu * 10) / 10,
    requestsPerServerCpuSecond: Math.round(result.requests.total / cpu),
  }
}

export async function runServerBench() {
  const root = mkdtempSync(join(tmpdir(), 'parlay-bench-server-'))
  const { child, base } = await startChild(root)
  try {
    const pid = child.pid!
    const json = { 'content-type': 'application/json' }
    const login = await fetch(`${base}${GATE}/auth/v2/login`, { method: 'POST', headers: json, body: JSON.stringify(DEMO) })
    const session = (await login.json()) as { payload: { punterHash: string; accessToken: string } }
    const heartbeat = await load(pid, {
      url: `${base}${GATE}/heartbeat`,
      headers: { 'punter-session-hash': session.payload.punterHash, authorization: `Bearer ${session.payload.accessToken}` },
    })
    const documents = await load(pid, { url: `${base}/api/documents/screen/casino-lobby` })
    const logins = await load(pid, { url: `${base}${GATE}/auth/v2/login`, method: 'POST', headers: json, body: JSON.stringify(DEMO) })
    return {
      setup: `one server process (npm start, production, SQLite WAL), autocannon ${CONNECTIONS} connections × ${SECONDS} s per call, load generator in another process on the same ${cpus().length} cores`,
      heartbeat,
      documents,
      login: logins,
    }
  } finally {
    child.kill('SIGTERM')
    await new Promise((done) => child.once('exit', done))
    rmSync(root, { recursive: true, force: true })
  }
}
