/**
 * `npm run audit:verify -- [data dir | parlay.db]`: verifies the admin audit log, read-only: every
 * entry's HMAC link (key from `PARLAY_AUDIT_KEY` or `<data dir>/audit.key`) and the log's end
 * against `<data dir>/audit-anchor.json`, so a rewritten entry and a removed tail both fail.
 * With `DATABASE_URL=postgres://…` it reads the log several instances share from PostgreSQL and
 * checks it against the anchor of the instance whose data dir is given (entries past that anchor,
 * appended by other instances, must carry the audit key's hash).
 * Exit 0 when intact; exit 1 naming the first tampered entry (or the removed ones) otherwise;
 * exit 2 when the database or the key cannot be read.
 */
import Database from 'better-sqlite3'
import { existsSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { auditRows, verifyAuditChain, type AuditRow, type AuditVerification } from '../server/store/audit'
import { engineOf, openDataLayer } from '../server/db/data-layer'
import { loadAuditKey, readAnchor } from '../server/store/audit-anchor'

export function verifyAuditFile(path: string, env: NodeJS.ProcessEnv = process.env): AuditVerification {
  const isDir = existsSync(path) && statSync(path).isDirectory()
  const dataDir = isDir ? path : dirname(path)
  const file = isDir ? join(path, 'parlay.db') : path
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    const { key } = loadAuditKey(dataDir, { create: false, env })
    return verifyAuditChain(db.prepare('SELECT * FROM audit_log ORDER BY seq ASC').all() as AuditRow[], key, readAnchor(dataDir, key))
  } finally {
    db.close()
  }
}

/** The shared log on PostgreSQL, against the anchor in one instance's data dir. */
export async function verifyAuditDatabase(databaseUrl: string, dataDir: string, env: NodeJS.ProcessEnv = process.env): Promise<AuditVerification> {
  const { key } = loadAuditKey(dataDir, { create: false, env })
  const data = openDataLayer({ databaseUrl, sqlite: undefined as never, poolSize: 1 })
  try {
    return verifyAuditChain(await auditRows(data.db), key, readAnchor(dataDir, key), { shared: true })
  } finally {
    await data.close()
  }
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)
if (isMain) {
  const target = resolve(process.argv[2] ?? join(import.meta.dirname, '..', 'data'))
  try {
    const databaseUrl = process.env.DATABASE_URL
    const result = databaseUrl && engineOf(databaseUrl) === 'postgres' ? await verifyAuditDatabase(databaseUrl, target) : verifyAuditFile(target)
    if (result.ok) {
      console.log(`audit log intact: ${result.entries} entries, head ${result.head}, matches the anchor`)
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
