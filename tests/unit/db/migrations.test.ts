/**
 * Migrations come from ONE ordered list (server/db/migrations/index.ts) and run once under a
 * database lock (server/db/migrate.ts), issue 30 item 6. Before, each module registered its steps
 * when imported, so they ran in import order (on a fresh database `q070` first, `q001` sixth).
 *
 * The oracle for "an upgraded database ends like a fresh one" is a database migrated by main's own
 * code before the list existed (commit 06a1da1, import order), kept as a dump in ./fixtures:
 * `sqlite3 parlay.db .dump`, and `pg_dump --inserts --no-owner --no-privileges` without its
 * `\restrict` lines. Both were made by running that commit's `openDatabase` + `migrateSchema` on a
 * fresh file and a fresh PostgreSQL database.
 */
import Database from 'better-sqlite3'
import { readdirSync, readFileSync, statSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { closeDatabase, openDatabase } from '../../../server/db/database'
import { openDataLayer, type DataLayer } from '../../../server/db/data-layer'
import { migrateDatabase } from '../../../server/db/migrate'
import { MIGRATIONS, QUERY_LAYER, SQLITE_HISTORY } from '../../../server/db/migrations'
import { engines, type Engine } from '../../support/postgres'

const ROOT = resolve(import.meta.dirname, '..', '..', '..')
const FIXTURE = (engine: Engine) => readFileSync(join(import.meta.dirname, 'fixtures', `main-06a1da1.${engine}.sql`), 'utf8')
const engine = engines()
const cleanups: (() => Promise<void> | void)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

function serverFiles(dir = join(ROOT, 'server')): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? serverFiles(path) : path.endsWith('.ts') ? [path] : []
  })
}

describe('the list of migrations', () => {
  it('holds every step defined in server/ exactly once, and nothing registers a step on import', () => {
    const code = (file: string) => readFileSync(file, 'utf8').replace(/^\s*(\*|\/\/).*$/gm, '') // comments may show an example step
    const defined = serverFiles().flatMap((file) => [...code(file).matchAll(/\b(?:sqliteHistory|schemaStep)\(\s*'([^']+)'/g)].map((m) => m[1]))
    const listed = MIGRATIONS.map((m) => m.name)
    expect(new Set(listed).size).toBe(listed.length)
    expect([...listed].sort()).toEqual([...defined].sort())
    const registering = serverFiles().filter((file) => /\bregister(Migration|Schema)\s*\(/.test(code(file)))
    expect(registering).toEqual([])
  })

  it('puts the frozen SQLite history first, then the query-layer steps in increasing q-number', () => {
    expect(SQLITE_HISTORY.every((m) => m.kind === 'sqlite-history')).toBe(true)
    expect(QUERY_LAYER.every((m) => m.kind === 'schema')).toBe(true)
    const numbers = QUERY_LAYER.map((m) => Number(/^q(\d{3})-/.exec(m.name)![1]))
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b))
    expect(new Set(numbers).size).toBe(numbers.length)
  })
})

/** A fresh database of `which` (a temp SQLite file, or a new database of this file's cluster), and its data layer. */
async function freshDatabase(which: Engine): Promise<{ data: DataLayer; url?: string; file?: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'parlay-migrations-'))
  const sqlite = openDatabase(dir)
  const url = (await engine.on(which)).databaseUrl
  const data = openDataLayer({ sqlite, databaseUrl: url, poolSize: 2 })
  cleanups.push(async () => {
    await data.close()
    closeDatabase(sqlite)
    rmSync(dir, { recursive: true, force: true })
  })
  return { data, url, file: join(dir, 'parlay.db') }
}

/** Loads a dump (the fixture) into the fresh database. */
async function load(which: Engine, target: { url?: string; file?: string }, dump: string): Promise<void> {
  if (which === 'sqlite') {
    const db = new Database(target.file!)
    db.exec(dump)
    db.close()
    return
  }
  const client = new pg.Client({ connectionString: target.url })
  await client.connect()
  try {
    await client.query(dump) // several statements: the simple query protocol runs them in order
  } finally {
    await client.end()
  }
}

/** Everything that makes a schema, in a stable order: tables, columns, indexes, constraints,
 * triggers, functions, and each table's row count (rows a migration writes, such as the
 * publish-generation row). The migrations table's own rows are compared by name, not time. */
async function schemaOf(data: DataLayer): Promise<Record<string, unknown>> {
  if (data.engine === 'sqlite') {
    const db = data.sqlite!
    const objects = db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all() as { type: string; name: string }[]
    const tables = objects.filter((o) => o.type === 'table').map((o) => o.name)
    const rows = Object.fromEntries(tables.filter((t) => t !== 'migrations').map((t) => [t, (db.prepare(`SELECT COUNT(*) AS n FROM "${t}"`).get() as { n: number }).n]))
    const names = (db.prepare('SELECT name FROM migrations ORDER BY name').all() as { name: string }[]).map((r) => r.name)
    return { objects, rows, names }
  }
  const q = async (text: string) => (await data.db.executeQuery<Record<string, unknown>>({ sql: text, parameters: [], query: undefined as never, queryId: undefined as never })).rows
  const columns = await q("SELECT table_name, column_name, ordinal_position, data_type, is_nullable, column_default FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position")
  const indexes = await q("SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY tablename, indexname")
  const constraints = await q("SELECT conrelid::regclass::text AS tbl, conname, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2")
  const triggers = await q('SELECT tgrelid::regclass::text AS tbl, tgname, pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1, 2')
  const functions = await q("SELECT proname, pg_get_functiondef(oid) AS def FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY proname")
  const tables = (await q("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name")).map((r) => String(r.table_name))
  const rows: Record<string, number> = {}
  for (const t of tables.filter((t) => t !== 'migrations')) rows[t] = Number((await q(`SELECT COUNT(*) AS n FROM "${t}"`))[0].n)
  const names = (await q('SELECT name FROM migrations ORDER BY name')).map((r) => r.name)
  return { columns, indexes, constraints, triggers, functions, rows, names }
}

const stepsOn = (which: Engine) => MIGRATIONS.filter((m) => which === 'sqlite' || m.kind === 'schema').map((m) => m.name)

describe.each(engine.each)('migrations on %s', (which, runs) => {
  it.runIf(runs)("a fresh database applies the list in the list's order, and a second run applies nothing", async () => {
    const { data } = await freshDatabase(which)
    expect(await migrateDatabase(data)).toEqual(stepsOn(which))
    if (which === 'sqlite') expect((data.sqlite!.prepare('SELECT name FROM migrations ORDER BY rowid').all() as { name: string }[]).map((r) => r.name)).toEqual(stepsOn(which))
    expect(await migrateDatabase(data)).toEqual([])
  })

  it.runIf(runs)("a database main's code migrated in import order skips every name it has and ends with a fresh database's schema", async () => {
    const fresh = await freshDatabase(which)
    await migrateDatabase(fresh.data)
    const upgraded = await freshDatabase(which)
    await load(which, upgraded, FIXTURE(which))
    const before = (await schemaOf(upgraded.data)).names as string[]
    expect(before.length).toBeGreaterThan(20)
    // only steps added to the list after that commit run (none yet); none of its names runs again
    expect(await migrateDatabase(upgraded.data)).toEqual(stepsOn(which).filter((name) => !before.includes(name)))
    expect(await schemaOf(upgraded.data)).toEqual(await schemaOf(fresh.data))
  })

  it.runIf(runs)('four instances migrating one empty database at the same moment apply each step once', async () => {
    const first = await freshDatabase(which)
    const others = await Promise.all([1, 2, 3].map(async () => (which === 'postgres' ? openDataLayer({ sqlite: undefined as never, databaseUrl: first.url, poolSize: 2 }) : openDataLayer({ sqlite: openDatabase(join(first.file!, '..')) }))))
    cleanups.push(async () => {
      for (const data of others) {
        await data.close()
        if (data.sqlite) closeDatabase(data.sqlite)
      }
    })
    const applied = await Promise.all([first.data, ...others].map((data) => migrateDatabase(data)))
    expect(applied.flat().sort()).toEqual([...stepsOn(which)].sort())
    expect(applied.filter((names) => names.length > 0)).toHaveLength(1)
  })
})
