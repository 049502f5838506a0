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
  /** A fresh database, empty or a copy of `template`; its postgres:// URL. */
  createDatabase(template?: string): Promise<string>
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

let databases = 0

/**
 * A new database on the cluster at `port`, named by this process and a counter (several test
 * processes share one cluster in the PostgreSQL pass), empty or a copy of `template`; its URL.
 * A copy is a file copy of a few MB: far cheaper than applying every migration again.
 */
export async function createDatabaseOn(port: number, template?: string): Promise<string> {
  const name = `parlay_${process.pid}_${++databases}`
  const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` })
  await admin.connect()
  try {
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`)
  } finally {
    await admin.end()
  }
  return `postgres://postgres@127.0.0.1:${port}/${name}`
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
  return {
    port,
    createDatabase: (template) => createDatabaseOn(port, template),
    stopServer,
    startServer,
    dispose() {
      stopServer()
      rmSync(root, { recursive: true, force: true })
    },
  }
}
