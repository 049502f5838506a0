/**
 * The client and studio build the browser tests serve, into a folder of its own: run by
 * global-setup.ts when a run starts, or ahead of the run by `npm test` (tools/test.sh builds it
 * beside the type check, where a core is idle, and hands it over in PARLAY_E2E_DIST).
 */
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))

export async function buildE2eClient(outDir: string): Promise<void> {
  const { build } = await import('vite')
  await build({ configFile: join(ROOT, 'vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } })
  await (await import('../../server/admin/studio-build')).buildStudio(outDir)
}

// `tsx tests/e2e/client-build.ts <folder>`: the build alone, for tools/test.sh
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2]
  if (!outDir) throw new Error('usage: tsx tests/e2e/client-build.ts <folder>')
  buildE2eClient(outDir).catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
}
