/**
 * `npm run audit:verify -- [data dir | parlay.db]`: verifies the admin audit log, read-only: every
 * entry's HMAC link (key from `PARLAY_AUDIT_KEY` or `<data dir>/audit.key`) and the log's end
 * against `<data dir>/audit-anchor.json`, so a rewritten entry and a removed tail both fail.
 * Exit 0 when intact; exit 1 naming the first tampered entry (or the removed ones) otherwise;
 * exit 2 when the database or the key cannot be read.
 */
import Database from 'better-sqlite3'
import { existsSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { verifyAuditChain, type AuditRow, type AuditVerification } from '../server/store/audit'
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

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)
if (isMain) {
  const target = resolve(process.argv[2] ?? join(import.meta.dirname, '..', 'data'))
  try {
    const result = verifyAuditFile(target)
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
