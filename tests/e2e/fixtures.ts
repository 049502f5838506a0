/**
 * Test fixtures: one server per worker (ephemeral port, temp data dir, temp copy of `schemas/` as
 * its documents dir), `baseURL` pointing at it, and `editDocument` to change a document file for
 * one test (restored afterwards; the server reloads documents when a file changes).
 */
import { test as base, expect } from '@playwright/test'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startServer } from '../../server/main'

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))

export interface ParlayServer {
  url: string
  documentsDir: string
}

type EditDocument = (file: string, change: (doc: Record<string, unknown>) => void) => Promise<void>

/** One server per spec file: a file that changes server state (the admin flow publishes documents)
 * never leaks into another file's tests. Within a file, tests share it (edits are restored). */
interface ServerPool {
  forFile(file: string): Promise<ParlayServer>
}

async function startFor(): Promise<ParlayServer & { close(): Promise<void> }> {
  const work = mkdtempSync(join(tmpdir(), 'parlay-e2e-'))
  const documentsDir = join(work, 'schemas')
  // PARLAY_E2E_SCHEMAS runs the suite against another documents set (default: the repository's)
  cpSync(process.env.PARLAY_E2E_SCHEMAS ?? join(ROOT, 'schemas'), documentsDir, { recursive: true })
  const distDir = process.env.PARLAY_E2E_DIST ?? join(ROOT, 'dist')
  const running = await startServer({ port: 0, dataDir: join(work, 'data'), documentsDir, distDir, development: true, quiet: true })
  return {
    url: running.url,
    documentsDir,
    async close() {
      await running.close()
      rmSync(work, { recursive: true, force: true })
    },
  }
}

export const test = base.extend<{ editDocument: EditDocument; server: ParlayServer }, { serverPool: ServerPool }>({
  serverPool: [
    async ({}, use) => {
      let current: { file: string; server: Promise<ParlayServer & { close(): Promise<void> }> } | null = null
      await use({
        async forFile(file) {
          if (current?.file !== file) {
            if (current) await (await current.server).close()
            current = { file, server: startFor() }
          }
          return current.server
        },
      })
      if (current) await (await (current as { server: Promise<{ close(): Promise<void> }> }).server).close()
    },
    { scope: 'worker' },
  ],
  server: async ({ serverPool }, use, testInfo) => {
    await use(await serverPool.forFile(testInfo.file))
  },
  baseURL: async ({ server }, use) => use(server.url),
  editDocument: async ({ server, request }, use) => {
    const originals = new Map<string, string>()
    await use(async (file, change) => {
      const path = join(server.documentsDir, file)
      const text = readFileSync(path, 'utf8')
      if (!originals.has(path)) originals.set(path, text)
      const before = (await (await request.get(`${server.url}/api/site/version`)).json()) as { documentsVersion: string }
      const doc = JSON.parse(text) as Record<string, unknown>
      change(doc)
      writeFileSync(path, JSON.stringify(doc, null, 2))
      // wait until the server has reloaded its documents (it watches the folder)
      await expect
        .poll(async () => ((await (await request.get(`${server.url}/api/site/version`)).json()) as { documentsVersion: string }).documentsVersion, { timeout: 30_000 })
        .not.toBe(before.documentsVersion)
    })
    if (originals.size === 0) return
    const version = async () => ((await (await request.get(`${server.url}/api/site/version`)).json()) as { documentsVersion: string }).documentsVersion
    const edited = await version()
    for (const [path, text] of originals) writeFileSync(path, text)
    await expect.poll(version, { timeout: 30_000 }).not.toBe(edited)
  },
})

export { expect }
