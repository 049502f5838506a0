/**
 * Test support: throw-away PostgreSQL for the HTTP tests (issue 16: tests start their own
 * PostgreSQL with the machine's initdb/pg_ctl; the cluster itself is ./postgres-cluster.ts).
 *
 * Two users: the PostgreSQL pass of `npm test` (the `postgres` vitest project, or any run with
 * PARLAY_TEST_DATABASE=postgres) gets one cluster and one migrated template for the whole run from
 * ./postgres-global.ts, and each test server a copy of the template (`postgresDatabaseFor`); the
 * *-engines files start one cluster per file with `engines()` and run SQLite and PostgreSQL side by side.
 */
import { afterAll, beforeAll, inject } from 'vitest'
import { createDatabaseOn, POSTGRES_MISSING, postgresBinaries, startPostgres, type ThrowawayPostgres } from './postgres-cluster'

export { POSTGRES_MISSING, postgresBinaries, startPostgres, type PostgresBinaries, type ThrowawayPostgres } from './postgres-cluster'

/** The database of each data folder in this process: a server restarted on the same folder finds its data again. */
const byDataDir = new Map<string, Promise<string>>()

/** The PostgreSQL pass's one cluster and migrated template (tests/support/postgres-global.ts). */
function runCluster(): { port: number; template: string } {
  const run = inject('parlayPostgres')
  if (!run) throw new Error('PARLAY_TEST_DATABASE=postgres needs the cluster of tests/support/postgres-global.ts (the globalSetup of vitest.config.ts): run through vitest.config.ts')
  return run
}

/**
 * A database of the run's cluster for a test server (tests/support/server.ts in the PostgreSQL
 * pass): a copy of the migrated template, so it starts as a fresh server's database would. A
 * server started again on the same `dataDir` gets the same database, as it would get the same
 * SQLite file: restart tests mean the same thing on both engines. Databases are not dropped one
 * by one; the cluster and all of them go at the end of the run.
 */
export function postgresDatabaseFor(dataDir?: string): Promise<string> {
  const run = runCluster()
  if (!dataDir) return createDatabaseOn(run.port, run.template)
  let url = byDataDir.get(dataDir)
  if (!url) {
    url = createDatabaseOn(run.port, run.template)
    byDataDir.set(dataDir, url)
    // a failed creation is not remembered: the next start tries again
    url.catch(() => byDataDir.delete(dataDir))
  }
  return url
}

/** An EMPTY database of the run's cluster (no template: nothing migrated or seeded), for start-up tests. */
export function emptyPostgresDatabase(): Promise<string> {
  const run = runCluster()
  return createDatabaseOn(run.port)
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
