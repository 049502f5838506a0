/**
 * Issue 30 item 7: what the server imports at run time is a runtime dependency. A production
 * install (`npm ci --omit=dev`) has only `dependencies`; the server failed there because it
 * required `jsdom` (a dev dependency) and imported `source-map-js` (declared nowhere). The whole
 * run-time import graph of `npm start` and the operators' tools (esbuild's metafile: every file the
 * server and the tools reach, and every package they import, statically or not), plus the
 * `require('…')` calls esbuild cannot see through `createRequire`, must name only Node's built-ins
 * and `dependencies`; the one exception is vite, imported only dynamically to build a missing client
 * (server/admin/studio-build.ts says what to do without it). The real install and start:
 * tests/http/production-install.test.ts.
 */
import { build } from 'esbuild'
import { readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '..', '..')
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string>; scripts: Record<string, string> }
/** What runs in production: `npm start`, and the tools an operator runs there (`npm run audit:verify`). */
const ENTRIES = ['server/main.ts', 'tools/audit-verify.ts']
/** Dev dependencies reached only by a dynamic import on a path that says what to do without them. */
const BUILD_TOOLS = ['vite']

const packageOf = (specifier: string) => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0])
const isBuiltin = (specifier: string) => specifier.startsWith('node:') || builtinModules.includes(packageOf(specifier))
const isPackage = (specifier: string) => !/^[./]/.test(specifier) && !isBuiltin(specifier)

async function runtimeImports(): Promise<{ kind: string; pkg: string; from: string }[]> {
  const { metafile } = await build({ entryPoints: ENTRIES.map((e) => join(ROOT, e)), bundle: true, platform: 'node', format: 'esm', packages: 'external', metafile: true, write: false, outdir: 'out', logLevel: 'silent' })
  const found: { kind: string; pkg: string; from: string }[] = []
  for (const [file, input] of Object.entries(metafile.inputs)) {
    // a relative import counts as external when all its names are types (it is dropped): not a package
    for (const imported of input.imports) if (imported.external && isPackage(imported.path)) found.push({ kind: imported.kind, pkg: packageOf(imported.path), from: file })
    // createRequire's require('…'): not an import esbuild follows
    const text = readFileSync(join(ROOT, file), 'utf8')
    for (const [, specifier] of text.matchAll(/\brequire\(\s*'([^']+)'\s*\)/g)) if (isPackage(specifier)) found.push({ kind: 'require-call', pkg: packageOf(specifier), from: file })
  }
  return found
}

describe('a production install has everything the server and its tools import', () => {
  it('every package the run-time import graph reaches is a dependency (vite only through a dynamic import)', async () => {
    const found = await runtimeImports()
    expect(found.length).toBeGreaterThan(20)
    const missing = found.filter(({ pkg: name }) => !(name in pkg.dependencies) && !BUILD_TOOLS.includes(name))
    expect(missing).toEqual([])
    const tools = found.filter(({ pkg: name }) => BUILD_TOOLS.includes(name))
    expect(tools.map((t) => t.kind)).toEqual(tools.map(() => 'dynamic-import'))
    expect(found.map((f) => f.pkg)).toEqual(expect.arrayContaining(['jsdom', 'source-map-js', 'better-sqlite3']))
  }, 60_000)

  it('npm start runs the server through tsx, a dependency', () => {
    expect(pkg.scripts.start).toMatch(/--import tsx server\/main\.ts/)
    expect(pkg.dependencies.tsx).toBeDefined()
  })
})
