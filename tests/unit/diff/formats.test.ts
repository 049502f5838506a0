import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { diffDocumentSets } from '../../../tools/schema-lint/diff/differ'
import { toHtml, toJson, toMarkdown, toSarif } from '../../../tools/schema-lint/diff/formats'
import { runDiffCli } from '../../../tools/cli/schema-diff'
import { snapshotsFromFolder, snapshotsFromGit } from '../../../tools/schema-lint/diff/sources'

const SCHEMAS = resolve(import.meta.dirname, '..', '..', '..', 'schemas')
const work = mkdtempSync(join(tmpdir(), 'parlay-diff-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

function editedCopy(): string {
  const dir = join(work, `copy-${Math.random().toString(36).slice(2)}`)
  cpSync(SCHEMAS, dir, { recursive: true })
  const file = join(dir, 'popups', 'self-exclude.json')
  const popup = JSON.parse(readFileSync(file, 'utf8'))
  popup.buttons[0].actions = [{ do: 'nav.go', with: { to: '/' } }]
  popup.title = '<script>alert(1)</script>'
  writeFileSync(file, JSON.stringify(popup, null, 2))
  return dir
}

describe('diff output formats', () => {
  const after = editedCopy()
  const findings = diffDocumentSets(snapshotsFromFolder(SCHEMAS), snapshotsFromFolder(after))

  it('two folders: finds the self-exclusion button change', () => {
    expect(findings.map((f) => f.message)).toContain('popup self-exclude: button ok now runs nav.go instead of popup.close')
  })
  it('markdown groups by impact class and shows fingerprints', () => {
    const md = toMarkdown(findings)
    expect(md).toContain('## self-exclusion and limits')
    expect(md).toContain(findings[0].fingerprint)
  })
  it('HTML escapes document content', () => {
    const html = toHtml(findings)
    expect(html).not.toContain('<script>alert')
    expect(html).toContain('&lt;script&gt;')
  })
  it('JSON carries a summary and every finding', () => {
    const json = JSON.parse(toJson(findings))
    expect(json.summary.total).toBe(findings.length)
    expect(json.findings[0]).toHaveProperty('fingerprint')
  })
  it('SARIF 2.1.0 with partial fingerprints and levels', () => {
    const sarif = JSON.parse(toSarif(findings))
    expect(sarif.version).toBe('2.1.0')
    const result = sarif.runs[0].results[0]
    expect(result.partialFingerprints['parlayDiff/v1']).toBe(findings[0].fingerprint)
    expect(['error', 'warning', 'note']).toContain(result.level)
    expect(sarif.runs[0].tool.driver.rules[result.ruleIndex].id).toBe(result.ruleId)
  })
  it('the CLI exits 1 on an error finding, 0 when it is approved by fingerprint', async () => {
    const out = join(work, 'out.json')
    const log = console.log
    expect(await runDiffCli([SCHEMAS, after, '--format', 'json', '--out', out])).toBe(1)
    const approved = join(work, 'approved.txt')
    writeFileSync(approved, findings.map((f) => f.fingerprint).join('\n'))
    expect(await runDiffCli([SCHEMAS, after, '--format', 'json', '--out', out, '--approved', approved])).toBe(0)
    expect(await runDiffCli([SCHEMAS])).toBe(2)
    console.log = log
  })
})

describe('git refs as diff sides', () => {
  it('reads a ref’s schemas tree with git show (HEAD equals HEAD)', () => {
    const root = resolve(SCHEMAS, '..')
    let head: string
    try {
      head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim()
    } catch {
      return
    }
    const side = snapshotsFromGit(head, { cwd: root })
    expect(side.length).toBeGreaterThan(10)
    expect(diffDocumentSets(side, snapshotsFromGit('HEAD', { cwd: root }))).toEqual([])
  })
  it('refuses a ref that looks like an option', () => {
    expect(() => snapshotsFromGit('--output=/tmp/x')).toThrow(/not a git ref/)
  })
})
