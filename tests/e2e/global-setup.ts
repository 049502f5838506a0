/** Builds the client once per run into a temp folder, so the tests exercise the current code, and
 * removes it when the run ends (a folder per run would otherwise pile up in the temp dir). */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))

export default async function globalSetup(): Promise<(() => void) | void> {
  if (process.env.PARLAY_E2E_DIST) return
  const outDir = mkdtempSync(join(tmpdir(), 'parlay-e2e-dist-'))
  const { build } = await import('vite')
  await build({ configFile: join(ROOT, 'vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } })
  await (await import('../../server/admin/studio-build')).buildStudio(outDir)
  process.env.PARLAY_E2E_DIST = outDir
  return () => {
    delete process.env.PARLAY_E2E_DIST
    rmSync(outDir, { recursive: true, force: true })
  }
}
