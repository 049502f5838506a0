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

/**
 * vite, a dev dependency: present in a full install (`npm ci`, where `npm start` builds a missing
 * client itself), absent from a production one (`npm ci --omit=dev`), whose dist/ comes from
 * `npm run build`. Without it, a missing build stops the start with what to do.
 */
export async function loadVite(): Promise<typeof import('vite')> {
  try {
    return await import('vite')
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') throw error
    throw new Error(
      'the client is not built (dist/ has no index.html, or no studio) and this install has no build tools (vite is a dev dependency: npm ci --omit=dev). ' +
        'Build it where the dev dependencies are installed (npm ci && npm run build) and keep dist/, or set PARLAY_DIST_DIR to a built client.',
    )
  }
}

export async function buildStudio(distDir: string): Promise<void> {
  const { build } = await loadVite()
  await build({ configFile: join(ROOT, 'vite.studio.config.ts'), logLevel: 'warn', build: { outDir: join(distDir, STUDIO_DIR), emptyOutDir: true } })
}

export async function buildStudioIfMissing(distDir: string): Promise<boolean> {
  if (existsSync(join(distDir, STUDIO_DIR, 'index.html'))) return false
  await buildStudio(distDir)
  return true
}
