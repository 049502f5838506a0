/**
 * `tsx tools/audit-verify.ts [data dir | parlay.db]`: verifies the admin audit log's hash chain,
 * read-only. Exit 0 when intact; exit 1 and the first tampered entry otherwise; exit 2 when the
 * database cannot be read.
 */
import Database from 'better-sqlite3'
import { existsSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { verifyAudit, type AuditVerification } from '../server/store/audit'

export function verifyAuditFile(path: string): AuditVerification {
  const file = existsSync(path) && statSync(path).isDirectory() ? join(path, 'parlay.db') : path
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    return verifyAudit(db)
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
      console.log(`audit log intact: ${result.entries} entries, head ${result.head}`)
      process.exit(0)
    }
    console.error(`audit log TAMPERED: first bad entry #${result.firstBadSeq} (${result.reason}); ${result.entries} entries checked`)
    process.exit(1)
  } catch (error) {
    console.error(`audit-verify: cannot read ${target}: ${(error as Error).message}`)
    process.exit(2)
  }
}
