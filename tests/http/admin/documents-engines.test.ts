/**
 * The audit chain (server/store/audit.ts) and the documents store (server/store/store.ts) on the
 * query layer (issue 16), on both engines: SQLite (no DATABASE_URL) and a throw-away PostgreSQL
 * (tests/support/postgres.ts).
 * The rules that matter across instances: concurrent audited writers keep ONE chain (serialised by
 * the database: BEGIN IMMEDIATE on SQLite, an advisory lock on PostgreSQL), and a document
 * published on one instance is served by another on the same PostgreSQL database within 2 s
 * (the publish generation's trigger NOTIFYs; documents-sync LISTENs).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listAudit, verifyAudit } from '../../../server/store/audit'
import { engines, type Pair } from '../../support/postgres'
import { COMPLIANCE, OPERATOR, startTestServer, type TestServer } from './support'

const { havePostgres, each: ENGINES, on: onEngine, pair } = engines()

const WRITERS = 20

describe.each(ENGINES)('the audit chain on %s', (engine, runs) => {
  let server: TestServer
  beforeAll(async () => {
    if (runs) server = await startTestServer(await onEngine(engine))
  }, 120_000)
  afterAll(async () => server?.dispose())

  it.runIf(runs)(`${WRITERS} concurrent audited writes give one unbroken chain: every entry links to the one before, and the anchor holds its end`, async () => {
    expect(server.deps.data.engine).toBe(engine)
    const before = (await verifyAudit(server.deps.data)).entries
    await Promise.all(Array.from({ length: WRITERS }, (_, i) => server.deps.store.audit(OPERATOR.email, 'test.concurrent-write', `writer-${i}`, { i })))
    const verified = await verifyAudit(server.deps.data)
    expect(verified).toMatchObject({ ok: true, entries: before + WRITERS, anchored: true })
    const written = (await listAudit(server.deps.data, { limit: WRITERS })).filter((e) => e.action === 'test.concurrent-write')
    expect(new Set(written.map((e) => e.subject)).size).toBe(WRITERS)
    for (const [newer, older] of written.slice(0, -1).map((e, i) => [e, written[i + 1]])) expect(newer.prevHash).toBe(older.hash)
  })

  it.runIf(runs)('the log is append-only in the database itself: an UPDATE or DELETE of an entry is refused', async () => {
    const { sql } = await import('kysely')
    await expect(sql`UPDATE audit_log SET actor = 'forger' WHERE seq = 1`.execute(server.deps.data.db)).rejects.toThrow(/append-only/)
    await expect(sql`DELETE FROM audit_log WHERE seq = 1`.execute(server.deps.data.db)).rejects.toThrow(/append-only/)
  })
})

describe.runIf(havePostgres)('two instances on ONE PostgreSQL database (issue 16)', () => {
  const SELF_EXCLUDE = 'popups/self-exclude.json'
  let a: TestServer
  let b: TestServer
  let instances: Pair<TestServer> | undefined
  const dataDir = mkdtempSync(join(tmpdir(), 'parlay-docs-two-'))
  beforeAll(async () => {
    // one data dir: the instances share the audit key and its anchor, as a deployment shares PARLAY_AUDIT_KEY
    instances = await pair('postgres', (on) => startTestServer({ ...on, dataDir }))
    ;({ a, b } = instances)
  }, 180_000)
  afterAll(async () => {
    await instances?.dispose()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('a document published on A is served by B within 2 s', async () => {
    const doc = JSON.parse(readFileSync(join(a.documentsDir, SELF_EXCLUDE), 'utf8'))
    doc.animation = doc.animation === 'fade' ? 'slide' : 'fade'
    const draft = await a.deps.store.createDraft(OPERATOR.email, SELF_EXCLUDE, JSON.stringify(doc, null, 2))
    if (!draft.ok) throw new Error(`draft refused: ${draft.code}`)
    expect((await a.deps.store.submit(OPERATOR.email, draft.value.id)).ok).toBe(true)
    expect((await a.deps.store.approve(COMPLIANCE.email, draft.value.id)).ok).toBe(true)
    const servedOnB = () => b.deps.documents.list().find((r) => r.file === SELF_EXCLUDE)?.source.animation
    expect(servedOnB()).not.toBe(doc.animation)
    expect(await a.deps.store.publish(OPERATOR.email, draft.value.id)).toMatchObject({ ok: true })
    const published = Date.now()
    await expect.poll(servedOnB, { timeout: 2_000, interval: 20 }).toBe(doc.animation)
    expect(Date.now() - published).toBeLessThan(2_000)
  }, 120_000)

  it('audited writes sent to both instances at once keep one chain', async () => {
    const before = (await verifyAudit(a.deps.data)).entries
    await Promise.all(Array.from({ length: WRITERS }, (_, i) => (i % 2 ? b : a).deps.store.audit(OPERATOR.email, 'test.two-instances', `writer-${i}`, { i })))
    // every write is in the one chain (the server may append its own entries meanwhile, e.g. the
    // watch an earlier publish started: count this test's by action)
    const written = await a.deps.data.db.selectFrom('audit_log').select('subject').where('action', '=', 'test.two-instances').execute()
    expect(written.map((row) => row.subject).sort()).toEqual(Array.from({ length: WRITERS }, (_, i) => `writer-${i}`).sort())
    for (const server of [a, b]) {
      const verified = await verifyAudit(server.deps.data)
      expect(verified).toMatchObject({ ok: true, anchored: true })
      expect(verified.entries).toBeGreaterThanOrEqual(before + WRITERS)
    }
  }, 60_000)
})

describe.runIf(havePostgres)('instances with their own data folders on ONE PostgreSQL database share one audit log (issue 16)', () => {
  let a: TestServer
  let b: TestServer
  let instances: Pair<TestServer> | undefined
  beforeAll(async () => {
    // each its own folder; one audit key between them (tests/support/server.ts), as PARLAY_AUDIT_KEY in production
    instances = await pair('postgres', startTestServer)
    ;({ a, b } = instances)
  }, 120_000)
  afterAll(async () => instances?.dispose())

  it("an instance joining with the same key anchors at the log's head, and entries another instance appends later verify on it", async () => {
    expect(b.deps.config.dataDir).not.toBe(a.deps.config.dataDir)
    const before = (await verifyAudit(b.deps.data)).entries
    for (let i = 0; i < 3; i++) await a.deps.store.audit(OPERATOR.email, 'test.own-folders', `a-${i}`, { i })
    expect(await verifyAudit(b.deps.data)).toMatchObject({ ok: true, entries: before + 3, anchored: true })
  })

  it('an instance holding another audit key refuses to start on that log: it cannot vouch for entries it cannot verify', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'parlay-other-key-'))
    writeFileSync(join(dataDir, 'audit.key'), `${'ab'.repeat(32)}\n`, { mode: 0o600 })
    try {
      await expect(startTestServer({ ...instances!.on, dataDir })).rejects.toThrow(/audit log/)
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 60_000)
})
