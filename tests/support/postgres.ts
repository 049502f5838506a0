/**
 * Test support: a throw-away PostgreSQL cluster (issue 16: tests start their own PostgreSQL with
 * the machine's initdb/pg_ctl). initdb into a temp dir (as the `postgres` user when running as
 * root: initdb refuses root), pg_ctl start on a free loopback port with the socket in the temp dir,
 * one database per test server, stopped (immediate: nothing to keep) and removed after.
 *
 * Waits are bounded and on states: `pg_ctl -w -t 30` polls the server until it accepts
 * connections, then `pg_isready` confirms it. Absent binaries make `postgresBinaries()` answer
 * undefined, and callers skip with `POSTGRES_MISSING` as the reason.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll } from 'vitest'

export const POSTGRES_MISSING = 'PostgreSQL binaries (initdb, pg_ctl, pg_isready) not found on PATH or under /usr/lib/postgresql: the PostgreSQL half of these tests is skipped'

export interface PostgresBinaries {
  initdb: string
  pgCtl: string
  pgIsReady: string
}

function which(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(':'), ...postgresLibDirs()]
  return dirs.map((dir) => join(dir, name)).find((file) => existsSync(file))
}

function postgresLibDirs(): string[] {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return []
  return readdirSync(root).sort().reverse().map((version) => join(root, version, 'bin'))
}

/** The binaries, or undefined when this machine has none (the tests then skip, saying so). */
export function postgresBinaries(): PostgresBinaries | undefined {
  const initdb = which('initdb')
  const pgCtl = which('pg_ctl')
  const pgIsReady = which('pg_isready')
  return initdb && pgCtl && pgIsReady ? { initdb, pgCtl, pgIsReady } : undefined
}

export interface ThrowawayPostgres {
  port: number
  /** A fresh, empty database; its postgres:// URL. */
  createDatabase(): Promise<string>
  /** Stops the server (immediate), keeping its files: a database outage for fault tests. */
  stopServer(): void
  /** Starts the stopped server again on the same port. */
  startServer(): void
  /** Stops it and removes every file. */
  dispose(): void
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0

/** Runs a PostgreSQL binary, as the `postgres` user when we are root. */
function run(binary: string, args: string[]): string {
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', binary, ...args]] : [binary, args]
  return execFileSync(file, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer()
    server.once('error', fail)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => done(port))
    })
  })
}

function owner(): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim())
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim())
  return { uid, gid }
}

/**
 * initdb takes seconds (tens on a loaded 2-core machine); its result depends only on the binaries
 * and the flags, so it is made once per machine into the temp dir and copied for each cluster.
 * Built aside and renamed into place: a half-made template is never used, and when two test
 * processes build one at once the second rename fails and its copy is dropped.
 */
function templateCluster(binaries: PostgresBinaries): string {
  const version = run(binaries.initdb, ['--version']).trim().replace(/[^A-Za-z0-9.]+/g, '-')
  const template = join(tmpdir(), `parlay-pg-template-${version}`)
  if (existsSync(join(template, 'PG_VERSION'))) return template
  const building = mkdtempSync(join(tmpdir(), 'parlay-pg-building-'))
  try {
    if (asRoot) {
      const { uid, gid } = owner()
      chownSync(building, uid, gid)
    }
    // trust on loopback and the private socket dir: a throw-away cluster nobody else can reach
    run(binaries.initdb, ['-D', join(building, 'data'), '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'])
    try {
      renameSync(join(building, 'data'), template)
    } catch {
      // another process put its template in place first: use that one
    }
  } finally {
    rmSync(building, { recursive: true, force: true })
  }
  return template
}

export async function startPostgres(binaries: PostgresBinaries | undefined = postgresBinaries()): Promise<ThrowawayPostgres> {
  if (!binaries) throw new Error(POSTGRES_MISSING)
  const root = mkdtempSync(join(tmpdir(), 'parlay-pg-'))
  if (asRoot) {
    const { uid, gid } = owner()
    chownSync(root, uid, gid)
  }
  const dataDir = join(root, 'data')
  const port = await freePort()
  // a copy of one initdb'd template (cp -a keeps the postgres owner and the 0700 mode)
  execFileSync('cp', ['-a', templateCluster(binaries), dataDir])
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`
  const startServer = () => {
    run(binaries.pgCtl, ['-D', dataDir, '-l', join(root, 'server.log'), '-o', options, '-w', '-t', '30', 'start'])
    run(binaries.pgIsReady, ['-h', '127.0.0.1', '-p', String(port), '-t', '10'])
  }
  const stopServer = () => {
    spawnSync(asRoot ? 'runuser' : binaries.pgCtl, [...(asRoot ? ['-u', 'postgres', '--', binaries.pgCtl] : []), '-D', dataDir, '-m', 'immediate', '-w', '-t', '30', 'stop'], { stdio: 'ignore' })
  }
  try {
    startServer()
  } catch (error) {
    rmSync(root, { recursive: true, force: true })
    throw error
  }
  let databases = 0
  return {
    port,
    async createDatabase() {
      const name = `parlay_${++databases}`
      const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` })
      await admin.connect()
      try {
        await admin.query(`CREATE DATABASE ${name}`)
      } finally {
        await admin.end()
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`
    },
    stopServer,
    startServer,
    dispose() {
      stopServer()
      rmSync(root, { recursive: true, force: true })
    },
  }
}

let shared: Promise<ThrowawayPostgres> | undefined
let users = 0

/**
 * One cluster per test process, started on first use; each caller gets its own database and
 * calls `release` when done. The cluster is removed when the last user releases it (a vitest
 * worker may be ended without an 'exit' event, so that hook alone leaked clusters) or at exit.
 * Used by tests/support/server.ts when PARLAY_TEST_DATABASE=postgres.
 */
export async function sharedPostgresDatabase(): Promise<{ url: string; release(): void }> {
  users++
  if (!shared) {
    const starting = startPostgres()
    shared = starting
    starting.then((cluster) => process.once('exit', () => cluster.dispose()), () => undefined)
  }
  const cluster = shared
  try {
    const url = await (await cluster).createDatabase()
    return { url, release: () => void releaseShared(cluster) }
  } catch (error) {
    void releaseShared(cluster)
    throw error
  }
}

async function releaseShared(cluster: Promise<ThrowawayPostgres>): Promise<void> {
  if (--users > 0 || shared !== cluster) return
  shared = undefined
  ;(await cluster.catch(() => undefined))?.dispose()
}

export type Engine = 'sqlite' | 'postgres'

/** Test-server options that put the server on an engine: none on SQLite. */
export interface OnEngine {
  databaseUrl?: string
}

/** Instances A and B of one database; on SQLite one server plays both. */
export interface Pair<S> {
  a: S
  b: S
  /** Each distinct server, A first. */
  servers: S[]
  /** The options both were started with: a third instance of the same database starts with them too. */
  on: OnEngine
  dispose(): Promise<void>
}

export interface Engines {
  /** Whether this machine can run the PostgreSQL half (POSTGRES_MISSING was printed when not). */
  readonly havePostgres: boolean
  /** The rows for `describe.each(engines.each)('… on %s', (engine, runs) => …)`: SQLite always, PostgreSQL when it is here. */
  readonly each: ReadonlyArray<readonly [Engine, boolean]>
  /** This file's cluster, for outage tests (stopServer/startServer); only inside hooks and tests. */
  cluster(): ThrowawayPostgres
  /** Options for a server on `engine`: nothing on SQLite; on PostgreSQL the given database, or a fresh one of the cluster. */
  on(engine: Engine, databaseUrl?: string): Promise<OnEngine>
  /**
   * Two instances for the rules that must hold across instances: on PostgreSQL two servers on one
   * fresh database, started one after the other (both seed it); on SQLite one server as A and B.
   */
  pair<S extends { dispose(): unknown }>(engine: Engine, start: (on: OnEngine) => Promise<S>): Promise<Pair<S>>
  /**
   * The pair for one `describe` of the engine rows: started in its beforeAll when the row runs
   * (`ready` gets it: keep A and B, set clocks), disposed in its afterAll.
   */
  pairEach<S extends { dispose(): unknown }>(engine: Engine, runs: boolean, start: (on: OnEngine) => Promise<S>, ready: (pair: Pair<S>) => unknown): void
}

/**
 * The set-up every *-engines.test.ts shares: call once at the top of the file. It starts one
 * cluster for the file in beforeAll (a copy of the template; on a loaded 2-core machine this still
 * takes a while, hence the long limit) and removes it in afterAll; without the binaries it warns
 * once and `each` marks the PostgreSQL half as not running, so those tests are reported skipped.
 */
export function engines(): Engines {
  const havePostgres = postgresBinaries() !== undefined
  if (!havePostgres) console.warn(POSTGRES_MISSING)
  let started: ThrowawayPostgres | undefined
  beforeAll(async () => {
    if (havePostgres) started = await startPostgres()
  }, 120_000)
  afterAll(() => started?.dispose())
  const cluster = () => {
    if (!started) throw new Error(havePostgres ? 'engines(): the cluster is used before its beforeAll ran' : POSTGRES_MISSING)
    return started
  }
  const on = async (engine: Engine, databaseUrl?: string): Promise<OnEngine> =>
    engine === 'sqlite' ? {} : { databaseUrl: databaseUrl ?? (await cluster().createDatabase()) }
  const api: Engines = {
    havePostgres,
    each: [
      ['sqlite', true],
      ['postgres', havePostgres],
    ],
    cluster,
    on,
    pairEach(engine, runs, start, ready) {
      let instances: Pair<Parameters<typeof ready>[0]['a']> | undefined
      beforeAll(async () => {
        if (!runs) return
        instances = await api.pair(engine, start)
        await ready(instances)
      }, 120_000)
      afterAll(async () => instances?.dispose())
    },
    async pair(engine, start) {
      const options = await on(engine)
      const a = await start(options)
      const b = engine === 'sqlite' ? a : await start(options).catch(async (error: unknown) => {
        await a.dispose()
        throw error
      })
      const servers = a === b ? [a] : [a, b]
      return {
        a,
        b,
        servers,
        on: options,
        async dispose() {
          for (const server of servers) await server.dispose()
        },
      }
    },
 
  }
  return api
}
