import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../../server/db/database'
import { openDataLayer } from '../../../server/db/data-layer'
import { migrateDatabase } from '../../../server/db/migrate'
import { DocumentStore } from '../../../server/store/store'
import { runDiffCli } from '../../../tools/cli/schema-diff'

const SCHEMAS = resolve(import.meta.dirname, '..', '..', '..', 'schemas')
const work = mkdtempSync(join(tmpdir(), 'parlay-store-diff-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('schema-lint diff store:<a> store:<b> --data <dir>', () => {
  it('diffs two store versions of a document', async () => {
    cpSync(SCHEMAS, join(work, 'schemas'), { recursive: true })
    const dataDir = join(work, 'data')
    const db = openDatabase(dataDir)
    const data = openDataLayer({ sqlite: db })
    await migrateDatabase(data)
    const store = new DocumentStore({ data, now: () => 1, install: () => {} })
    await store.seed(join(work, 'schemas'))
    const file = 'jurisdictions/russia/jurisdiction.json'
    const seed = (await store.publishedVersionOf(file))!
    const doc = JSON.parse(readFileSync(join(work, 'schemas', file), 'utf8'))
    doc.minimumAge = 21
    const draft = await store.createDraft('olga@parlay.test', file, JSON.stringify(doc))
    const draftId = draft.ok ? draft.value.id : 0
    db.close()
    const out = join(work, 'diff.json')
    expect(await runDiffCli([`store:${seed.id}`, `store:${draftId}`, '--data', dataDir, '--format', 'json', '--out', out])).toBe(0)
    const findings = JSON.parse(readFileSync(out, 'utf8')).findings
    expect(findings.map((f: { message: string }) => f.message)).toEqual(['Russia site: minimum age 18 → 21'])
    expect(await runDiffCli([`store:${seed.id}`, 'store:999999', '--data', dataDir])).toBe(2)
  })
})
