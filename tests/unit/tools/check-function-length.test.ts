/**
 * The function-length rule (tools/check-function-length.ts, `npm run check:length` in `npm test`):
 * a function of 81 lines fails the check, naming file:line:name:length; one of exactly 80 passes;
 * a still-long entry excuses a function only up to its listed length, and an entry whose function
 * is gone is itself a failure. Run as the real CLI on fixture trees written to a temporary folder.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { judge, longFunctionsIn, sourceFiles } from '../../../tools/function-length/check'

const ROOT = join(import.meta.dirname, '..', '..', '..')
const made: string[] = []
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

/** A function declaration spanning exactly `lines` lines, its first line at line `at` of the file. */
function functionOf(name: string, lines: number): string {
  const body = Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i}`)
  return [`export function ${name}(): void {`, ...body, '}'].join('\n')
}

/** Runs the real CLI on a tree holding `files`; its exit code and what it printed. */
function check(files: Record<string, string>, ...flags: string[]): { code: number; output: string } {
  const root = mkdtempSync(join(tmpdir(), 'parlay-length-'))
  made.push(root)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  try {
    const output = execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'tools/check-function-length.ts'), '--root', root, '--strict', ...flags], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' })
    return { code: 0, output }
  } catch (error) {
    const failed = error as { status: number; stdout: string; stderr: string }
    return { code: failed.status, output: failed.stdout + failed.stderr }
  }
}

describe('the function-length check', () => {
  it('fails on a function of 81 lines, naming file:line:name:length', () => {
    const result = check({ 'server/long.ts': `// a comment\n${functionOf('tooLong', 81)}\n` })
    expect(result.code).not.toBe(0)
    expect(result.output).toContain('server/long.ts:2:tooLong:81')
  })

  it('passes a function of exactly 80 lines', () => {
    const result = check({ 'server/long.ts': `${functionOf('justShort', 80)}\n` })
    expect(result.code, result.output).toBe(0)
  })

  it('counts arrow functions, methods and React components, named by where they sit', () => {
    const arrow = `export const handler = () => {\n${'  work()\n'.repeat(80)}}\n`
    const method = `class A {\n  run(): void {\n${'    work()\n'.repeat(80)}  }\n}\n`
    const callback = `router.get('/x', (req, res) => {\n${'  work()\n'.repeat(80)}})\n`
    const component = `export function Card() {\n  return (\n    <div>\n${'      <p />\n'.repeat(78)}    </div>\n  )\n}\n`
    expect(longFunctionsIn('a.ts', arrow).map((f) => [f.name, f.length])).toEqual([['handler', 82]])
    expect(longFunctionsIn('a.ts', method).map((f) => [f.name, f.line, f.length])).toEqual([['run', 2, 82]])
    expect(longFunctionsIn('a.ts', callback).map((f) => f.name)).toEqual(['router.get(/x) callback'])
    expect(longFunctionsIn('a.tsx', component).map((f) => [f.name, f.length])).toEqual([['Card', 84]])
  })

  it('skips generated code and folders outside the checked list', () => {
    const long = `${functionOf('generated', 90)}\n`
    const result = check({ 'docs/reference/x.ts': long, 'web/public/sw.ts': long, 'tests/x.ts': long, 'engine/ok.ts': `${functionOf('fine', 10)}\n` })
    expect(result.code, result.output).toBe(0)
  })

  it('a still-long entry excuses its function up to its listed length only; a stale entry fails', () => {
    const found = longFunctionsIn('server/a/router.ts', `${functionOf('createRouter', 100)}\n`)
    expect(judge(found, { 'router.ts:createRouter': 100 })).toEqual({ violations: [], stale: [] })
    expect(judge(found, { 'router.ts:createRouter': 99 }).violations.map((f) => f.length)).toEqual([100])
    expect(judge([], { 'router.ts:createRouter': 100 }).stale).toEqual(['router.ts:createRouter'])
  })

  it('reads every checked folder of this repository', () => {
    const files = sourceFiles(ROOT)
    for (const folder of ['engine/', 'server/', 'studio/', 'tools/']) expect(files.some((file) => file.startsWith(folder))).toBe(true)
  })
})
