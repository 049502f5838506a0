/**
 * Issue 30 item 5: an audit log nobody can roll back quietly. Someone who can write the database
 * and the data folder deletes the last entries and puts back an older anchor: the log and the
 * anchor agree, so only a signed checkpoint kept outside (downloaded from /admin) tells — and
 * `audit:verify --checkpoint` and a start given the checkpoint name the rollback. An instance whose
 * data folder was replaced does not re-anchor a shorter log: it refuses to start and names
 * `audit:accept`, which takes the log explicitly and records that. An anchor of another database is
 * called that, never "entries were removed". A server whose log is shortened while it runs appends
 * nothing more. Each case runs on SQLite, and on PostgreSQL in the PostgreSQL pass; the switch of a
 * folder from SQLite to PostgreSQL runs on a throw-away cluster of its own.
 */
import Database from 'better-sqlite3'
import { spawn } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anchorFileOf, AUDIT_KEY_FILE, LEGACY_ANCHOR_FILE, loadAuditKey, readAnchor, writeAnchor } from '../../../server/store/audit-anchor'
import { databaseIdentity } from '../../../server/db/identity'
import { onPostgres } from '../../support/server'
import { postgresBinaries, postgresDatabaseFor, startPostgres, type ThrowawayPostgres } from '../../support/postgres'
import { OPERATOR, signIn, startTestServer, type TestServer } from './support'

const ROOT = resolve(import.meta.dirname, '..', '..', '..')
const work = mkdtempSync(join(tmpdir(), 'parlay-audit-rollback-'))

/** Runs one of the project's tools (`audit:verify`, `audit:accept`) as an operator would. */
function tool(name: 'audit-verify' | 'audit-accept', args: string[], databaseUrl?: string): Promise<{ code: number | null; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }
  if (!databaseUrl) delete env.DATABASE_URL
  delete env.PARLAY_AUDIT_KEY
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'tools', `${name}.ts`), ...args], { cwd: ROOT, env })
  let output = ''
  child.stdout.on('data', (c) => (output += c))
  child.stderr.on('data', (c) => (output += c))
  return new Promise((done) => child.once('exit', (code) => done({ code, output })))
}

const entriesOf = async (server: TestServer) => Number((await server.deps.data.db.selectFrom('audit_log').select((eb) => eb.fn.max('seq').as('n')).executeTakeFirstOrThrow()).n)

/** Deletes every entry after `keep`, around the append-only trigger, as the database's owner can. */
async function truncateLog(where: { dataDir: string; databaseUrl?: string }, keep: number): Promise<void> {
  if (where.databaseUrl)
    return withClient(where.databaseUrl, async (client) => {
      await client.query('ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only')
      await client.query('DELETE FROM audit_log WHERE seq > $1', [keep])
      await client.query('ALTER TABLE audit_log ENABLE TRIGGER audit_log_append_only')
    })
  const db = new Database(join(where.dataDir, 'parlay.db'))
  db.exec('DROP TRIGGER IF EXISTS audit_log_no_delete')
  db.prepare('DELETE FROM audit_log WHERE seq > ?').run(keep)
  db.close()
}

async function withClient<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

const anchorPathOf = async (server: TestServer) => join(server.deps.config.dataDir, anchorFileOf((await databaseIdentity(server.deps.data)).id))

describe('deleting the last entries and putting back an older anchor', () => {
  const dataDir = join(work, 'rollback', 'data')
  const checkpointFile = join(work, 'rollback-checkpoint.json')
  let databaseUrl: string | undefined
  let kept = 0
  let signed = 0

  beforeAll(async () => {
    const server = await startTestServer({ dataDir })
    databaseUrl = server.databaseUrl
    for (let i = 0; i < 3; i++) await server.deps.store.audit(OPERATOR.email, 'test.before-the-copy', 'rollback', { i })
    kept = await entriesOf(server)
    const olderAnchor = readFileSync(await anchorPathOf(server), 'utf8')
    const anchorPath = await anchorPathOf(server)
    for (let i = 0; i < 6; i++) await server.deps.store.audit(OPERATOR.email, 'test.after-the-copy', 'rollback', { i })
    const operator = await signIn(server, OPERATOR)
    const download = await operator.get('/admin/api/audit/checkpoint')
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="parlay-audit-checkpoint-/)
    writeFileSync(checkpointFile, download.body)
    signed = JSON.parse(download.body).entries
    await server.close()
    // the rollback: the tail deleted, the anchor of that moment put back
    await truncateLog({ dataDir, databaseUrl }, kept)
    writeFileSync(anchorPath, olderAnchor)
  }, 120_000)

  it('audit:verify cannot tell from the anchor (they agree), but given the checkpoint it names the rollback', async () => {
    const plain = await tool('audit-verify', [dataDir], databaseUrl)
    expect(plain.output).toMatch(/audit log intact/)
    const checked = await tool('audit-verify', [dataDir, '--checkpoint', checkpointFile], databaseUrl)
    expect(checked.output).toMatch(new RegExp(`the log has ${kept} entries but the checkpoint of \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC says ${signed}: entries after ${kept} were removed`))
    expect(checked.code).toBe(1)
  }, 60_000)

  it('a start given the checkpoint (PARLAY_AUDIT_CHECKPOINT) refuses, naming the rollback', async () => {
    await expect(startTestServer({ dataDir, auditCheckpoint: checkpointFile })).rejects.toThrow(new RegExp(`against the checkpoint given: the log has ${kept} entries but .* says ${signed}: entries after ${kept} were removed`))
  }, 60_000)

  it('a checkpoint edited by hand, or one of another database, is refused by name', async () => {
    const checkpoint = JSON.parse(readFileSync(checkpointFile, 'utf8'))
    writeFileSync(join(work, 'edited.json'), JSON.stringify({ ...checkpoint, entries: kept }))
    expect((await tool('audit-verify', [dataDir, '--checkpoint', join(work, 'edited.json')], databaseUrl)).output).toContain('does not carry a valid MAC')
    const { key } = loadAuditKey(dataDir, { create: false, env: {} })
    const { signCheckpoint } = await import('../../../server/store/audit-checkpoint')
    const elsewhere = signCheckpoint(key, { database: { id: '11111111-2222-4333-8444-555555555555', engine: 'postgres' }, entries: 1, head: checkpoint.head, at: checkpoint.at })
    writeFileSync(join(work, 'elsewhere.json'), JSON.stringify(elsewhere))
    const other = await tool('audit-verify', [dataDir, '--checkpoint', join(work, 'elsewhere.json')], databaseUrl)
    expect(other.output).toMatch(/belongs to another database \(11111111-2222-4333-8444-555555555555, postgres\), not this one/)
    expect(other.output).not.toMatch(/were removed/)
  }, 60_000)
})

describe('an instance whose data folder was replaced', () => {
  it('does not re-anchor a shorter log: it refuses to start naming audit:accept, which takes the log explicitly (recorded with why), and then it starts', async () => {
    const folderA = join(work, 'replaced-a', 'data')
    const folderB = join(work, 'replaced-b', 'data')
    // the log was started an hour ago (past the window in which new replicas join a young log)
    const hourAgo = { now: Date.now() - 3_600_000 }
    const a = await startTestServer({ dataDir: folderA, now: () => hourAgo.now })
    const databaseUrl = a.databaseUrl
    const entries = await entriesOf(a)
    await a.close()
    await truncateLog({ dataDir: folderA, databaseUrl }, entries - 5)
    mkdirSync(folderB, { recursive: true })
    copyFileSync(join(folderA, AUDIT_KEY_FILE), join(folderB, AUDIT_KEY_FILE))
    if (!databaseUrl) copyFileSync(join(folderA, 'parlay.db'), join(folderB, 'parlay.db'))

    await expect(startTestServer({ dataDir: folderB, databaseUrl })).rejects.toThrow(
      new RegExp(`holds no audit anchor for database [0-9a-f-]{36} \\(${databaseUrl ? 'postgres' : 'sqlite'}\\), whose log already has ${entries - 5} entries.*npm run audit:accept -- ${folderB}`, 's'),
    )
    const accepted = await tool('audit-accept', [folderB, '--reason', 'new host for instance B, checked with the team'], databaseUrl)
    expect(accepted.output).toContain(`audit log accepted at ${entries - 5} entries (there was no anchor for this database); the acceptance is entry ${entries - 4}`)
    expect(accepted.code).toBe(0)

    const b = await startTestServer({ dataDir: folderB, databaseUrl })
    try {
      const entry = await b.deps.data.db.selectFrom('audit_log').select(['seq', 'actor', 'details']).where('action', '=', 'audit.log-accepted').executeTakeFirstOrThrow()
      expect(entry.seq).toBe(entries - 4)
      expect(JSON.parse(entry.details)).toMatchObject({ entries: entries - 5, previousAnchor: null, reason: 'new host for instance B, checked with the team' })
    } finally {
      await b.close()
    }
    // A's own folder still remembers the longer log
    await expect(startTestServer({ dataDir: folderA, databaseUrl, now: () => hourAgo.now })).rejects.toThrow(/audit log fails verification/)
  }, 180_000)
})

describe('a server whose log is shortened while it runs', () => {
  it('answers the next audited change 503 AUDIT_LOG_UNVERIFIED and appends nothing', async () => {
    const server = await startTestServer({ dataDir: join(work, 'running', 'data') })
    try {
      const operator = await signIn(server, OPERATOR)
      const entries = await entriesOf(server)
      await truncateLog({ dataDir: server.deps.config.dataDir, databaseUrl: server.databaseUrl }, entries - 3)
      // a read of punters' records is audited before it is answered: no entry, no answer
      const refused = await operator.get('/admin/api/services/errors')
      expect([refused.status, refused.json().errorCode]).toEqual([503, 'AUDIT_LOG_UNVERIFIED'])
      expect(await entriesOf(server)).toBe(entries - 3)
    } finally {
      await server.dispose()
    }
  }, 90_000)
})

describe('an anchor of another database', () => {
  it('a folder whose database was swapped for another is told the anchors there belong to another database, not that entries were removed', async () => {
    const x = join(work, 'swap-x', 'data')
    const y = join(work, 'swap-y', 'data')
    const first = await startTestServer({ dataDir: x })
    const xId = (await databaseIdentity(first.deps.data)).id
    await first.close()
    mkdirSync(y, { recursive: true })
    copyFileSync(join(x, AUDIT_KEY_FILE), join(y, AUDIT_KEY_FILE))
    // another database (PostgreSQL: copies of one template share an id, so this one is given its own),
    // its log begun an hour ago
    const yUrl = onPostgres ? await postgresDatabaseFor(y) : undefined
    if (yUrl) await withClient(yUrl, (client) => client.query('UPDATE database_identity SET id = gen_random_uuid()::text'))
    const hourAgo = Date.now() - 3_600_000
    const other = await startTestServer({ dataDir: y, databaseUrl: yUrl, now: () => hourAgo })
    await other.deps.store.audit(OPERATOR.email, 'test.other-database', 'swap', {})
    const yId = (await databaseIdentity(other.deps.data)).id
    await other.close()
    if (!yUrl) copyFileSync(join(y, 'parlay.db'), join(x, 'parlay.db'))
    const engine = yUrl ? 'postgres' : 'sqlite'
    const pattern = new RegExp(`no audit anchor for database ${yId} \\(${engine}\\).*belong to other databases: ${xId} \\(${engine}, \\d+ entries\\)`, 's')
    await expect(startTestServer({ dataDir: x, databaseUrl: yUrl })).rejects.toThrow(pattern)
    const verified = await tool('audit-verify', [x], yUrl)
    expect(verified.output).toMatch(pattern)
    expect(verified.output).not.toMatch(/were removed/)
  }, 120_000)
})

describe.skipIf(onPostgres || !postgresBinaries())('a data folder moved from SQLite to PostgreSQL', () => {
  let cluster: ThrowawayPostgres
  beforeAll(async () => void (cluster = await startPostgres()), 120_000)
  afterAll(() => cluster?.dispose())

  it('its anchor from before anchors named their database stays the SQLite log\'s: PostgreSQL starts beside it, both verify, and SQLite takes it over', async () => {
    const dir = join(work, 'switch', 'data')
    const sqlite = await startTestServer({ dataDir: dir })
    const sqliteId = await databaseIdentity(sqlite.deps.data)
    await sqlite.close()
    // the folder as an earlier version left it: one anchor, naming no database
    const { key } = loadAuditKey(dir, { create: false, env: {} })
    const keyed = readAnchor(dir, key, sqliteId)
    if (keyed.status !== 'ok') throw new Error('no anchor')
    writeAnchor(dir, key, { ...keyed.record, database: null })
    rmSync(join(dir, anchorFileOf(sqliteId.id)))

    const databaseUrl = await cluster.createDatabase()
    const postgres = await startTestServer({ dataDir: dir, databaseUrl })
    await postgres.deps.store.audit(OPERATOR.email, 'test.on-postgres', 'switch', {})
    await postgres.close()
    expect(existsSync(join(dir, LEGACY_ANCHOR_FILE))).toBe(true)
    const onPg = await tool('audit-verify', [dir], databaseUrl)
    expect(onPg.output).toMatch(/audit log intact/)
    expect(onPg.output).not.toMatch(/removed/)

    const back = await startTestServer({ dataDir: dir })
    await back.close()
    expect(existsSync(join(dir, LEGACY_ANCHOR_FILE))).toBe(false)
    expect(existsSync(join(dir, anchorFileOf(sqliteId.id)))).toBe(true)
    expect((await tool('audit-verify', [dir])).output).toMatch(/audit log intact/)
  }, 180_000)
})

afterAll(() => rmSync(work, { recursive: true, force: true }))
