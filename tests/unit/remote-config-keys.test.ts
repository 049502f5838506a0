/**
 * Every remote-config key has a reader (issue 34 item 7, docs/adr/0085-remote-config-keys.md).
 * The oracle is the ADR's table and the reader files themselves: each top-level key found in any
 * remote-config document (the shared one and every jurisdiction's overlay) must have a row, the
 * row must name a reader (not "removed because"), and that reader file must mention the key.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(__dirname, '..', '..')
const ADR = readFileSync(join(ROOT, 'docs/adr/0085-remote-config-keys.md'), 'utf8')

/** Table rows: the keys named in the first cell, and the second cell. */
const rows = ADR.split('\n')
  .filter((line) => line.startsWith('| `'))
  .map((line) => {
    const [, keys, reader] = line.split('|').map((cell) => cell.trim())
    // `KEY` is a whole key; `KEY.PART` a part of one (its top-level key is in the documents still)
    return { keys: [...keys.matchAll(/`([A-Z_]+)[`.]/g)].map((m) => m[1]), wholeKeys: [...keys.matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]), reader }
  })

function remoteConfigDocuments(): { file: string; config: Record<string, unknown> }[] {
  const files = [join(ROOT, 'schemas/remote-config/app.json')]
  for (const site of readdirSync(join(ROOT, 'schemas/jurisdictions'))) {
    const overlay = join(ROOT, 'schemas/jurisdictions', site, 'remote-config.json')
    if (existsSync(overlay)) files.push(overlay)
  }
  return files.map((file) => ({ file, config: (JSON.parse(readFileSync(file, 'utf8')) as { config: Record<string, unknown> }).config }))
}

describe('remote-config keys', () => {
  const documents = remoteConfigDocuments()
  const keys = [...new Set(documents.flatMap((d) => Object.keys(d.config)))]

  it('the documents hold keys (the check below is not vacuous)', () => {
    expect(keys.length).toBeGreaterThan(5)
  })

  for (const key of keys)
    it(`${key} has a reader that names it`, () => {
      const row = rows.find((r) => r.keys.includes(key) && !r.reader.startsWith('removed because'))
      expect(row, `no reader row for ${key} in ADR 0085`).toBeDefined()
      const reader = /`([^`]+\.(?:ts|json))`/.exec(row!.reader)?.[1]
      expect(reader, `the row for ${key} names no file`).toBeDefined()
      expect(readFileSync(join(ROOT, reader!), 'utf8')).toContain(key)
    })

  it('no removed key is back in a document', () => {
    const removed = rows.filter((r) => r.reader.startsWith('removed because')).flatMap((r) => r.wholeKeys)
    expect(removed).toContain('ALLOWED_LOCALES')
    for (const { file, config } of documents) for (const key of removed) expect(Object.keys(config), file).not.toContain(key)
  })
})
