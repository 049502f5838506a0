/**
 * Start-up does each thing once: the versioned document store is created by server/main.ts and
 * handed to the modules (the admin module seeds and serves it, it does not make its own); every
 * document file is read and validated once however many parts of the server look at it; the copy
 * of the documents that was written to a `documents` table and never read is gone.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readDocument, type DocumentProblem } from '../../tools/schema-lint/documents/loader'
import { currentStore } from '../../server/admin/index'
import { onPostgres, SCHEMAS_DIR, startTestServer, type TestServer } from '../support/server'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => server?.dispose())

describe('start-up does each thing once', () => {
  it('the store the admin module serves is the one server/main.ts created', () => {
    expect(server.deps.store).toBeDefined()
    expect(currentStore).toBe(server.deps.store)
  })

  it('the store serves the same records the documents service loaded from the files (each file validated once)', async () => {
    const served = server.deps.documents.list()
    const published = (await server.deps.store.publishedRecords()).records
    const byFile = new Map(published.map((r) => [r.file, r]))
    expect(served.length).toBeGreaterThan(50)
    for (const record of served) expect(byFile.get(record.file), record.file).toBe(record)
  })

  it('reading the same text of the same file again gives the record already read', () => {
    const text = readFileSync(join(SCHEMAS_DIR, 'popups', 'info.json'), 'utf8')
    const problems: DocumentProblem[] = []
    const first = readDocument('popups/info.json', text, problems)
    expect(problems).toEqual([])
    expect(first).not.toBeNull()
    expect(readDocument('popups/info.json', text, [])).toBe(first)
    expect(readDocument('popups/info.json', `${text}\n`, [])).not.toBe(first)
  })

  // SQLite files only: PostgreSQL never had the table (its migrations start at the query layer's steps)
  it.skipIf(onPostgres)('the database has no `documents` table (served documents live in memory and in the store)', () => {
    const table = server.deps.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'documents'").get()
    expect(table).toBeUndefined()
    expect(server.deps.db.prepare("SELECT name FROM migrations WHERE name = '002b-drop-documents-copy'").get()).toBeDefined()
  })
})
