/**
 * Global set-up of the PostgreSQL pass of `npm test` (the `postgres` project of vitest.config.ts):
 * ONE throw-away cluster for the whole run, shared by every worker, and ONE template database with
 * every query-layer migration applied. Each test server then gets `CREATE DATABASE … TEMPLATE`, a
 * file copy, instead of a cluster copy and start per test file plus every migration per server
 * (tests/support/server.ts through `sharedPostgresDatabase`). The cluster is removed at the end.
 */
import type { TestProject } from 'vitest/node'
import { openDataLayer } from '../../server/db/data-layer'
import { migrateDatabase } from '../../server/db/migrate'
import { startPostgres } from './postgres-cluster'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's cluster and its migrated template database (absent outside the PostgreSQL pass). */
    parlayPostgres: { port: number; template: string } | undefined
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  // the SQLite project (unless PARLAY_TEST_DATABASE=postgres is set by hand) needs no cluster
  if ((project.config.env?.PARLAY_TEST_DATABASE ?? process.env.PARLAY_TEST_DATABASE) !== 'postgres') {
    project.provide('parlayPostgres', undefined)
    return () => {}
  }
  const cluster = await startPostgres()
  try {
    const url = await cluster.createDatabase()
    const data = openDataLayer({ sqlite: undefined as never, databaseUrl: url })
    try {
      await migrateDatabase(data)
    } finally {
      // a template must have no open connection when it is copied
      await data.close()
    }
    project.provide('parlayPostgres', { port: cluster.port, template: new URL(url).pathname.slice(1) })
  } catch (error) {
    cluster.dispose()
    throw error
  }
  // removed at the end of the run, or when the run's process exits early
  const dispose = () => cluster.dispose()
  process.once('exit', dispose)
  return () => {
    process.off('exit', dispose)
    dispose()
  }
}
