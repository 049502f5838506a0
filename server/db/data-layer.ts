/**
 * One data layer, two engines (issue 16): a typed Kysely instance over SQLite (the same
 * better-sqlite3 handle as ./database.ts, when there is no DATABASE_URL) or over a PostgreSQL pool
 * (DATABASE_URL=postgres://…). Stores write their queries once against `Kysely<Tables>`; nothing in
 * a store knows which engine runs it.
 *
 * Transactions (`data.transaction`): on SQLite they begin IMMEDIATE (a writer takes the file's
 * lock before it reads, so a read-then-write is serialised across processes), waiting for that
 * lock off the event loop (./sqlite-driver.ts). On PostgreSQL they are READ COMMITTED; a
 * read-then-write that must not race another instance names a key (`serialiseOn`) and takes a
 * transaction-scoped advisory lock on it.
 *
 * SQLite caveat: one writer connection, and Kysely's statements run synchronously between awaits.
 * A transaction body must therefore await only the database (no network, no argon2): it then holds
 * the writer for as short a time as the database needs, and other writes queue behind it.
 */
import { createHash } from 'node:crypto'
import { CompiledQuery, Kysely, type Compilable, PostgresDialect, SqliteDialect, sql, type PostgresPool, type PostgresPoolClient, type Transaction } from 'kysely'
import pg from 'pg'
import type { Db } from './database'
import type { Engine } from './engine'
import { SqliteFileDriver } from './sqlite-driver'
import { tagPostgresError } from './storage-errors'
import type { Tables } from './tables'

export type { Engine } from './engine'

export interface DataLayer {
  readonly engine: Engine
  readonly db: Kysely<Tables>
  /** SQLite only: the handle under `db` (the migrations run the SQLite files' raw-SQL history on it). */
  readonly sqlite?: Db
  /** Runs `work` in one transaction (committed when it resolves, rolled back when it throws). */
  transaction<T>(work: (tx: Transaction<Tables>) => Promise<T>, options?: { serialiseOn?: string | string[] }): Promise<T>
  /** The server serves from now on: a lock wait is bounded by `lockTimeoutMs` again (until then,
   * while the instance starts, by `startupLockWaitMs`; see there). */
  started(): void
  /** Ends the PostgreSQL pool; on SQLite nothing (./database.ts closes the file). */
  close(): Promise<void>
  /** PostgreSQL only: the pool's connections (all, idle) and the checkouts waiting for one (metrics). */
  poolStats?(): { total: number; idle: number; waiting: number }
}

export interface DataLayerOptions {
  /** The open SQLite handle (./database.ts); used when there is no PostgreSQL URL. */
  sqlite: Db
  /** postgres://… or postgresql://…; absent: SQLite. */
  databaseUrl?: string
  /** Connections per instance (PostgreSQL). */
  poolSize?: number
  /** How long a write waits for a lock another transaction holds before it fails: PostgreSQL's
   * `lock_timeout` (advisory locks included), SQLite's wait for the file's write lock
   * (./sqlite-driver.ts). 5 s by default, so on both engines a blocked write answers 503
   * STORAGE_UNAVAILABLE after 5 s instead of hanging. */
  lockTimeoutMs?: number
  /** How long a transaction waits for its locks while the instance starts (until `started()`):
   * another instance starting at the same moment may hold them for a while (its migrations, its
   * first document seed), and a starting instance serves no request that could wait instead. 2 min. */
  startupLockWaitMs?: number
  onPoolError?: (error: Error) => void
}

/** Which engine a DATABASE_URL names; a URL of another scheme is refused with a clear message. */
export function engineOf(databaseUrl: string | undefined): Engine {
  if (!databaseUrl) return 'sqlite'
  if (/^postgres(ql)?:\/\//i.test(databaseUrl)) return 'postgres'
  throw new Error(`DATABASE_URL must be a postgres:// (or postgresql://) URL, or unset for SQLite under data/; got "${databaseUrl.split(':')[0]}:"`)
}

export function openDataLayer(options: DataLayerOptions): DataLayer {
  return engineOf(options.databaseUrl) === 'postgres' ? openPostgres(options) : openSqlite(options.sqlite, options)
}

/** Kysely's SQLite dialect over ./sqlite-driver.ts (writes wait for the file's lock off the event loop). */
class SharedSqliteDialect extends SqliteDialect {
  constructor(private readonly driver: SqliteFileDriver) {
    super({ database: driver.writer })
  }
  override createDriver() {
    return this.driver
  }
}

function openSqlite(handle: Db, options: DataLayerOptions): DataLayer {
  let starting = true
  const bound = () => (starting ? (options.startupLockWaitMs ?? STARTUP_LOCK_WAIT_MS) : (options.lockTimeoutMs ?? LOCK_TIMEOUT_MS))
  const db = new Kysely<Tables>({ dialect: new SharedSqliteDialect(new SqliteFileDriver(handle, bound)) })
  return {
    engine: 'sqlite',
    db,
    sqlite: handle,
    started: () => void (starting = false),
    // one file lock: IMMEDIATE already serialises every writer, the key adds nothing
    transaction: (work) => db.transaction().execute(work),
    close: () => db.destroy(),
  }
}

/** BIGINT (int8) as a JS number: millisecond times and counts fit in 2^53, and SQLite hands numbers too. */
const TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === 20 ? Number : pg.types.getTypeParser(oid, format))) as typeof pg.types.getTypeParser,
}

/** A blocked write's wait for a lock, by default, on both engines. */
export const LOCK_TIMEOUT_MS = 5_000
/** A starting instance's wait for the locks another starting instance holds (see DataLayerOptions). */
export const STARTUP_LOCK_WAIT_MS = 120_000

function openPostgres(options: DataLayerOptions): DataLayer {
  const lockTimeout = Math.max(1, Math.round(options.lockTimeoutMs ?? LOCK_TIMEOUT_MS))
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    types: TYPES,
    // set at connection start, so every statement of every pooled connection has it
    options: `-c lock_timeout=${lockTimeout}`,
  })
  // an idle connection dropped by a database restart must not crash the process; the next query reconnects
  pool.on('error', (error) => options.onPoolError?.(tagPostgresError(error) as Error))
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool: taggingPool(pool) }) })
  let starting = true
  const startupWait = Math.max(1, Math.round(options.startupLockWaitMs ?? STARTUP_LOCK_WAIT_MS))
  return {
    engine: 'postgres',
    db,
    started: () => void (starting = false),
    transaction: (work, { serialiseOn } = {}) =>
      db.transaction().execute(async (tx) => {
        if (starting) await sql.raw(`set local lock_timeout = ${startupWait}`).execute(tx)
        // several keys: taken in one sorted order, so two transactions never wait on each other crosswise
        for (const key of [...new Set([serialiseOn ?? []].flat())].sort()) await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(tx)
        return work(tx)
      }),
    close: () => db.destroy(),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  }
}

/**
 * SQL texts that run as named (prepared) statements on PostgreSQL, with their names. A named
 * statement is parsed once per connection and, after a few runs, planned once: for a statement
 * every request runs (the punter session check) that is most of what PostgreSQL spends on it.
 * Opt-in through `preparedStatement`, and bounded: each connection keeps its prepared statements
 * for its life, so only a few hot statements of fixed text belong here, never one whose text
 * varies with its input (an `in (…)` list). Prepared statements see the tables as they were when
 * prepared: fine, since the schema only changes at start (./schema.ts), before any request.
 */
const preparedStatements = new Map<string, string>()
const MAX_PREPARED_STATEMENTS = 32

export interface PreparedStatement<V, R> {
  execute(data: DataLayer, values: V): Promise<R[]>
}

/**
 * A statement of fixed text that a request runs with its own values: built and compiled ONCE per
 * data layer, then run with the values in the places the build gave them, as a named prepared
 * statement on PostgreSQL (see above) and as any statement on SQLite. Saves the query builder's
 * work per run as well as PostgreSQL's parse and plan. `build` must only put the values it is
 * given into the query, never compute with them: at build time each is a placeholder (a symbol
 * standing for the value of that name).
 */
export function preparedStatement<V extends Record<string, unknown>, R>(build: (db: Kysely<Tables>, values: V) => Compilable<R>): PreparedStatement<V, R> {
  const names = new Map<symbol, keyof V>()
  const placeholders = new Proxy({} as V, {
    get: (_target, name) => {
      const placeholder = Symbol(String(name))
      names.set(placeholder, name as keyof V)
      return placeholder
    },
  })
  const compiledFor = new WeakMap<Kysely<Tables>, CompiledQuery<R>>()
  return {
    async execute(data, values) {
      let compiled = compiledFor.get(data.db)
      if (!compiled) {
        compiled = build(data.db, placeholders).compile()
        compiledFor.set(data.db, compiled)
        if (data.engine === 'postgres' && !preparedStatements.has(compiled.sql) && preparedStatements.size < MAX_PREPARED_STATEMENTS) {
          preparedStatements.set(compiled.sql, `parlay_${createHash('sha256').update(compiled.sql).digest('hex').slice(0, 32)}`)
        }
      }
      const parameters = compiled.parameters.map((parameter) => (typeof parameter === 'symbol' && names.has(parameter) ? values[names.get(parameter)!] : parameter))
      return (await data.db.executeQuery<R>({ ...compiled, parameters })).rows
    },
  }
}

/** Clients that already carry the listener below. */
const guarded = new WeakSet<pg.PoolClient>()

/**
 * The pool as Kysely sees it, every error it or its connections raise tagged as PostgreSQL's.
 * A checked-out client whose connection drops (a database restart mid-query) emits 'error' besides
 * rejecting its query; without a listener that event would crash the process. The query's
 * rejection already carries the error, so the event is only swallowed here.
 */
function taggingPool(pool: pg.Pool): PostgresPool {
  return {
    async connect() {
      const client = await pool.connect().catch((error: unknown) => Promise.reject(tagPostgresError(error)))
      if (!guarded.has(client)) {
        guarded.add(client)
        client.on('error', () => {})
      }
      const query = client.query.bind(client) as (...args: unknown[]) => unknown
      return {
        query: ((...args: unknown[]) => {
          const name = typeof args[0] === 'string' ? preparedStatements.get(args[0]) : undefined
          const result = name === undefined ? query(...args) : query({ name, text: args[0], values: args[1] })
          return result instanceof Promise ? result.catch((error: unknown) => Promise.reject(tagPostgresError(error))) : result
        }) as PostgresPoolClient['query'],
        release: (destroy?: boolean) => client.release(destroy),
      }
    },
    end: () => pool.end(),
  }
}
