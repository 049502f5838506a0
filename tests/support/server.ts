/**
 * Test support: a real server on an ephemeral loopback port with its own database, a copy of the
 * documents, and a stub client (HTTP tests do not need the built SPA).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { cpSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startServer, type RunningServer, type StartOptions } from '../../server/main'
import { STUDIO_DIR } from '../../server/admin/studio-build'
import { isStorageUnavailable } from '../../server/db/database'
import { describeVerification, verifyLedger, type LedgerVerification } from '../../server/punters/ledger-verify'
import { postgresDatabaseFor } from './postgres'

export const SCHEMAS_DIR = resolve(import.meta.dirname, '..', '..', 'schemas')

export interface TestServer extends RunningServer {
  documentsDir: string
  /** The client build the server serves: a stub page, and a stub studio page as `npm run build` makes. */
  distDir: string
  /** The PostgreSQL database it runs on (the PostgreSQL pass, or a databaseUrl given); undefined on SQLite. */
  databaseUrl?: string
  dispose(): Promise<void>
}

/**
 * PARLAY_TEST_DATABASE=postgres (the `postgres` project of vitest.config.ts, the PostgreSQL pass
 * of `npm test`) runs any HTTP test file on a throw-away PostgreSQL (tests/support/postgres.ts: one
 * cluster for the run, a copy of a migrated template per server, the same database again for a
 * server restarted on the same data folder), as `DATABASE_URL=postgres://…` runs the site. Unset:
 * SQLite only, as `npm start` without DATABASE_URL.
 */
export const onPostgres = process.env.PARLAY_TEST_DATABASE === 'postgres'

async function engineOptions(options: StartOptions): Promise<StartOptions> {
  if (options.databaseUrl || !onPostgres) return {}
  return { databaseUrl: await postgresDatabaseFor(options.dataDir) }
}

export interface TestServerOptions extends StartOptions {
  /** false: `dispose` does not verify the ledger (a test that tampers with it on purpose). */
  ledgerCheck?: false
}

export async function startTestServer(testOptions: TestServerOptions = {}): Promise<TestServer> {
  const { ledgerCheck, ...options } = testOptions
  const root = mkdtempSync(join(tmpdir(), 'parlay-test-'))
  const documentsDir = options.documentsDir ?? join(root, 'schemas')
  if (!options.documentsDir) cpSync(SCHEMAS_DIR, documentsDir, { recursive: true })
  const distDir = join(root, 'dist')
  mkdirSync(distDir)
  writeFileSync(join(distDir, 'index.html'), '<!doctype html><html><head><title>Parlay</title></head><body><div id="root"></div></body></html>')
  mkdirSync(join(distDir, STUDIO_DIR))
  writeFileSync(join(distDir, STUDIO_DIR, 'index.html'), '<!doctype html><html><head><title>Parlay studio</title><meta property="csp-nonce" nonce="PLACEHOLDER"><script type="module" src="/admin/studio/assets/index.js" nonce="PLACEHOLDER"></script></head><body><div id="studio"></div></body></html>')
  const engine = await engineOptions(options)
  const databaseUrl = options.databaseUrl ?? engine.databaseUrl
  // instances on one PostgreSQL database share its audit log, so they hold one audit key (as
  // production instances share PARLAY_AUDIT_KEY); each keeps its own folder and anchor
  if (databaseUrl && !options.dataDir) {
    mkdirSync(join(root, 'data'))
    writeFileSync(join(root, 'data', 'audit.key'), `${createHash('sha256').update(`parlay-test-audit-key:${databaseUrl}`).digest('hex')}\n`, { mode: 0o600 })
    // and one TOTP key, as production instances share PARLAY_TOTP_KEY
    writeFileSync(join(root, 'data', 'totp.key'), `${createHash('sha256').update(`parlay-test-totp-key:${databaseUrl}`).digest('hex')}\n`, { mode: 0o600 })
  }
  // a production start (`demo: false`) needs PARLAY_TOTP_KEY: given here unless the test gives its own
  const production = options.demo === false && !options.development && !options.simulators
  const totpKeys = production && !('totpKeys' in options) ? { totpKeys: { current: createHash('sha256').update(`parlay-test-totp-key:${root}`).digest('hex') } } : {}
  // a test server is a demo install (its staff accounts are the demo's: tests/http/admin/support.ts
  // signs them in) unless the test says `demo: false`; everything else is production's default
  const server = await startServer({ port: 0, dataDir: join(root, 'data'), documentsDir, distDir, watch: false, quiet: true, demo: true, ...totpKeys, ...engine, ...options })
  return {
    ...server,
    documentsDir,
    distDir,
    databaseUrl,
    async dispose() {
      // what the file did to money must still agree with the ledger (issue 28: ledger:verify after the money suites, on both engines)
      const ledger = ledgerCheck === false ? undefined : await ledgerAtEnd(server)
      await server.close()
      rmSync(root, { recursive: true, force: true })
      if (ledger && !ledger.ok) throw new Error(`${describeVerification(ledger)} (ledger:verify as the test server closed)`)
    },
  }
}

/** The ledger verified on the server's own database; undefined when the database is out of reach (a test that took it down). */
async function ledgerAtEnd(server: RunningServer): Promise<LedgerVerification | undefined> {
  try {
    return await verifyLedger(server.deps.data.db)
  } catch (error) {
    if (isStorageUnavailable(error)) return undefined
    throw error
  }
}

export interface RawResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
  json(): any
}

/** A request with full control of headers, Host included (fetch cannot set Host). */
export function rawRequest(port: number, options: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<RawResponse> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers: options.headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8')
        done({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body) })
      })
    })
    req.on('error', fail)
    if (options.body !== undefined) req.write(options.body)
    req.end()
  })
}

const ROOT = resolve(import.meta.dirname, '..', '..')

export interface ServerProcess {
  child: ChildProcess
  /** What the process wrote so far. */
  output: { stdout: string; stderr: string }
  /** Its exit code once it has exited. */
  exited: Promise<number | null>
}

/** `npm start` (NODE_ENV=production node --import tsx server/main.ts: one process, so signals reach the server
 * itself) on an ephemeral port, with its data, client and documents in the given folders. */
/** `npm start` is production, which needs PARLAY_TOTP_KEY: the processes of one test file share this one. */
const TEST_PROCESS_TOTP_KEY = randomBytes(32).toString('hex')

export function startServerProcess(dirs: { data: string; dist: string; documents: string }, env: Record<string, string> = {}): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server', 'main.ts')], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', PORT: '0', PARLAY_DATA_DIR: dirs.data, PARLAY_DIST_DIR: dirs.dist, PARLAY_DOCUMENTS_DIR: dirs.documents, PARLAY_TOTP_KEY: TEST_PROCESS_TOTP_KEY, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output = { stdout: '', stderr: '' }
  child.stdout!.on('data', (chunk) => (output.stdout += chunk))
  child.stderr!.on('data', (chunk) => (output.stderr += chunk))
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
  return { child, output, exited }
}
