/**
 * Issue 11 item 12: storage failures do not look healthy. A database that cannot write answers
 * every write with 503 STORAGE_UNAVAILABLE (not a generic 500) and /ready.json says so while
 * /ping.json stays up; a damaged database file stops the start with a clear message and no stack
 * trace (SIGTERM draining: tests/http/shutdown.test.ts).
 */
import { cpSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync, closeSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DatabaseCorruptError, closeDatabase, openDatabase } from '../../server/db/database'
import { openDataLayer } from '../../server/db/data-layer'
import { migrateDatabase } from '../../server/db/migrate'
import { STORAGE_FAILURE_MEMORY_MS } from '../../server/http/readiness'
import { startServer } from '../../server/main'
import { SCHEMAS_DIR, rawRequest, startServerProcess, startTestServer, type TestServer } from '../support/server'
import { injectFault } from '../support/storage-faults'

const temps: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'parlay-storage-'))
  temps.push(dir)
  return dir
}
afterAll(() => temps.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

/** A site directory a child server can start from without building the client. */
function siteDirs(): { data: string; dist: string; documents: string } {
  const root = tempDir()
  const dist = join(root, 'dist')
  mkdirSync(dist)
  writeFileSync(join(dist, 'index.html'), '<!doctype html><html><head><title>Parlay</title></head><body><div id="root"></div></body></html>')
  cpSync(SCHEMAS_DIR, join(root, 'schemas'), { recursive: true })
  return { data: join(root, 'data'), dist, documents: join(root, 'schemas') }
}


describe('a database that cannot write answers 503 STORAGE_UNAVAILABLE, and /ready.json says so', () => {
  let server: TestServer
  let clock = Date.parse('2026-03-01T10:00:00Z')
  beforeAll(async () => {
    server = await startTestServer({ now: () => clock })
  }, 120_000)
  afterAll(async () => server?.dispose())

  const login = () =>
    rawRequest(server.port, {
      method: 'POST',
      path: '/mobile-gate/api/v1/auth/v2/login',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'opened@demo.parlay.test', password: 'not-the-password' }),
    })

  it('a writable database is ready', async () => {
    const ready = await rawRequest(server.port, { path: '/ready.json' })
    expect([ready.status, ready.json()]).toEqual([200, { status: 'OK', payload: { database: 'ok' } }])
  })

  /** The database made read-only and back, on the engine the server runs on (tests/support/storage-faults.ts). */
  let writable: (() => Promise<void>) | undefined
  async function readOnly(on: boolean): Promise<void> {
    if (on) writable = await injectFault(server, 'read-only')
    else await writable?.()
  }

  it('read-only: a write is a 503 in the envelope, /ready.json is 503, /ping.json stays 200', async () => {
    await readOnly(true)
    // SQLite's write probe names its code; PostgreSQL's names its SQLSTATE (25006 read_only_sql_transaction)
    const reason = server.databaseUrl ? '25006' : 'SQLITE_READONLY'
    try {
      // the probe sees it before any request has failed
      const before = await rawRequest(server.port, { path: '/ready.json' })
      expect([before.status, before.json().payload]).toEqual([503, { database: 'unavailable', reason }])
      const write = await login()
      expect(write.status).toBe(503)
      expect(write.json()).toEqual({ status: 'ERROR', errorCode: 'STORAGE_UNAVAILABLE' })
      expect(write.headers['retry-after']).toBeDefined()
      expect(write.body).not.toMatch(/SqliteError|at .*\.ts|\/work\//)
      const ready = await rawRequest(server.port, { path: '/ready.json' })
      expect(ready.status).toBe(503)
      expect(ready.json()).toMatchObject({ status: 'ERROR', errorCode: 'STORAGE_UNAVAILABLE', payload: { database: 'unavailable', reason } })
      expect((await rawRequest(server.port, { path: '/ping.json' })).status).toBe(200)
    } finally {
      await readOnly(false)
    }
  })

  it('a failed write keeps the server not ready for a while (a full disk shows only on commit), then it recovers', async () => {
    expect((await rawRequest(server.port, { path: '/ready.json' })).status).toBe(503)
    clock += STORAGE_FAILURE_MEMORY_MS
    expect((await rawRequest(server.port, { path: '/ready.json' })).status).toBe(200)
    expect((await login()).status).toBe(400)
  })
})

describe('a damaged database file stops the start with a clear message', () => {
  const damaged = async (offset: number) => {
    const dir = tempDir()
    const db = openDatabase(dir)
    await migrateDatabase(openDataLayer({ sqlite: db })) // tables on the pages past the header
    closeDatabase(db)
    const fd = openSync(join(dir, 'parlay.db'), 'r+')
    writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, offset)
    closeSync(fd)
    return dir
  }

  it('garbage in the header page: openDatabase refuses with DatabaseCorruptError', async () => {
    const dir = await damaged(0)
    expect(() => openDatabase(dir)).toThrow(DatabaseCorruptError)
    expect(() => openDatabase(dir)).toThrow(/is damaged .*restore the file from a backup/)
  })

  it('a damaged table page fails PRAGMA quick_check and is refused too', async () => {
    const dir = await damaged(4096)
    expect(() => openDatabase(dir)).toThrow(DatabaseCorruptError)
  })

  it('startServer rejects before listening', async () => {
    const dirs = siteDirs()
    mkdirSync(dirs.data)
    writeFileSync(join(dirs.data, 'parlay.db'), Buffer.alloc(8192, 0x5a))
    // a production start, so with its TOTP key (server/admin/totp-keys.ts): only the file is wrong
    const totpKeys = { current: 'cd'.repeat(32) }
    await expect(startServer({ port: 0, dataDir: dirs.data, distDir: dirs.dist, documentsDir: dirs.documents, watch: false, quiet: true, totpKeys })).rejects.toThrow(DatabaseCorruptError)
  })

  it('npm start on a damaged file exits 1 with "Parlay cannot start" and no stack trace', async () => {
    const dirs = siteDirs()
    mkdirSync(dirs.data)
    writeFileSync(join(dirs.data, 'parlay.db'), Buffer.alloc(8192, 0x5a))
    const { output, exited } = startServerProcess(dirs)
    expect(await exited).toBe(1)
    expect(output.stderr).toMatch(/Parlay cannot start: the database .*parlay\.db is damaged/)
    expect(output.stderr).not.toMatch(/\n\s+at /)
  }, 120_000)
})

// SIGTERM draining (request in flight, refused connections, sockets 1001, exit 0, no WAL left) is
// tested in tests/http/shutdown.test.ts.
