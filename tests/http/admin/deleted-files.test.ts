/**
 * Issue 11 item 11: a document file removed from schemas/ is never served silently from the
 * database. It becomes a deletion version in review (the diff reads "document deleted"), stays
 * served until compliance approves and it is published, and is never proposed twice. Both at start
 * and while the server watches the folder.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { rawRequest, SCHEMAS_DIR } from '../../support/server'
import { COMPLIANCE, OPERATOR, signIn, startTestServer, type AdminClient, type TestServer } from './support'

const servers: TestServer[] = []
afterAll(async () => {
  for (const s of servers) await s.close().catch(() => {})
})

const INFO = 'popups/info.json'
const QUIZ = 'screens/account-quiz.json'

const served = (server: TestServer, path: string) => rawRequest(server.port, { path })
const deletionsInReview = async (client: AdminClient) =>
  ((await client.get('/admin/api/versions?state=in_review')).json().payload as { id: number; file: string; deleted: boolean }[]).filter((v) => v.deleted)

describe('a file removed from the documents folder goes through review before it stops being served', () => {
  it('at start: proposed once for deletion, still served, gone only once approved and published', async () => {
    const work = mkdtempSync(join(tmpdir(), 'parlay-deleted-'))
    const dataDir = join(work, 'data')
    const documentsDir = join(work, 'schemas')
    cpSync(SCHEMAS_DIR, documentsDir, { recursive: true })
    const first = await startTestServer({ dataDir, documentsDir })
    await first.close()

    rmSync(join(documentsDir, INFO))
    const second = await startTestServer({ dataDir, documentsDir })
    servers.push(second)
    const compliance = await signIn(second, COMPLIANCE)
    const operator = await signIn(second, OPERATOR)
    const [deletion] = await deletionsInReview(compliance)
    expect(deletion).toMatchObject({ file: INFO, deleted: true })
    const review = (await compliance.get(`/admin/api/versions/${deletion.id}`)).json().payload
    expect(review.diff.findings.map((f: { message: string }) => f.message)).toEqual([`popup info: document deleted (${INFO})`])
    // Not silently dropped, not silently kept: served while the deletion waits for review.
    expect((await served(second, '/api/documents/popup/info')).status).toBe(200)

    expect((await compliance.post(`/admin/api/versions/${deletion.id}/approve`, { comment: 'retired' })).status).toBe(200)
    expect((await operator.post(`/admin/api/versions/${deletion.id}/publish`)).status).toBe(200)
    expect((await served(second, '/api/documents/popup/info')).status).toBe(404)
    const audit = (await compliance.get('/admin/api/audit?limit=50')).json().payload.map((e: { action: string; subject: string }) => `${e.action} ${e.subject}`)
    expect(audit).toContain(`document.deletion-proposed ${INFO}`)
    expect(audit).toContain(`document.published ${INFO}`)
    await second.close()

    // A third start proposes nothing again and serves nothing of the deleted file.
    const third = await startTestServer({ dataDir, documentsDir })
    servers.push(third)
    expect(await deletionsInReview(await signIn(third, COMPLIANCE))).toEqual([])
    expect((await served(third, '/api/documents/popup/info')).status).toBe(404)
  }, 120000)

  it('while watching: a removed file is proposed for deletion; putting it back withdraws the proposal', async () => {
    const server = await startTestServer({ watch: true })
    servers.push(server)
    const compliance = await signIn(server, COMPLIANCE)
    const original = readFileSync(join(server.documentsDir, QUIZ), 'utf8')
    rmSync(join(server.documentsDir, QUIZ))
    // served at every moment of the reseeding, not only once the deletion is in review
    const statuses: number[] = []
    await vi.waitFor(
      async () => {
        statuses.push((await served(server, '/api/documents/screen/account-quiz')).status)
        expect((await deletionsInReview(compliance)).map((v) => v.file)).toEqual([QUIZ])
      },
      { timeout: 20000, interval: 5 },
    )
    statuses.push((await served(server, '/api/documents/screen/account-quiz')).status)
    expect(new Set(statuses)).toEqual(new Set([200]))

    writeFileSync(join(server.documentsDir, QUIZ), original)
    await vi.waitFor(async () => expect(await deletionsInReview(compliance)).toEqual([]), { timeout: 20000, interval: 100 })
    const history = (await compliance.get(`/admin/api/document?file=${encodeURIComponent(QUIZ)}`)).json().payload.history as { state: string; deleted: boolean }[]
    expect(history.find((v) => v.deleted)?.state).toBe('withdrawn')
    expect((await served(server, '/api/documents/screen/account-quiz')).status).toBe(200)
  }, 60000)
})
