/**
 * The two-engine query layer (issue 16, server/db/): SQLite transactions begin IMMEDIATE on the
 * shared handle, the query-layer migrations are no-ops on tables an existing SQLite file already
 * has (no row lost) and apply once, PostgreSQL outages are storage-unavailable (503) errors, a
 * postgres DATABASE_URL never half-runs the site, and the list of stores still on raw SQLite
 * names every file that still holds raw SQLite statements.
 */
import Database from 'better-sqlite3'
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { closeDatabase, isStorageUnavailable, openDatabase } from '../../../server/db/database'
import { engineOf, openDataLayer } from '../../../server/db/data-layer'
import { migrateDatabase } from '../../../server/db/migrate'
import { tagPostgresError } from '../../../server/db/storage-errors'
import { halfConvertedMessage, refuseHalfConvertedPostgres, STILL_ON_SQLITE } from '../../../server/db/stores'

const ROOT = resolve(import.meta.dirname, '..', '..', '..')
const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'parlay-dl-'))
  dirs.push(dir)
  return dir
}
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

describe('the query layer over SQLite shares the better-sqlite3 handle', () => {
  it('a transaction begins IMMEDIATE: another connection cannot take the write lock even before the first write', async () => {
    const dir = tempDir()
    const db = openDatabase(dir)
    const data = openDataLayer({ sqlite: db })
    await migrateDatabase(data)
    const other = new Database(join(dir, 'parlay.db'))
    other.pragma('busy_timeout = 0')
    let otherWrite: unknown
    await data.transaction(async (tx) => {
      await tx.selectFrom('auth_login_failures').select('id').execute() // a read only
      try {
        other.prepare("INSERT INTO auth_login_failures (scope, key, at) VALUES ('login', 'x', 1)").run()
      } catch (error) {
        otherWrite = error
      }
    })
    expect((otherWrite as { code?: string }).code).toBe('SQLITE_BUSY')
    other.close()
    closeDatabase(db)
  })

  it('a transaction that throws is rolled back; one that resolves is committed', async () => {
    const db = openDatabase(':memory:')
    const data = openDataLayer({ sqlite: db })
    await migrateDatabase(data)
    const row = { scope: 'login' as const, key: 'k', at: 1 }
    await expect(data.transaction(async (tx) => {
      await tx.insertInto('auth_login_failures').values(row).execute()
      throw new Error('abandon')
    })).rejects.toThrow('abandon')
    await data.transaction(async (tx) => void (await tx.insertInto('auth_login_failures').values(row).execute()))
    expect(db.prepare('SELECT COUNT(*) AS n FROM auth_login_failures').get()).toEqual({ n: 1 })
    await data.close()
    expect(db.open).toBe(true) // closing the layer never closes the handle database.ts owns
    closeDatabase(db)
  })
})

describe('query-layer migrations on an existing SQLite file', () => {
  it('recognise the tables the raw-SQL migrations made: no row is lost, and each step is recorded once', async () => {
    const dir = tempDir()
    const first = openDatabase(dir)
    await migrateDatabase(openDataLayer({ sqlite: first }))
    first.prepare("INSERT INTO auth_login_failures (scope, key, at) VALUES ('account', 'kept', 42)").run()
    // as a file from before the query layer: the steps that recreate what the raw SQL made (q001–q081)
    // forgotten; later steps change those tables (a column), which such a file gets once, like any step
    first.prepare("DELETE FROM migrations WHERE name LIKE 'q%' AND name < 'q082'").run()
    closeDatabase(first)

    const db = openDatabase(dir)
    const data = openDataLayer({ sqlite: db })
    expect(await migrateDatabase(data)).toContain('q001-auth-login-failures')
    expect(await migrateDatabase(data)).toEqual([])
    expect(db.prepare('SELECT scope, key, at FROM auth_login_failures').all()).toEqual([{ scope: 'account', key: 'kept', at: 42 }])
    expect(db.prepare("SELECT COUNT(*) AS n FROM migrations WHERE name = 'q001-auth-login-failures'").get()).toEqual({ n: 1 })
    closeDatabase(db)
  })
})

describe('PostgreSQL errors that mean "storage unavailable" answer 503, others stay 500', () => {
  const pgError = (code: string, message = 'x') => tagPostgresError(Object.assign(new Error(message), { code }))
  it.each(['57P01', '57P02', '57P03', '08006', '08001', '53300', '53100', '55P03', '25006', 'ECONNREFUSED', 'ECONNRESET'])('%s from the pool is unavailable', (code) => {
    expect(isStorageUnavailable(pgError(code))).toBe(true)
  })
  it('a connection lost mid-query (pg says "Connection terminated unexpectedly") is unavailable', () => {
    expect(isStorageUnavailable(tagPostgresError(new Error('Connection terminated unexpectedly')))).toBe(true)
  })
  it.each(['23505', '42P01', '22P02', '40001'])('%s (a bug or a conflict, not an outage) is not', (code) => {
    expect(isStorageUnavailable(pgError(code))).toBe(false)
  })
  it('a connection refused by anything other than the PostgreSQL pool is not a storage fault', () => {
    expect(isStorageUnavailable(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(false)
  })
})

describe('DATABASE_URL selects the engine, and never half-runs the site', () => {
  it('absent: SQLite; postgres:// or postgresql://: PostgreSQL; any other scheme is refused by name', () => {
    expect(engineOf(undefined)).toBe('sqlite')
    expect(engineOf('postgres://u@h/db')).toBe('postgres')
    expect(engineOf('postgresql://u@h/db')).toBe('postgres')
    expect(() => engineOf('mysql://u:secret@h/db')).toThrow(/DATABASE_URL must be a postgres:\/\/.*got "mysql:"/)
    expect(() => engineOf('mysql://u:secret@h/db')).not.toThrow(/secret/)
  })
  it('a postgres URL is refused with one line naming every store still on SQLite, while any is', () => {
    // every store is converted now (STILL_ON_SQLITE is empty): the rule is checked on a list of the shape it had
    const left = [
      { store: 'bets', files: ['server/bets/store.ts'] },
      { store: 'sessions and refresh-token families', files: ['server/auth/sessions.ts'] },
    ]
    expect(() => refuseHalfConvertedPostgres('postgres://u@h/db', left)).toThrow(halfConvertedMessage(left))
    expect(halfConvertedMessage(left)).not.toContain('\n')
    for (const { store } of left) expect(halfConvertedMessage(left)).toContain(store)
    expect(() => refuseHalfConvertedPostgres(undefined, left)).not.toThrow()
  })
  it('with every store converted, a postgres URL starts the site', () => {
    expect(STILL_ON_SQLITE).toEqual([])
    expect(() => refuseHalfConvertedPostgres('postgres://u@h/db')).not.toThrow()
  })
})

describe('the conversion plan stays true', () => {
  const serverFiles = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const file = join(dir, name)
      return statSync(file).isDirectory() ? serverFiles(file) : file.endsWith('.ts') ? [relative(ROOT, file)] : []
    })
  // database.ts opens the file; sqlite-driver.ts is the query layer's own driver (it prepares every statement)
  const engineFiles = ['server/db/database.ts', 'server/db/sqlite-driver.ts']
  const rawSqlite = serverFiles(join(ROOT, 'server')).filter((file) => !engineFiles.includes(file) && /\.prepare\(/.test(readFileSync(join(ROOT, file), 'utf8')))

  it('every server file that still prepares raw SQLite statements is named in server/db/stores.ts', () => {
    const listed = new Set(STILL_ON_SQLITE.flatMap((s) => s.files))
    expect(rawSqlite.filter((file) => !listed.has(file))).toEqual([])
  })
  it('the converted stores prepare no raw SQLite statement', () => {
    expect(rawSqlite).not.toContain('server/auth/throttle.ts')
    expect(rawSqlite).not.toContain('server/credentials/throttle.ts')
    for (const file of ['server/store/audit.ts', 'server/store/store.ts', 'server/store/releases.ts', 'server/store/snapshots.ts', 'server/bus/documents-sync.ts']) expect(rawSqlite).not.toContain(file)
    for (const file of ['server/auth/sessions.ts', 'server/auth/session-lookups.ts', 'server/realtime/server.ts', 'server/realtime/session-sweep.ts']) expect(rawSqlite).not.toContain(file)
  })
})
