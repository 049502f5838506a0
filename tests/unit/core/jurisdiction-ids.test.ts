/**
 * Jurisdiction policy lives in the jurisdiction documents, not in code: no code outside the
 * documents layer (engine/documents, server/documents), the demo seed data and the tests names a
 * jurisdiction id as a string literal: a rule for one jurisdiction is a field of its document
 * (sign-up checks, new-punter profile, identification services, after-sign-up chains), and the
 * spec's per-variant sign-up API is data (kernel/documents/signup-variants.json).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..', '..')
const JURISDICTION_IDS = readdirSync(join(ROOT, 'schemas', 'jurisdictions')).filter((entry) => statSync(join(ROOT, 'schemas', 'jurisdictions', entry)).isDirectory())
const DOCUMENTS_LAYER = [/^kernel\/documents\//, /^server\/documents\//, /demo/]

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((entry) => {
    const path = `${dir}/${entry}`
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path)
    return /\.(ts|tsx)$/.test(entry) ? [path] : []
  })
}

function literalsIn(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  // a quoted id ('spain'), or an id as an object key ({ spain: 'ES' }): a table keyed by jurisdiction is policy too
  const pattern = new RegExp(`['"\`](${JURISDICTION_IDS.join('|')})['"\`]|[{,]\\s*(${JURISDICTION_IDS.join('|')})\\s*:`, 'g')
  return [...text.matchAll(pattern)].map((m) => m[1] ?? m[2])
}

describe('no jurisdiction id in code outside the documents layer', () => {
  const files = ['kernel', 'engine', 'server'].flatMap(sources).filter((file) => !DOCUMENTS_LAYER.some((rule) => rule.test(file)))

  it('knows every jurisdiction from the documents (one folder each under schemas/jurisdictions)', () => {
    expect([...JURISDICTION_IDS].sort()).toEqual(readdirSync(join(ROOT, 'schemas', 'jurisdictions')).sort())
    expect(files.length).toBeGreaterThan(100)
  })

  it.each(['kernel', 'engine', 'server'])('no file under %s/ names a jurisdiction id', (root) => {
    const found = files
      .filter((file) => file.startsWith(`${root}/`))
      .map((file) => ({ file, literals: literalsIn(file) }))
      .filter(({ literals }) => literals.length > 0)
      .map(({ file, literals }) => `${relative(ROOT, join(ROOT, file))}: ${literals.join(', ')}`)
    expect(found).toEqual([])
  })
})
