import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { rawRequest, SCHEMAS_DIR } from '../../support/server'
import { COMPLIANCE, OPERATOR, draftAndSubmit, readDocumentFile, signIn, startTestServer, type TestServer } from './support'
import { cpSync } from 'node:fs'

const work = mkdtempSync(join(tmpdir(), 'parlay-admin-seed-'))
const dataDir = join(work, 'data')
const documentsDir = join(work, 'schemas')
cpSync(SCHEMAS_DIR, documentsDir, { recursive: true })

const servers: TestServer[] = []
afterAll(async () => {
  for (const s of servers) await s.close().catch(() => {})
})

const LOBBY = 'screens/casino-lobby.json'
const POPUP = 'popups/self-exclude.json'
const bannerBody = async (server: TestServer) =>
  ((await rawRequest(server.port, { path: '/api/documents/screen/casino-lobby' })).json().body as { testId?: string; body?: string }[]).find((n) => n.testId === 'lobby-banner')!.body
const popupAnimation = async (server: TestServer) => (await rawRequest(server.port, { path: '/api/documents/popup/self-exclude' })).json().animation

describe('the store is the source of served documents; the files seed it', () => {
  it('a published admin version survives a restart; an edited file becomes a new published version', async () => {
    const first = await startTestServer({ dataDir, documentsDir, watch: false })
    servers.push(first)
    const operator = await signIn(first, OPERATOR)
    const compliance = await signIn(first, COMPLIANCE)
    const id = await draftAndSubmit(operator, LOBBY, (d) => (d.body.find((n: { testId?: string }) => n.testId === 'lobby-banner').body = 'promo.cashback.body'), first)
    await compliance.post(`/admin/api/versions/${id}/approve`)
    expect((await operator.post(`/admin/api/versions/${id}/publish`)).status).toBe(200)
    expect(await bannerBody(first)).toBe('promo.cashback.body')
    await first.close()

    // Restart with the same files: the published version stays; nothing is re-seeded over it.
    const popup = readDocumentFile(first, POPUP)
    popup.animation = 'fade'
    writeFileSync(join(documentsDir, POPUP), JSON.stringify(popup, null, 2))
    const second = await startTestServer({ dataDir, documentsDir, watch: false })
    servers.push(second)
    expect(await bannerBody(second)).toBe('promo.cashback.body')
    // The edited file went live as a seed version.
    expect(await popupAnimation(second)).toBe('fade')
    const history = (await (await signIn(second, COMPLIANCE)).get(`/admin/api/document?file=${encodeURIComponent(POPUP)}`)).json().payload.history
    expect(history.filter((v: { origin: string }) => v.origin === 'seed')).toHaveLength(2)
    await second.close()
  }, 60000)

  it('with the watcher on, an edited file changes what an open page is served', async () => {
    const server = await startTestServer({ watch: true })
    servers.push(server)
    const version = async () => (await rawRequest(server.port, { path: '/api/site/version' })).json().documentsVersion
    const before = await version()
    const popup = readDocumentFile(server, POPUP)
    popup.animation = 'slide'
    writeFileSync(join(server.documentsDir, POPUP), JSON.stringify(popup, null, 2))
    // Waits on the state itself (the reload can take seconds on a busy machine), not a fixed deadline loop.
    await vi.waitFor(async () => expect(await version()).not.toBe(before), { timeout: 25000, interval: 100 })
    expect(await popupAnimation(server)).toBe('slide')
    await server.dispose()
  }, 60000)
})
