/**
 * `schema-lint diff store:<a> store:<b> --data <dir>`: a store version as a diff side is the
 * published set with that version in place of its file. Opens the data dir's database read-only,
 * reads the named versions and the published set through the query layer, and closes it.
 */
import Database from 'better-sqlite3'
import { join } from 'node:path'
import { openDataLayer } from '../db/data-layer'
import type { DocumentSnapshot } from '../../tools/schema-lint'
import { snapshotsOfTexts } from '../../tools/schema-lint'
import './store' // the store's tables

export async function openStoreSnapshots(dataDir: string, versionIds: number[]): Promise<(versionId: number) => DocumentSnapshot[]> {
  const handle = new Database(join(dataDir, 'parlay.db'), { readonly: true, fileMustExist: true })
  const data = openDataLayer({ sqlite: handle })
  try {
    const ids = versionIds.filter((id) => Number.isSafeInteger(id))
    const versions = ids.length === 0 ? [] : await data.db.selectFrom('store_versions').select(['id', 'file', 'content']).where('id', 'in', ids).execute()
    const rows = await data.db.selectFrom('store_published as p').innerJoin('store_versions as v', 'v.id', 'p.version_id').select(['v.file', 'v.content']).execute()
    const byId = new Map(versions.map((v) => [v.id, v]))
    return (versionId) => {
      const version = byId.get(versionId)
      if (!version) throw new Error(`no store version ${versionId}`)
      const texts = new Map(rows.map((r) => [r.file, r.content]))
      texts.set(version.file, version.content)
      return snapshotsOfTexts(texts)
    }
  } finally {
    await data.close()
    handle.close()
  }
}
