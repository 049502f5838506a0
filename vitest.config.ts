import { defineConfig } from 'vitest/config'
import { accessSync, chmodSync, constants, existsSync, mkdtempSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Files that take much longer than the rest, longest first: they start before everything else.
 * Vitest orders files by the last run's durations when its cache has them, and otherwise (a fresh
 * clone, as in CI) by size, largest first. That put the route fuzzer, a short file that takes about
 * 100 s alone and 240 s on the loaded CI machine, 98th of 147 and its production twin 142nd, so
 * they ran at the end on one worker while the other had nothing left to do. Started first, the
 * other worker runs the rest of the suite beside them.
 */
const LONGEST_FIRST = ['tests/http/fuzz/routes.test.ts', 'tests/http/fuzz/production.test.ts', 'tests/http/production-install.test.ts', 'tests/http/scale/four-instances.test.ts']

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = LONGEST_FIRST.findIndex((path) => file.moduleId.endsWith(path))
      return at < 0 ? LONGEST_FIRST.length : at
    }
    // a stable sort: every other file keeps Vitest's own order
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b))
  }
}

/**
 * Files that already run on both engines themselves (each starts its own cluster beside its SQLite
 * half): the PostgreSQL pass leaves them out rather than run them twice.
 */
const BOTH_ENGINES_ALREADY = ['tests/http/**/*-engines.test.ts', 'tests/http/scale/two-instances.test.ts']

/**
 * Files whose subject reads nothing stored: what they check is computed from the documents, the
 * in-memory demo feed or the router, and answered without a database read that could differ by
 * engine (every server start still migrates and fills its store, which the other files check on
 * both engines). The PostgreSQL pass leaves them out: each was a whole second server start.
 */
const NO_STORAGE_SUBJECT = [
  'tests/http/openapi.test.ts', // the OpenAPI document, from the router stack
  'tests/http/api-page.test.ts', // that document as an HTML page
  'tests/http/routes.test.ts', // every spec path answers 200 or 404, from the documents and the feed
  'tests/http/i18n.test.ts', // translation fallbacks, from the i18n documents
  'tests/http/lobby-catalogue.test.ts', // the lobbies' game tiles, from the game documents
  'tests/http/content-tiles.test.ts', // generated PNG tiles
  'tests/http/server-only.test.ts', // server-only fields never in a served document
  'tests/http/first-screen.test.ts', // the guest's server-rendered first screen
  'tests/http/content/statistics.test.ts', // league tables tallied from the in-memory feed's results
  'tests/http/feed/rolling-schedule.test.ts', // the in-memory demo feed over three days
]

/**
 * The PostgreSQL pass (issue 16: the HTTP suite runs against both engines): every HTTP test file
 * again with every store on a throw-away PostgreSQL, one cluster and one migrated template for the
 * run (tests/support/postgres-global.ts). Without the binaries the pass is left out, saying why.
 */
// The same look-up as postgresBinaries() in tests/support/postgres-cluster.ts, which this file
// cannot import (Vite's coming native config loader refuses extensionless imports of TypeScript).
const postgresLib = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').map((version) => join('/usr/lib/postgresql', version, 'bin')) : []
const binDirs = [...(process.env.PATH ?? '').split(':'), ...postgresLib]
const havePostgres = ['initdb', 'pg_ctl', 'pg_isready'].every((name) => binDirs.some((dir) => existsSync(join(dir, name))))
if (!havePostgres)
  console.warn('PostgreSQL binaries (initdb, pg_ctl, pg_isready) not found on PATH or under /usr/lib/postgresql: the PostgreSQL pass of tests/http (the `postgres` project) is skipped; the *-engines files skip their PostgreSQL half')

/**
 * Each test file is a new process, and each compiled the same document, flow and request schemas
 * again at its first server start. The compiled validators are kept on disk between processes
 * (tools/schema-lint/documents/ajv-cache.ts, ADR 0089); workers and the servers tests spawn inherit this.
 */
process.env.PARLAY_AJV_CACHE ??= '1'

/**
 * Every test server copies the documents (431 files) into a temporary folder and removes it at the
 * end, with its database: about 1.2 s of waiting on the disk per server on the shared machine, 0.08 s
 * in memory. Temporary folders (os.tmpdir(): test servers, the PostgreSQL clusters) go to a folder
 * of the run's own in /dev/shm when it is there and TMPDIR does not say otherwise; it is removed at
 * the end of the run (tests/support/run-tmpdir-global.ts) with whatever a file left in it.
 */
if (!process.env.TMPDIR && writableDir('/dev/shm')) {
  process.env.TMPDIR = mkdtempSync('/dev/shm/parlay-vitest-')
  chmodSync(process.env.TMPDIR, 0o1777) // as /tmp: the clusters run as the postgres user when we are root
  process.env.PARLAY_RUN_TMPDIR = process.env.TMPDIR
}

function writableDir(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK)
    return true
  } catch {
    return false
  }
}

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 20000,
    // HTTP test files start a real server (documents validated, CEL compiled): give set-up room on a busy 2-core machine
    hookTimeout: 60000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: ONE on the 2-core CI machine, which left
    // a core idle while each file's server started. Two workers keep both cores busy (measured in
    // docs/testing.md, how long it takes); more only add contention to the HTTP tests' timings. The
    // limit holds for the whole run: both projects share these two workers.
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    // a run with PARLAY_TEST_DATABASE=postgres in the environment (one file by hand) gets the shared cluster too
    // the run's temporary folder is removed last (teardowns run in reverse order), after the cluster in it stops
    globalSetup: ['tests/support/run-tmpdir-global.ts', 'tests/support/postgres-global.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'sqlite', include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx', 'tests/http/**/*.test.ts'] },
      },
      ...(havePostgres
        ? [
            {
              extends: true as const,
              test: { name: 'postgres', include: ['tests/http/**/*.test.ts'], exclude: ['**/node_modules/**', ...BOTH_ENGINES_ALREADY, ...NO_STORAGE_SUBJECT], env: { PARLAY_TEST_DATABASE: 'postgres' } },
            },
          ]
        : []),
    ],
  },
})
