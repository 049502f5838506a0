/**
 * Jurisdiction policy lives in the jurisdiction documents, not in code: no code outside the
 * documents layer (engine/documents, server/documents), the demo seed data and the tests names a
 * jurisdiction id as a string literal. The places that still do are listed below with what they
 * decide, each to be moved into its jurisdiction document; the list may only shrink — a new id
 * literal anywhere else, or one more in a listed file, fails.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..', '..')
const JURISDICTION_IDS = readdirSync(join(ROOT, 'schemas', 'jurisdictions')).filter((entry) => statSync(join(ROOT, 'schemas', 'jurisdictions', entry)).isDirectory())
const DOCUMENTS_LAYER = [/^engine\/documents\//, /^server\/documents\//, /demo/]

/** Files that still name jurisdiction ids, with how many literals and what they decide. */
const STILL_IN_CODE: Record<string, { literals: number; decides: string }> = {
  'engine/actions/join.ts': { literals: 7, decides: "sign-up variant names ('belarus', 'italy', 'spain' of the spec's API paths); Russia's identity check after sign-up" },
  'server/identity/index.ts': { literals: 1, decides: 'the Russian identity service only on the Russian site' },
  'server/signup/verification.ts': { literals: 1, decides: "the 'belarus' SMS flow kind" },
  'server/signup/router.ts': { literals: 17, decides: "sign-up variants of the spec's API paths; Spanish document and Italian tax-code checks; Belarus's upload state" },
}

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((entry) => {
    const path = `${dir}/${entry}`
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path)
    return /\.(ts|tsx)$/.test(entry) ? [path] : []
  })
}

function literalsIn(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  const pattern = new RegExp(`['"\`](${JURISDICTION_IDS.join('|')})['"\`]`, 'g')
  return [...text.matchAll(pattern)].map((m) => m[1])
}

describe('no jurisdiction id in code outside the documents layer', () => {
  const files = ['engine', 'server'].flatMap(sources).filter((file) => !DOCUMENTS_LAYER.some((rule) => rule.test(file)))

  it('knows the seven jurisdictions from the documents', () => {
    expect(JURISDICTION_IDS).toHaveLength(7)
    expect(files.length).toBeGreaterThan(100)
  })

  it.each(['engine', 'server'])('no file under %s/ names a jurisdiction id beyond the shrinking list of places still to move', (root) => {
    const found = files
      .filter((file) => file.startsWith(`${root}/`))
      .map((file) => ({ file, literals: literalsIn(file) }))
      .filter(({ file, literals }) => literals.length > (STILL_IN_CODE[file]?.literals ?? 0))
      .map(({ file, literals }) => `${relative(ROOT, join(ROOT, file))}: ${literals.join(', ')}`)
    expect(found).toEqual([])
  })
})
