/**
 * `npm run audit:accept -- <data dir> --reason "…" [--checkpoint <file>]`: an operator accepts the
 * audit log as it stands, where the server refuses to start on it — a database restored from a
 * backup (the anchor says entries were removed), an instance whose data folder was replaced (no
 * anchor for this database). The chain must still verify under the audit key, and hold the
 * checkpoint when one is given; the anchor is then written at the log's head and the acceptance
 * is the log's next entry, with the anchor it replaced and the reason, so the decision is on
 * record. Same database as `npm start` (PARLAY_DATA_DIR / DATABASE_URL, PARLAY_AUDIT_KEY).
 * Exit 0 accepted, 1 refused (the chain or the checkpoint fails), 2 cannot open.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { AuditLogError } from '../server/store/audit'
import { acceptAuditLog } from '../server/store/audit-open'
import { openToolDatabase } from './open-database'

export async function runAuditAccept(argv: readonly string[], env: NodeJS.ProcessEnv, out: (line: string) => void): Promise<number> {
  let dataDir: string | undefined
  let reason = ''
  let checkpointFile: string | undefined
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--reason') reason = argv[++i] ?? ''
    else if (argv[i] === '--checkpoint') checkpointFile = argv[++i]
    else dataDir ??= argv[i]
  }
  if (!dataDir || reason.trim().length < 5) {
    out('usage: audit:accept -- <data dir> --reason "why the log is accepted as it is" [--checkpoint <file>]')
    return 1
  }
  let database
  try {
    database = await openToolDatabase(env, dataDir)
    const checkpoint = checkpointFile ? readFileSync(resolve(checkpointFile), 'utf8') : undefined
    const accepted = await acceptAuditLog(database.data, database.dataDir, { now: Date.now(), reason: reason.trim(), checkpoint })
    const before = accepted.previous ? `the anchor said ${accepted.previous.entries}` : 'there was no anchor for this database'
    out(`audit log accepted at ${accepted.entries} entries (${before}); the acceptance is entry ${accepted.entries + 1}`)
    return 0
  } catch (error) {
    out(`audit:accept: ${error instanceof AuditLogError ? 'refused' : 'cannot accept'}: ${(error as Error).message}`)
    return error instanceof AuditLogError ? 1 : 2
  } finally {
    await database?.close()
  }
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)
if (isMain) process.exitCode = await runAuditAccept(process.argv.slice(2), process.env, (line) => console.log(line))
