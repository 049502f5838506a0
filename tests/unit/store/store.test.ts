import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../../server/db/database'
import { openDataLayer, type DataLayer } from '../../../server/db/data-layer'
import { migrateDatabase } from '../../../server/db/migrate'
import type { DocumentRecord } from '../../../tools/schema-lint/documents/loader'
import { DocumentStore } from '../../../server/store/store'
import { audit, verifyAudit } from '../../../server/store/audit'

const SCHEMAS = resolve(import.meta.dirname, '..', '..', '..', 'schemas')
const SELF_EXCLUDE = 'popups/self-exclude.json'

let root: string
let db: Db
let data: DataLayer
let clock: number
let installed: DocumentRecord[][]
let store: DocumentStore

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'parlay-store-'))
  cpSync(SCHEMAS, join(root, 'schemas'), { recursive: true })
  db = openDatabase(':memory:')
  data = openDataLayer({ sqlite: db })
  await migrateDatabase(data)
  clock = 1_700_000_000_000
  installed = []
  store = new DocumentStore({ data, now: () => clock, install: (records) => installed.push(records) })
})
afterEach(() => {
  db.close()
  rmSync(root, { recursive: true, force: true })
})

const docs = () => join(root, 'schemas')
const edited = (file: string, edit: (d: Record<string, any>) => void) => {
  const doc = JSON.parse(readFileSync(join(docs(), file), 'utf8'))
  edit(doc)
  return JSON.stringify(doc, null, 2)
}

describe('the files in schemas/ seed the store', () => {
  it('the first start publishes every file as a seed version', async () => {
    const { seeded } = await store.seed(docs())
    expect(seeded.length).toBeGreaterThan(50)
    expect((await store.published()).size).toBe(seeded.length)
    expect(await store.publishedVersionOf(SELF_EXCLUDE)).toMatchObject({ origin: 'seed', state: 'published', author: 'seed' })
  })
  it('a second start with the same files seeds nothing; an edited file becomes a new published seed version', async () => {
    await store.seed(docs())
    expect((await store.seed(docs())).seeded).toEqual([])
    writeFileSync(join(docs(), SELF_EXCLUDE), edited(SELF_EXCLUDE, (d) => (d.animation = 'fade')))
    const before = (await store.publishedVersionOf(SELF_EXCLUDE))!
    expect((await store.seed(docs())).seeded).toEqual([SELF_EXCLUDE])
    const after = (await store.publishedVersionOf(SELF_EXCLUDE))!
    expect(after.id).not.toBe(before.id)
    expect((await store.version(before.id))!.state).toBe('superseded')
  })
  it('a broken file is not seeded: the last good version stays published', async () => {
    await store.seed(docs())
    const good = (await store.publishedVersionOf(SELF_EXCLUDE))!
    writeFileSync(join(docs(), SELF_EXCLUDE), '{ "kind": "popup", ')
    const { seeded, problems } = await store.seed(docs())
    expect(seeded).toEqual([])
    expect(problems[0].file).toBe(SELF_EXCLUDE)
    expect((await store.publishedVersionOf(SELF_EXCLUDE))!.id).toBe(good.id)
  })
})

describe('four-eyes and the lint gate in the store', () => {
  beforeEach(async () => void (await store.seed(docs())))

  it('publishing needs an approval by someone other than the author', async () => {
    const draft = await store.createDraft('olga@parlay.test', SELF_EXCLUDE, edited(SELF_EXCLUDE, (d) => (d.animation = 'fade')))
    expect(draft.ok).toBe(true)
    const id = draft.ok ? draft.value.id : 0
    expect((await store.submit('olga@parlay.test', id)).ok).toBe(true)
    expect(await store.approve('OLGA@parlay.test', id)).toMatchObject({ ok: false, code: 'SELF_APPROVAL' })
    expect(await store.publish('olga@parlay.test', id)).toMatchObject({ ok: false, code: 'NOT_APPROVED' })
    expect((await store.approve('carlos@parlay.test', id)).ok).toBe(true)
    clock += 1000
    const published = await store.publish('olga@parlay.test', id)
    expect(published).toMatchObject({ ok: true, value: { state: 'published', publishedAt: clock } })
    const served = installed.at(-1)!.find((r) => r.file === SELF_EXCLUDE)!
    expect(served.source.animation).toBe('fade')
  })
  it('only the author submits; only drafts are submitted', async () => {
    const draft = await store.createDraft('olga@parlay.test', SELF_EXCLUDE, edited(SELF_EXCLUDE, (d) => (d.animation = 'fade')))
    const id = draft.ok ? draft.value.id : 0
    expect(await store.submit('someone@parlay.test', id)).toMatchObject({ ok: false, code: 'NOT_AUTHOR' })
    await store.submit('olga@parlay.test', id)
    expect(await store.submit('olga@parlay.test', id)).toMatchObject({ ok: false, code: 'INVALID_STATE' })
  })
  it('a document that fails its schema never leaves draft', async () => {
    const draft = await store.createDraft('olga@parlay.test', SELF_EXCLUDE, edited(SELF_EXCLUDE, (d) => (d.modal = 'fullscreen')))
    const id = draft.ok ? draft.value.id : 0
    const result = await store.submit('olga@parlay.test', id)
    expect(result).toMatchObject({ ok: false, code: 'LINT_FAILED' })
    expect((await store.version(id))!.state).toBe('draft')
    expect((await store.version(id))!.lint![0]).toMatchObject({ rule: 'schema', pointer: '/modal' })
  })
  it('a path outside the documents layout is refused', async () => {
    for (const file of ['../x.json', 'kinds/popup.schema.json', 'popups/x.txt', '/etc/passwd'])
      expect(await store.createDraft('olga@parlay.test', file, '{}')).toMatchObject({ ok: false, code: 'INVALID_FILE' })
  })
  it('a waiver cannot be approved by the person who asked for it', async () => {
    const document = 'jurisdictions/spain/flows/signup-email.json'
    const waiver = await store.waiverBook.request('olga@parlay.test', { jurisdiction: 'spain', rule: 'terms-consent', document, reason: 'moved to a consent screen', expiresAt: clock + 86_400_000 })
    const id = waiver.ok ? waiver.value.id : 0
    expect(await store.waiverBook.review('olga@parlay.test', id, 'approved')).toMatchObject({ ok: false, code: 'SELF_APPROVAL' })
    expect(await store.waiverBook.review('carlos@parlay.test', id, 'approved')).toMatchObject({ ok: true })
    expect(await store.waiverBook.active()).toEqual([{ jurisdiction: 'spain', rule: 'terms-consent', document, reason: 'moved to a consent screen' }])
  })
  it('a refused install (the server rejects the set) records nothing', async () => {
    const refusing = new DocumentStore({
      data,
      now: () => clock,
      install: () => {
        throw Object.assign(new Error('refused'), { problems: [{ file: 'x', pointer: '', message: 'no' }] })
      },
    })
    const draft = await refusing.createDraft('olga@parlay.test', SELF_EXCLUDE, edited(SELF_EXCLUDE, (d) => (d.animation = 'slide')))
    const id = draft.ok ? draft.value.id : 0
    await refusing.submit('olga@parlay.test', id)
    await refusing.approve('carlos@parlay.test', id)
    const seq = (db.prepare('SELECT max(seq) AS s FROM audit_log').get() as { s: number }).s
    expect(await refusing.publish('olga@parlay.test', id)).toMatchObject({ ok: false, code: 'SET_INVALID' })
    expect((await refusing.version(id))!.state).toBe('approved')
    expect((db.prepare('SELECT max(seq) AS s FROM audit_log').get() as { s: number }).s).toBe(seq)
  })
})

describe('the audit chain', () => {
  it('verifies an intact chain and names the first entry whose content changed', async () => {
    for (let i = 0; i < 5; i++) await audit(data, clock + i, 'olga@parlay.test', 'draft.created', `file-${i}`, { i })
    expect(await verifyAudit(data)).toMatchObject({ ok: true, entries: 5 })
    db.exec('DROP TRIGGER audit_log_no_update')
    db.prepare("UPDATE audit_log SET details = '{\"i\":99}' WHERE seq = 3").run()
    expect(await verifyAudit(data)).toMatchObject({ ok: false, firstBadSeq: 3 })
  })
  it('names a deleted entry in the middle', async () => {
    for (let i = 0; i < 4; i++) await audit(data, clock + i, 'olga@parlay.test', 'draft.created', `file-${i}`)
    db.exec('DROP TRIGGER audit_log_no_delete')
    db.prepare('DELETE FROM audit_log WHERE seq = 2').run()
    expect(await verifyAudit(data)).toMatchObject({ ok: false, firstBadSeq: 3 })
  })
  it('an entry recomputed by a forger still breaks the link of the next one', async () => {
    for (let i = 0; i < 3; i++) await audit(data, clock + i, 'olga@parlay.test', 'draft.created', `file-${i}`)
    db.exec('DROP TRIGGER audit_log_no_update')
    // the first hex digit changed for certain (a hash that already starts with 'f' gets an 'e')
    db.prepare("UPDATE audit_log SET hash = (CASE substr(hash, 1, 1) WHEN 'f' THEN 'e' ELSE 'f' END) || substr(hash, 2) WHERE seq = 1").run()
    expect(await verifyAudit(data)).toMatchObject({ ok: false, firstBadSeq: 1 })
  })
})
