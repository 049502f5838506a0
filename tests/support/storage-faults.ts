/**
 * Test support: storage faults made real on the engine a test server runs on (issue 30 items 3
 * and 4). Each fault is switched on and off around the calls a test makes; reads keep working
 * under every one of them, so a test can compare the database before and during the fault.
 *
 * - read-only: SQLite `query_only` on the server's writer; PostgreSQL `default_transaction_read_only`
 *   on the database (as on a hot standby after a fail-over), the pool's sessions ended so new ones
 *   take it.
 * - full: SQLite on a small tmpfs (mounted by `smallDisk`, root only): the WAL checkpointed and
 *   truncated, then the disk filled, so the next commit's first WAL frame has nowhere to go
 *   (SQLITE_FULL from the real write). PostgreSQL cannot be filled that way (its WAL is on the
 *   cluster's disk and a full WAL disk is a crash, an outage), so every table gets a statement
 *   trigger raising SQLSTATE 53100 disk_full, the error an extension of a full tablespace raises.
 * - locked: another process holds the lock (SQLite: a child with BEGIN IMMEDIATE open on the file;
 *   PostgreSQL: a session holding every table in EXCLUSIVE mode, which lets reads through).
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { sql } from 'kysely'
import { closeSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import pg from 'pg'
import { expect } from 'vitest'
import type { TestServer } from './server'

const ROOT = resolve(import.meta.dirname, '..', '..')

export type Fault = 'read-only' | 'full' | 'locked'

/** A process holding the SQLite file's write lock until `release()` (a line on its stdin). */
export async function sqliteLockHolder(file: string): Promise<{ child: ChildProcessWithoutNullStreams; release(): Promise<void> }> {
  const script = `
    const db = new (require('better-sqlite3'))(${JSON.stringify(file)})
    db.exec('BEGIN IMMEDIATE')
    db.prepare("INSERT INTO migrations (name, applied_at) VALUES ('~lock-holder', 0)").run()
    console.log('locked')
    process.stdin.once('data', () => { db.exec('ROLLBACK'); db.close(); console.log('released'); process.exit(0) })`
  const child = spawn(process.execPath, ['-e', script], { cwd: ROOT })
  const said = (word: string) =>
    new Promise<void>((done, fail) => {
      child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes(word) && done())
      child.once('exit', (code) => fail(new Error(`the lock holder exited (${code}) before "${word}"`)))
    })
  await said('locked')
  return { child, release: () => (child.stdin.write('\n'), said('released')) }
}

/** A small tmpfs for a server's data folder; undefined (and why) where this process may not mount. */
export function smallDisk(sizeMb = 32): { dir: string; dispose(): void } | { dir?: undefined; why: string } {
  const dir = mkdtempSync(join(tmpdir(), 'parlay-disk-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir], { stdio: 'pipe' })
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    return { why: `cannot mount a tmpfs (root and CAP_SYS_ADMIN needed): ${String((error as { stderr?: unknown }).stderr ?? error).trim()}` }
  }
  return {
    dir,
    dispose() {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' })
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

async function onDatabase<T>(server: TestServer, work: (client: pg.Client, name: string) => Promise<T>, database?: string): Promise<T> {
  const url = new URL(server.databaseUrl!)
  const name = url.pathname.slice(1)
  if (database) url.pathname = `/${database}`
  const client = new pg.Client({ connectionString: url.toString() })
  await client.connect()
  try {
    return await work(client, name)
  } finally {
    await client.end()
  }
}

const publicTables = async (client: pg.Client) =>
  (await client.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1")).rows.map((r) => `"${r.table_name}"`)

/** Switches a fault on; answers the function that switches it off again. */
export async function injectFault(server: TestServer, fault: Fault): Promise<() => Promise<void>> {
  if (fault === 'read-only') return readOnly(server)
  if (fault === 'full') return server.databaseUrl ? postgresFull(server) : sqliteFull(server)
  if (!server.databaseUrl) {
    const holder = await sqliteLockHolder(join(server.deps.config.dataDir, 'parlay.db'))
    return holder.release
  }
  const url = server.databaseUrl
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  await client.query('BEGIN')
  await client.query(`LOCK TABLE ${(await publicTables(client)).join(', ')} IN EXCLUSIVE MODE`)
  return async () => {
    await client.query('ROLLBACK')
    await client.end()
  }
}

async function readOnly(server: TestServer): Promise<() => Promise<void>> {
  const set = async (on: boolean) => {
    if (!server.databaseUrl) return void server.deps.db.pragma(`query_only = ${on ? 'ON' : 'OFF'}`)
    const switched = await onDatabase(
      server,
      async (admin, name) => {
        await admin.query(`ALTER DATABASE ${name} SET default_transaction_read_only = ${on ? 'on' : 'off'}`)
        return String((await admin.query('SELECT now()::text AS t')).rows[0].t)
      },
      'postgres',
    )
    // every connection from before the switch ends (a new one starts with the new default); the
    // server's background work may open new ones meanwhile, so the pool need not fall to zero
    const older = () =>
      onDatabase(
        server,
        async (admin, name) => {
          const before = "FROM pg_stat_activity WHERE datname = $1 AND backend_start < $2::timestamptz"
          await admin.query(`SELECT pg_terminate_backend(pid) ${before}`, [name, switched])
          return Number((await admin.query(`SELECT count(*) AS n ${before}`, [name, switched])).rows[0].n)
        },
        'postgres',
      )
    await expect.poll(older, { timeout: 10_000 }).toBe(0)
    // and the pool has dropped the ended ones: a query through it answers with the new default
    await expect
      .poll(async () => {
        try {
          return String(Object.values((await sql<Record<string, string>>`SHOW default_transaction_read_only`.execute(server.deps.data.db)).rows[0])[0])
        } catch {
          return 'ended connection'
        }
      }, { timeout: 10_000 })
      .toBe(on ? 'on' : 'off')
  }
  await set(true)
  return () => set(false)
}

async function sqliteFull(server: TestServer): Promise<() => Promise<void>> {
  // the WAL emptied (its frames moved into the database file), so the next commit must grow it
  await expect.poll(() => (server.deps.db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[])[0].busy, { timeout: 10_000 }).toBe(0)
  const filler = join(server.deps.config.dataDir, 'filler')
  const fd = openSync(filler, 'w')
  const block = Buffer.alloc(1 << 16)
  try {
    for (;;) writeSync(fd, block)
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOSPC') throw error
  } finally {
    closeSync(fd)
  }
  return async () => unlinkSync(filler)
}

async function postgresFull(server: TestServer): Promise<() => Promise<void>> {
  const tables = await onDatabase(server, async (client) => {
    await client.query("CREATE FUNCTION parlay_test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$")
    const tables = await publicTables(client)
    for (const table of tables) await client.query(`CREATE TRIGGER parlay_test_disk_full BEFORE INSERT OR UPDATE OR DELETE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION parlay_test_disk_full()`)
    return tables
  })
  return () =>
    onDatabase(server, async (client) => {
      for (const table of tables) await client.query(`DROP TRIGGER parlay_test_disk_full ON ${table}`)
      await client.query('DROP FUNCTION parlay_test_disk_full()')
    })
}

/** What a partial write would change: every table's row count, and each punter's balance and ledger sum. */
export async function storageSnapshot(server: TestServer): Promise<Record<string, unknown>> {
  const money = 'SELECT p.id, p.balance_minor, (SELECT COALESCE(SUM(l.amount_minor), 0) FROM ledger_entries l WHERE l.punter_id = p.id) AS ledger FROM punters p ORDER BY p.id'
  if (!server.databaseUrl) {
    const db = server.deps.db
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[]
    return { rows: Object.fromEntries(tables.map((t) => [t, db.prepare(`SELECT COUNT(*) FROM "${t}"`).pluck().get()])), money: db.prepare(money).all() }
  }
  return onDatabase(server, async (client) => {
    const rows: Record<string, number> = {}
    for (const table of await publicTables(client)) rows[table.slice(1, -1)] = Number((await client.query(`SELECT COUNT(*) AS n FROM ${table}`)).rows[0].n)
    return { rows, money: (await client.query(money)).rows.map((r) => ({ id: Number(r.id), balance_minor: Number(r.balance_minor), ledger: Number(r.ledger) })) }
  })
}
