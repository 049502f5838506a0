/**
 * The walls between the four parts (issue 32; .dependency-cruiser.cjs, docs/architecture.md "The
 * four parts") hold because `npm run walls` fails on a forbidden import. This test runs the real
 * rules file with dependency-cruiser's CLI over a small tree written for the test (one file per
 * part), once with only allowed imports and once with each forbidden one added, and reads the exit
 * code and the rule each violation names. `npm test` runs the same rules over the real tree.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..', '..')
const DEPCRUISE = join(ROOT, 'node_modules', '.bin', 'depcruise')

/** The allowed shape: server → the SSR door, the tools' entry and kernel; engine, tools and studio → kernel. */
const ALLOWED: Record<string, string> = {
  'kernel/money.ts': `export const minor = (n: number) => Math.round(n * 100)\n`,
  'kernel/rules.ts': `import { minor } from './money'\nexport const stake = (n: number) => minor(n)\n`,
  'engine/store.ts': `import { minor } from '../kernel/money'\nexport const balance = () => minor(1)\n`,
  'engine/ssr.tsx': `import { balance } from './store'\nexport const renderFirstScreen = () => String(balance())\n`,
  // the renderer recursion: RenderNode → registry → a node that renders its children with RenderNode
  'engine/renderers/RenderNode.tsx': `import { registry } from './registry'\nexport const RenderNode = (): unknown => registry.stack\n`,
  'engine/renderers/registry.ts': `import { StackNode } from './nodes/StackNode'\nexport const registry = { stack: StackNode }\n`,
  'engine/renderers/nodes/StackNode.tsx': `import { RenderNode } from '../RenderNode'\nexport const StackNode = () => RenderNode\n`,
  'tools/schema-lint/lint.ts': `import { stake } from '../../kernel/rules'\nexport const lint = () => stake(1)\n`,
  'tools/schema-lint/index.ts': `export * from './lint'\n`,
  'tools/cli/schema-lint.ts': `import { lint } from '../schema-lint'\nlint()\n`,
  'studio/main.tsx': `import { stake } from '../kernel/rules'\nstake(2)\n`,
  'server/main.ts': `import { renderFirstScreen } from '../engine/ssr'\nimport { lint } from '../tools/schema-lint'\nimport { stake } from '../kernel/rules'\nrenderFirstScreen(); lint(); stake(3)\n`,
}

/** One forbidden import each, in a file of its own added to the allowed tree: the rule that must name it. */
const FORBIDDEN: { what: string; file: string; text: string; rule: string }[] = [
  { what: 'kernel imports the engine', file: 'kernel/bad-engine.ts', text: `import { balance } from '../engine/store'\nbalance()\n`, rule: 'kernel-imports-no-part' },
  { what: 'kernel imports a node: builtin', file: 'kernel/bad-node.ts', text: `import { readFileSync } from 'node:fs'\nreadFileSync('x')\n`, rule: 'kernel-no-node' },
  { what: 'kernel imports zustand', file: 'kernel/bad-store.ts', text: `import { createStore } from 'zustand/vanilla'\ncreateStore(() => ({}))\n`, rule: 'kernel-no-ui' },
  { what: 'the engine imports the server', file: 'engine/bad-server.ts', text: `import '../server/main'\n`, rule: 'engine-imports-only-kernel' },
  { what: 'the engine imports the document tools', file: 'engine/bad-tools.ts', text: `import { lint } from '../tools/schema-lint'\nlint()\n`, rule: 'engine-imports-only-kernel' },
  { what: 'the document tools import the engine', file: 'tools/schema-lint/bad-engine.ts', text: `import { balance } from '../../engine/store'\nbalance()\n`, rule: 'tools-import-only-kernel' },
  { what: 'the server imports an engine module other than the SSR entry', file: 'server/bad-engine.ts', text: `import { balance } from '../engine/store'\nbalance()\n`, rule: 'server-through-the-doors' },
  { what: 'the server imports a type from behind the engine door', file: 'server/bad-type.ts', text: `import type { RenderNode } from '../engine/renderers/RenderNode'\nexport type R = typeof RenderNode\n`, rule: 'server-through-the-doors' },
  { what: 'the server imports a document tool behind its entry', file: 'server/bad-tool.ts', text: `import { lint } from '../tools/schema-lint/lint'\nlint()\n`, rule: 'server-through-the-doors' },
  { what: 'a CLI imports a document tool behind its entry', file: 'tools/cli/bad-tool.ts', text: `import { lint } from '../schema-lint/lint'\nlint()\n`, rule: 'document-tools-through-their-entry' },
  { what: 'the studio imports the engine', file: 'studio/bad-engine.ts', text: `import { balance } from '../engine/store'\nbalance()\n`, rule: 'studio-imports-only-kernel' },
  { what: 'two kernel modules import each other', file: 'kernel/circle-a.ts', text: `import { b } from './circle-b'\nexport const a = () => b\n`, rule: 'no-circular' },
  { what: 'a circle closed by a type-only import', file: 'server/type-circle-a.ts', text: `import { b } from './type-circle-b'\nexport interface A { n: number }\nexport const a = () => b\n`, rule: 'no-circular' },
]
const CIRCLE_B = {
  'kernel/circle-b.ts': `import { a } from './circle-a'\nexport const b = () => a\n`,
  'server/type-circle-b.ts': `import type { A } from './type-circle-a'\nexport const b = (x: A) => x.n\n`,
}

const trees: string[] = []
afterAll(() => trees.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

/** Writes the tree and runs the project's rules over it: the exit code and each violation as `rule from-file`. */
function walls(files: Record<string, string>): { status: number | null; rules: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'parlay-walls-'))
  trees.push(dir)
  const tree = { ...files, 'tsconfig.json': JSON.stringify({ compilerOptions: { jsx: 'react-jsx', module: 'ESNext', moduleResolution: 'Bundler' } }) }
  for (const [file, text] of Object.entries(tree)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    writeFileSync(join(dir, file), text)
  }
  const parts = ['kernel', 'engine', 'server', 'tools', 'studio']
  const run = spawnSync(DEPCRUISE, [...parts, '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'err'], { cwd: dir, encoding: 'utf8' })
  // "  error <rule>: <from> → <to>"
  const rules = [...run.stdout.matchAll(/^\s*error ([\w-]+): (\S+)/gm)].map((m) => `${m[1]} ${m[2]}`)
  return { status: run.status, rules }
}

// each case starts dependency-cruiser (node, typescript) once: seconds on an idle machine, more on a busy one
describe('npm run walls: the import rules between kernel, engine, the document tools and the server', { timeout: 120_000 }, () => {
  it('passes on the allowed shape: server → engine/ssr.tsx, tools/schema-lint/index.ts and kernel; engine, tools and studio → kernel; the renderer recursion is the one circle allowed', () => {
    expect(walls(ALLOWED)).toEqual({ status: 0, rules: [] })
  })

  it('fails (non-zero exit) on each forbidden import, naming its rule and its file: kernel → a part, a node: builtin or zustand; engine → server or tools; tools → engine; server → behind a door (a type import too); a CLI or the studio past the entry; a circle, one closed by a type-only import too; a lazy import() may close one (a chunk boundary)', () => {
    const found = walls({ ...ALLOWED, ...Object.fromEntries(FORBIDDEN.map(({ file, text }) => [file, text])), ...CIRCLE_B })
    expect(found.status).not.toBe(0)
    for (const { what, file, rule } of FORBIDDEN) expect(found.rules, what).toContain(`${rule} ${file}`)
  })
})
