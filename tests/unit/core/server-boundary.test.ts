/**
 * The lint core imports no client code: nothing under engine/renderers, no client stores (zustand),
 * no React, no browser action runtime. The server imports it through one door only: the renderer
 * of the first screen (engine/ssr.tsx, issue 10), which renders the client's own
 * Shell on the server; no other server module reaches a renderer, a client store or React. The whole static and dynamic import graph
 * of each entry is walked (esbuild resolves it exactly as the bundler would), so a client module
 * reached through any chain of imports fails the test, naming the chain's last link. The lint core
 * and the server do not import each other: both read the document loader in shared/documents.
 */
import { build } from 'esbuild'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..', '..')

const CLIENT_CODE: { rule: string; test: (path: string) => boolean }[] = [
  { rule: 'a renderer (engine/renderers)', test: (p) => p.startsWith('engine/renderers/') },
  { rule: 'the client stores (engine/core/stores, zustand)', test: (p) => p === 'engine/core/stores.ts' || /^zustand(\/|$)/.test(p) },
  { rule: 'React', test: (p) => /^(react|react-dom|react-router|react-router-dom)(\/|$)/.test(p) },
  // the definitions (data, no imports) are the one source the server and the lint read; handlers are not
  { rule: 'the browser action runtime (engine/actions handlers)', test: (p) => /^engine\/actions\/.*\.tsx?$/.test(p) && !p.startsWith('kernel/actions/') },
]

/** Every import edge `from → to` reachable from an entry (package imports kept as bare names). */
async function importEdges(entry: string): Promise<{ from: string; to: string }[]> {
  const result = await build({
    entryPoints: [join(ROOT, entry)],
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
    // a lazy renderer's stylesheet (the forms chunk) is the bundler's business, not an import edge
    loader: { '.css': 'empty' },
  })
  return Object.entries(result.metafile.inputs).flatMap(([from, input]) => input.imports.map((i) => ({ from, to: i.path })))
}

function clientImports(edges: { from: string; to: string }[]): string[] {
  return edges.flatMap(({ from, to }) => CLIENT_CODE.filter((c) => c.test(to)).map((c) => `${from} imports ${to}: ${c.rule}`))
}

/** The server's one module allowed to import client code: the first screen's server renderer. */
const SERVER_RENDERER = 'engine/ssr.tsx'

describe('the lint core imports no client code; the server only through its first-screen renderer', () => {
  it.each(['tools/schema-lint/lint.ts', 'tools/cli/schema-lint.ts'])(
    '%s reaches nothing under engine/renderers, no client store, no React and no action handler',
    async (entry) => {
      const edges = await importEdges(entry)
      expect(edges.length).toBeGreaterThan(10)
      expect(clientImports(edges)).toEqual([])
    },
  )

  it(`server/main.ts reaches client code only through ${SERVER_RENDERER}: no other server or shared module imports a renderer, a client store, React or an action handler`, async () => {
    const edges = await importEdges('server/main.ts')
    expect(edges.length).toBeGreaterThan(10)
    const fromServer = edges.filter(({ from }) => !from.startsWith('engine/') && from !== SERVER_RENDERER)
    expect(clientImports(fromServer)).toEqual([])
    // and the door is used: the renderer is what brings the Shell and React in
    expect(clientImports(edges.filter(({ from }) => from === SERVER_RENDERER)).some((line) => line.includes('engine/renderers/shell/Shell.tsx'))).toBe(true)
  })

  it.each(['tools/schema-lint/lint.ts', 'tools/cli/schema-lint.ts', 'tools/schema-lint/diff/differ.ts', 'tools/schema-lint/diff/formats.ts', 'tools/schema-lint/diff/sources.ts', 'tools/schema-lint/rules/regulatory.ts'])(
    '%s imports nothing under server/: the server uses the lint, the lint never the server (the document loader both read is shared/documents)',
    async (entry) => {
      const edges = await importEdges(entry)
      expect(edges.filter(({ to }) => to.startsWith('server/')).map(({ from, to }) => `${from} imports ${to}`)).toEqual([])
    },
  )

  it('the lint core reads documents with the loader the server uses, from shared/documents', async () => {
    const edges = await importEdges('tools/schema-lint/lint.ts')
    expect(edges.some(({ to }) => to === 'tools/schema-lint/documents/loader.ts')).toBe(true)
  })

  it('the check sees client code when it is there (the form actions reach the renderers and stores)', async () => {
    const found = clientImports(await importEdges('engine/renderers/form/actions.ts'))
    expect(found.some((line) => line.includes('engine/renderers/'))).toBe(true)
    expect(found.some((line) => line.includes('zustand'))).toBe(true)
  })
})
