/**
 * `schema-lint diff store:<a> store:<b> --data <dir>`: a store version as a diff side is the
 * published set with that version in place of its file. Opens the database read-only.
 */
import Database from 'better-sqlite3'
import { join } from 'node:path'
import type { DocumentSnapshot } from '../../tools/schema-lint/diff/differ'
import { snapshotOf } from '../../tools/schema-lint/diff/sources'

export function openStoreSnapshots(dataDir: string): (versionId: number) => DocumentSnapshot[] {
  const db = new Database(join(dataDir, 'parlay.db'), { readonly: true, fileMustExist: true })
  return (versionId) => {
    const version = db.prepare('SELECT file, content FROM store_versions WHERE id = ?').get(versionId) as { file: string; content: string } | undefined
    if (!version) throw new Error(`no store version ${versionId}`)
    const rows = db.prepare('SELECT v.file, v.content FROM store_published p JOIN store_versions v ON v.id = p.version_id').all() as { file: string; content: string }[]
    const texts = new Map(rows.map((r) => [r.file, r.content]))
    texts.set(version.file, version.content)
    return [...texts].flatMap(([file, text]) => snapshotOf(file, text) ?? [])
  }
}
