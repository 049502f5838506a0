/**
 * schema-lint rejects broken documents with `file:json-pointer: message`, and passes the shipped set.
 */
import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { lintDocuments } from '../../../tools/schema-lint/lint'

const ROOT = join(import.meta.dirname, '..', '..', '..')
const dirs: string[] = []
function copyOfSchemas(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parlay-lint-'))
  cpSync(join(ROOT, 'schemas'), dir, { recursive: true })
  dirs.push(dir)
  return dir
}
function edit(dir: string, file: string, change: (doc: any) => void) {
  const path = join(dir, file)
  const doc = JSON.parse(readFileSync(path, 'utf8'))
  change(doc)
  writeFileSync(path, JSON.stringify(doc, null, 2))
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('schema-lint', () => {
  it('the shipped documents have no errors', async () => {
    const findings = await lintDocuments(join(ROOT, 'schemas'))
    expect(findings.filter((f) => f.severity === 'error')).toEqual([])
  })

  it.each([
    ['an unknown action', 'popups/info.json', (d: any) => d.buttons[0].actions.push({ do: 'account.explode' }), '/buttons/0/actions/1/do', 'unknown action "account.explode"'],
    ['a popup id nobody defines', 'popups/info.json', (d: any) => d.buttons[0].actions.push({ do: 'popup.open', with: { id: 'ghost' } }), '/buttons/0/actions/1/with/id', 'no popup document has the id "ghost"'],
    ['a route no screen serves', 'popups/info.json', (d: any) => d.buttons[0].actions.push({ do: 'nav.go', with: { to: '/nowhere' } }), '/buttons/0/actions/1/with/to', 'no screen serves the route "/nowhere"'],
    ['a text key missing in a shipped locale', 'popups/info.json', (d: any) => (d.title = 'popup.info.never.translated'), '/title', 'text key "popup.info.never.translated" is missing in locale'],
    ['an action parameter of the wrong type', 'popups/info.json', (d: any) => d.buttons[0].actions.push({ do: 'nav.go', with: { to: 42 } }), '/buttons/0/actions/1/with/to', 'nav.go'],
    ['an expression that does not type-check', 'popups/info.json', (d: any) => (d.buttons[0].when = 'user.balance + "x"'), '/buttons/0/when', 'no such overload'],
    [
      'a code channel the jurisdiction does not allow (Alderney: SMS only)',
      'jurisdictions/alderney/flows/signup-phone.json',
      (d: any) => (d.steps[0].schema.properties.channelType = { type: 'string', enum: ['sms', 'tg_gateway'] }),
      '/steps/0/schema/properties/channelType/enum',
      "offers the code channel tg_gateway, which alderney's jurisdiction document does not allow",
    ],
    [
      "a form heading that repeats its screen's title (\"Sign up\" read twice on /join)",
      'screens/join.json',
      (d: any) => delete d.body.find((n: any) => n.type === 'form').headed,
      '/body/',
      "the same as the screen's title (page.join.title)",
    ],
    ['an unknown menu item name', 'menus/left-menu.json', (d: any) => d.items.push({ name: 'casinoRoyale', label: 'menu.lobby' }), '/items/', 'must be equal to one of the allowed values'],
  ])('rejects %s, naming the file and the JSON pointer', async (_name, file, change, pointer, message) => {
    const dir = copyOfSchemas()
    edit(dir, file, change)
    const errors = (await lintDocuments(dir)).filter((f) => f.severity === 'error')
    expect(errors.length).toBeGreaterThan(0)
    const hit = errors.find((f) => f.file === file && f.pointer.startsWith(pointer))
    expect(hit, JSON.stringify(errors.slice(0, 3))).toBeDefined()
    expect(hit!.message).toContain(message)
  })

  it('the CLI prints file:json-pointer lines and exits non-zero, including regulatory rules', () => {
    const dir = copyOfSchemas()
    edit(dir, 'jurisdictions/belarus/jurisdiction.json', (d) => (d.minimumAge = 18))
    let output = ''
    let code = 0
    try {
      execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'tools/cli/schema-lint.ts'), dir], { encoding: 'utf8', cwd: ROOT })
    } catch (error) {
      const e = error as { status: number; stdout: string }
      code = e.status
      output = e.stdout
    }
    expect(code).toBe(1)
    expect(output).toMatch(/^jurisdictions\/belarus\/jurisdiction\.json:\/minimumAge: .*21/m)
  })
})
