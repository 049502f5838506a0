/**
 * Builds the operator studio (vite.studio.config.ts) into `<distDir>/.studio`, beside the site's
 * build: the server builds it when missing at start, the e2e global setup once per run.
 */
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Where the studio build lives inside the client's dist dir (a dot folder: never served as a site file). */
export const STUDIO_DIR = '.studio'

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))

export async function buildStudio(distDir: string): Promise<void> {
  const { build } = await import('vite')
  await build({ configFile: join(ROOT, 'vite.studio.config.ts'), logLevel: 'warn', build: { outDir: join(distDir, STUDIO_DIR), emptyOutDir: true } })
}

export async function buildStudioIfMissing(distDir: string): Promise<boolean> {
  if (existsSync(join(distDir, STUDIO_DIR, 'index.html'))) return false
  await buildStudio(distDir)
  return true
}
