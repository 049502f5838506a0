/**
 * Issue 11 item 4: the audit log cannot be rewritten or shortened undetected. Each case tampers
 * with a copy of a real server's data dir the way someone with write access to the database would
 * (triggers dropped, chain recomputed with SHA-256 since the HMAC key is not in the database), then
 * runs the real `audit:verify` CLI on it.
 *
 * SQLite only: every case edits the data folder's SQLite file and `audit:verify <data dir>` reads
 * it. On PostgreSQL the chain lives in the shared database and is checked against each instance's
 * anchor by `verifyAuditDatabase` (tests/http/scale/two-instances.test.ts after a SIGKILL;
 * tests/http/admin/security.test.ts for a row edited around the trigger), so the PostgreSQL pass
 * skips this file.
 */
import Database from 'better-sqlite3'
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { entryHash, GENESIS_HASH, type AuditRow } from '../../../server/store/audit'
import { anchorFileOf, AUDIT_KEY_FILE, loadAuditKey, readAnchor, writeAnchor, type DatabaseIdentity } from '../../../server/store/audit-anchor'
import { onPostgres } from '../../support/server'
import { COMPLIANCE, OPERATOR, SPAIN_SIGNUP, draftAndSubmit, signIn, startTestServer, type TestServer } from './support'

const ROOT = resolve(import.meta.dirname, '..', '..', '..')
const work = mkdtempSync(join(tmpdir(), 'parlay-audit-anchor-'))
const dataDir = join(work, 'data')
let server: TestServer

beforeAll(async () => {
  server = await startTestServer({ dataDir })
  const operator = await signIn(server, OPERATOR)
  const compliance = await signIn(server, COMPLIANCE)
  for (let i = 0; i < 6; i++) {
    const id = await draftAndSubmit(operator, SPAIN_SIGNUP, (d) => (d.steps[1].schema.properties.firstName.maxLength = 40 + i), server)
    await compliance.post(`/admin/api/versions/${id}/reject`, { comment: `not this one (${i})` })
  }
  await server.close()
}, 120000)
afterAll(() => server?.dispose().catch(() => {}))

/** The identity the data dir's SQLite file was given at creation (its anchor is named by it). */
function databaseOf(dir: string): DatabaseIdentity {
  const db = new Database(join(dir, 'parlay.db'), { readonly: true })
  try {
    return { id: (db.prepare('SELECT id FROM database_identity').get() as { id: string }).id, engine: 'sqlite' }
  } finally {
    db.close()
  }
}

/** A copy of the data dir to tamper with. */
function copyOfData(name: string): string {
  const dir = join(work, name)
  cpSync(dataDir, dir, { recursive: true })
  return dir
}

function auditVerify(dir: string): { status: number | null; output: string } {
  const env = { ...process.env }
  delete env.PARLAY_AUDIT_KEY
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'tools', 'audit-verify.ts'), dir], { cwd: ROOT, env, encoding: 'utf8' })
  return { status: run.status, output: `${run.stdout}${run.stderr}` }
}

describe.skipIf(onPostgres)('audit:verify (npm run audit:verify -- <data dir>)', () => {
  it('passes an untouched log and its anchor', () => {
    const result = auditVerify(copyOfData('untouched'))
    expect(result.output).toMatch(/audit log intact: \d+ entries/)
    expect(result.status).toBe(0)
  })

  it('fails a log whose row was edited and whose chain was recomputed from it, naming the row', () => {
    const dir = copyOfData('rewritten')
    const db = new Database(join(dir, 'parlay.db'))
    db.exec('DROP TRIGGER audit_log_no_update')
    const rows = db.prepare('SELECT * FROM audit_log ORDER BY seq').all() as AuditRow[]
    const target = rows.find((r) => r.action === 'review.rejected')!
    let prev = target.seq === 1 ? GENESIS_HASH : rows[target.seq - 2].hash
    for (const row of rows.slice(target.seq - 1)) {
      const edited = row.seq === target.seq ? { ...row, actor: 'mallory@parlay.test' } : row
      const hash = entryHash(null, prev, edited)
      db.prepare('UPDATE audit_log SET actor = ?, prev_hash = ?, hash = ? WHERE seq = ?').run(edited.actor, prev, hash, row.seq)
      prev = hash
    }
    db.close()
    const result = auditVerify(dir)
    expect(result.status).toBe(1)
    expect(result.output).toContain(`first bad entry #${target.seq}`)
  })

  it('fails a log whose last 10 entries were deleted, saying they were removed', () => {
    const dir = copyOfData('truncated')
    const db = new Database(join(dir, 'parlay.db'))
    db.exec('DROP TRIGGER audit_log_no_delete')
    const last = (db.prepare('SELECT max(seq) AS n FROM audit_log').get() as { n: number }).n
    db.prepare('DELETE FROM audit_log WHERE seq > ?').run(last - 10)
    db.close()
    const result = auditVerify(dir)
    expect(result.status).toBe(1)
    expect(result.output).toContain(`entries ${last - 9}–${last} were removed`)
  })

  it('fails when the anchor was rewritten by hand to match a truncated log (its MAC no longer holds)', () => {
    const dir = copyOfData('forged-anchor')
    const file = join(dir, anchorFileOf(databaseOf(dir).id))
    const anchor = JSON.parse(readFileSync(file, 'utf8'))
    anchor.committed.entries -= 1
    writeFileSync(file, JSON.stringify(anchor))
    const result = auditVerify(dir)
    expect(result.status).toBe(1)
    expect(result.output).toMatch(/does not carry a valid MAC/)
  })

  it('cannot verify without the key (exit 2), rather than passing', () => {
    const dir = copyOfData('no-key')
    rmSync(join(dir, AUDIT_KEY_FILE))
    const result = auditVerify(dir)
    expect(result.status).toBe(2)
    expect(result.output).toMatch(/no audit key/)
  })
})

describe.skipIf(onPostgres)('the key and the anchor', () => {
  it('the key file is created on first start, readable by its owner only', () => {
    expect(statSync(join(dataDir, AUDIT_KEY_FILE)).mode & 0o777).toBe(0o600)
  })

  it('a crash between the commit and the anchor write is accepted, and the next start catches the anchor up', async () => {
    const dir = copyOfData('crashed')
    const { key } = loadAuditKey(dir, { create: false })
    const db = new Database(join(dir, 'parlay.db'), { readonly: true })
    const rows = db.prepare('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 2').all() as { seq: number; hash: string }[]
    db.close()
    // The anchor as the crash left it: the last transaction pending, the one before committed.
    writeAnchor(dir, key, { database: databaseOf(dir), committed: { entries: rows[1].seq, head: rows[1].hash }, pending: { entries: rows[0].seq, head: rows[0].hash }, legacyEntries: 0 })
    expect(auditVerify(dir).status).toBe(0)
    const restarted = await startTestServer({ dataDir: dir })
    await restarted.close()
    const anchor = readAnchor(dir, key, databaseOf(dir))
    expect(anchor.status === 'ok' && anchor.record.pending).toBe(null)
    expect(auditVerify(dir).status).toBe(0)
  }, 60000)

  it('an anchor one transaction behind with nothing pending is not a crash: it fails', () => {
    const dir = copyOfData('behind')
    const { key } = loadAuditKey(dir, { create: false })
    const db = new Database(join(dir, 'parlay.db'), { readonly: true })
    const before = db.prepare('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1 OFFSET 1').get() as { seq: number; hash: string }
    db.close()
    writeAnchor(dir, key, { database: databaseOf(dir), committed: { entries: before.seq, head: before.hash }, pending: null, legacyEntries: 0 })
    const result = auditVerify(dir)
    expect(result.status).toBe(1)
    expect(result.output).toMatch(/not covered by the anchor/)
  })

  it('the server refuses to start on a truncated log and says how to check it', async () => {
    const dir = copyOfData('refused')
    const db = new Database(join(dir, 'parlay.db'))
    db.exec('DROP TRIGGER audit_log_no_delete')
    db.prepare('DELETE FROM audit_log WHERE seq = (SELECT max(seq) FROM audit_log)').run()
    db.close()
    await expect(startTestServer({ dataDir: dir })).rejects.toThrow(/audit log fails verification.*were removed.*audit:verify/s)
  }, 60000)
})
