/**
 * `npm run audit:verify -- [data dir | parlay.db] [--checkpoint <file>]…`: verifies the admin audit
 * log, read-only: every entry's HMAC link (key from `PARLAY_AUDIT_KEY` or `<data dir>/audit.key`),
 * the log's end against this database's anchor in the data dir, and — since whoever can rewrite the
 * database and the folder together can put back an older anchor — against each signed checkpoint
 * given (downloaded from /admin), naming a rollback ("the log has 340 entries but the checkpoint
 * of … says 346: entries after 340 were removed"). An anchor or checkpoint of another database is
 * called that. With `DATABASE_URL=postgres://…` it reads the log several instances share from
 * PostgreSQL and checks it against the anchor of the instance whose data dir is given (entries past
 * that anchor, appended by other instances, must carry the audit key's hash).
 * Exit 0 when intact; exit 1 naming the first tampered entry (or the removed ones) otherwise;
 * exit 2 when the database, the key or a checkpoint file cannot be read.
 */
import Database from 'better-sqlite3'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { auditRows, verifyAuditChain, type AuditRow, type AuditVerification } from '../server/store/audit'
import { engineOf, openDataLayer } from '../server/db/data-layer'
import { databaseIdentity } from '../server/db/identity'
import { loadAuditKey, otherAnchors, readAnchor, type DatabaseIdentity } from '../server/store/audit-anchor'
import { compareWithCheckpoint, readCheckpoint } from '../server/store/audit-checkpoint'

export interface VerifyOptions {
  env?: NodeJS.ProcessEnv
  /** Checkpoint files' texts. */
  checkpoints?: string[]
}

/** The log against this database's anchor (or, for a database from before ids, the folder's old anchor) and the checkpoints. */
function verifyLog(rows: AuditRow[], key: Buffer, dataDir: string, database: DatabaseIdentity | null, options: VerifyOptions & { shared?: boolean }): AuditVerification {
  let anchor = readAnchor(dataDir, key, database)
  // a database given an id whose server has not started since: its anchor is still the old file
  if (database && anchor.status === 'missing') {
    const legacy = readAnchor(dataDir, key, null)
    if (legacy.status === 'ok' && verifyAuditChain(rows, key, legacy, options).ok) anchor = legacy
  }
  const verified = verifyAuditChain(rows, key, anchor, options)
  if (!verified.ok && anchor.status === 'missing' && database) {
    const others = otherAnchors(dataDir, key, database.id).map((a) => `${a.id} (${a.engine}${a.entries === null ? '' : `, ${a.entries} entries`})`)
    const legacy = readAnchor(dataDir, key, null)
    if (legacy.status === 'ok') others.push(`audit-anchor.json (from before anchors named their database, ${legacy.record.committed.entries} entries, not this log's end)`)
    const elsewhere = others.length > 0 ? `; the anchors there belong to other databases: ${others.join('; ')}` : ''
    return { ...verified, reason: `no audit anchor for database ${database.id} (${database.engine}) in ${dataDir}${elsewhere}` }
  }
  if (!verified.ok || !database) return verified
  for (const text of options.checkpoints ?? []) {
    const read = readCheckpoint(text, key)
    if (read.status === 'altered') return { ok: false, entries: rows.length, firstBadSeq: 0, reason: read.reason }
    const rolledBack = compareWithCheckpoint(rows, database, read.checkpoint)
    if (rolledBack) return rolledBack
  }
  return verified
}

/** The id an SQLite file was given, or null for a database from before ids. */
function sqliteIdentity(db: Database.Database): DatabaseIdentity | null {
  try {
    const row = db.prepare('SELECT id FROM database_identity ORDER BY created_at LIMIT 1').get() as { id: string } | undefined
    return row ? { id: row.id, engine: 'sqlite' } : null
  } catch {
    return null // no such table: the file predates database ids
  }
}

export function verifyAuditFile(path: string, options: VerifyOptions = {}): AuditVerification {
  const isDir = existsSync(path) && statSync(path).isDirectory()
  const dataDir = isDir ? path : dirname(path)
  const file = isDir ? join(path, 'parlay.db') : path
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    const { key } = loadAuditKey(dataDir, { create: false, env: options.env })
    return verifyLog(db.prepare('SELECT * FROM audit_log ORDER BY seq ASC').all() as AuditRow[], key, dataDir, sqliteIdentity(db), options)
  } finally {
    db.close()
  }
}

/** The shared log on PostgreSQL, against the anchor in one instance's data dir. */
export async function verifyAuditDatabase(databaseUrl: string, dataDir: string, options: VerifyOptions = {}): Promise<AuditVerification> {
  const { key } = loadAuditKey(dataDir, { create: false, env: options.env })
  const data = openDataLayer({ databaseUrl, sqlite: undefined as never, poolSize: 1 })
  try {
    return verifyLog(await auditRows(data.db), key, dataDir, await databaseIdentity(data), { ...options, shared: true })
  } finally {
    await data.close()
  }
}

/** `<target> [--checkpoint <file>]…` */
export function argumentsOf(argv: readonly string[], fallbackDir: string): { target: string; checkpointFiles: string[] } {
  const checkpointFiles: string[] = []
  let target: string | undefined
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--checkpoint') checkpointFiles.push(resolve(argv[++i] ?? ''))
    else target ??= argv[i]
  }
  return { target: resolve(target ?? fallbackDir), checkpointFiles }
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)
if (isMain) {
  const { target, checkpointFiles } = argumentsOf(process.argv.slice(2), join(import.meta.dirname, '..', 'data'))
  try {
    const checkpoints = checkpointFiles.map((file) => readFileSync(file, 'utf8'))
    const databaseUrl = process.env.DATABASE_URL
    const result = databaseUrl && engineOf(databaseUrl) === 'postgres' ? await verifyAuditDatabase(databaseUrl, target, { checkpoints }) : verifyAuditFile(target, { checkpoints })
    if (result.ok) {
      const also = checkpoints.length > 0 ? ` and holds the ${checkpoints.length} checkpoint(s) given` : ''
      console.log(`audit log intact: ${result.entries} entries, head ${result.head}, matches the anchor${also}`)
      process.exit(0)
    }
    const where = result.firstBadSeq > 0 ? `first bad entry #${result.firstBadSeq}` : 'the anchor'
    console.error(`audit log TAMPERED: ${where}: ${result.reason}; ${result.entries} entries checked`)
    process.exit(1)
  } catch (error) {
    console.error(`audit-verify: cannot verify ${target}: ${(error as Error).message}`)
    process.exit(2)
  }
}
