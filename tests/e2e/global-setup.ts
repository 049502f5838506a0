/** Builds the client once per run into a temp folder, so the tests exercise the current code, and
 * removes it when the run ends (a folder per run would otherwise pile up in the temp dir). A run
 * given PARLAY_E2E_DIST (`npm test` builds it ahead, tools/test.sh) uses that build as it is. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildE2eClient } from './client-build'

export default async function globalSetup(): Promise<(() => void) | void> {
  if (process.env.PARLAY_E2E_DIST) return
  const outDir = mkdtempSync(join(tmpdir(), 'parlay-e2e-dist-'))
  await buildE2eClient(outDir)
  process.env.PARLAY_E2E_DIST = outDir
  return () => {
    delete process.env.PARLAY_E2E_DIST
    rmSync(outDir, { recursive: true, force: true })
  }
}
