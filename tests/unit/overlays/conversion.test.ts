/**
 * The one-time conversion of the jurisdictions' whole copies into overlays (tools/overlays/convert.ts,
 * issue 29): every site resolves every document, for every locale and platform, to exactly the
 * source it resolved to before — through the server's own resolution (resolutionScore) over the
 * set as the loader reads it (overlays resolved, bases left out). "Before" is main's documents as
 * git has them at the commit the conversion was made on; "after" is the conversion of exactly
 * those files. Compared as sources, not through the kinds' schemas, so later schema changes (a
 * kind gaining a required field) never move this test; the loader turns equal sources into equal
 * served documents.
 */
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { PLATFORMS } from '../../../kernel/documents/kinds'
import { resolutionScore } from '../../../server/documents/service'
import { jurisdictionOfFile, resolveOverlaySet } from '../../../kernel/documents/overlay-set'
import { textsFromGit } from '../../../tools/schema-lint/diff/sources'
import { convertCopies, type ConversionOutcome } from '../../../tools/overlays/convert'

/** main at the time of the conversion: the documents before it. */
const BEFORE_CONVERSION = '06a1da1'
const ROOT = join(import.meta.dirname, '..', '..', '..')

interface Served {
  file: string
  kind: string
  id: string
  jurisdiction: string
  locales: string[]
  platforms: string[]
  text: string
}

/** The documents of a set as the loader serves them: overlays resolved, bases left out. */
function servedSet(texts: Map<string, string>): Served[] {
  const resolved = resolveOverlaySet(texts)
  expect(resolved.problems).toEqual([])
  return [...resolved.texts].map(([file, text]) => {
    const doc = JSON.parse(text) as Record<string, unknown>
    const kind = String(doc.kind)
    return { file, kind, id: String(doc.id), jurisdiction: kind === 'jurisdiction' ? String(doc.id) : jurisdictionOfFile(file), locales: (doc.locales as string[]) ?? [], platforms: (doc.platforms as string[]) ?? [], text: JSON.stringify(doc) }
  })
}

/** The server's resolution (server/documents/service.ts): the best-scoring document of a kind and id. */
function resolve(set: Served[], kind: string, id: string, request: { jurisdiction: string; locale: string; platform: string }): Served | undefined {
  let best: Served | undefined
  let score = -1
  for (const doc of set) {
    if (doc.kind !== kind || doc.id !== id) continue
    const s = resolutionScore(doc, request)
    if (s > score) [best, score] = [doc, s]
  }
  return best
}

let before: Served[]
let after: Served[]
let outcomes: ConversionOutcome[]

beforeAll(() => {
  const old = textsFromGit(BEFORE_CONVERSION, { cwd: ROOT })
  const converted = convertCopies(old)
  outcomes = converted.outcomes
  before = servedSet(old)
  after = servedSet(converted.texts)
}, 60000)

describe('converting copies to overlays changes nothing any site is served', () => {
  it('every site, locale and platform resolves every document to the same file and source as before', () => {
    const sites = before.filter((d) => d.kind === 'jurisdiction').map((d) => JSON.parse(d.text) as { id: string; locales: string[] })
    expect(sites).toHaveLength(7)
    const ids = [...new Set(before.map((d) => `${d.kind}\u0000${d.id}`))]
    let compared = 0
    for (const site of sites)
      for (const locale of site.locales)
        for (const platform of PLATFORMS)
          for (const key of ids) {
            const [kind, id] = key.split('\u0000')
            const request = { jurisdiction: site.id, locale, platform }
            const [was, now] = [resolve(before, kind, id, request), resolve(after, kind, id, request)]
            expect(now?.file, `${site.id} ${locale} ${platform} ${kind} ${id}`).toBe(was?.file)
            expect(now?.text, `${site.id} ${locale} ${platform} ${kind} ${id}`).toBe(was?.text)
            compared++
          }
    expect(compared).toBeGreaterThan(10000)
  })

  it('no document is added or lost: the same files are served, bases are not', () => {
    expect(after.map((d) => d.file)).toEqual(before.map((d) => d.file))
    expect(after.some((d) => d.file.startsWith('bases/'))).toBe(false)
  })

  it('turns the copies into overlays where a patch gives them back exactly, and says why the rest stay whole', () => {
    const by = (outcome: string) => outcomes.filter((o) => o.outcome === outcome).map((o) => o.file)
    expect(by('base')).toEqual(['bases/flows/signup-code.json', 'bases/flows/signup-email.json', 'bases/flows/signup-phone.json'])
    expect(by('overlay')).toContain('jurisdictions/belarus/menus/left-menu.json')
    expect(by('overlay')).toContain('jurisdictions/spain/flows/signup-email.json')
    expect(by('overlay')).toHaveLength(15)
    expect(outcomes.filter((o) => o.outcome === 'whole').map((o) => [o.file, o.reason])).toEqual([
      ['jurisdictions/russia/flows/identity-passport.json', 'no shared document, and no other jurisdiction has this document to share a base with'],
      ['jurisdictions/russia/screens/account-tsupis-identity.json', 'its top-level keys are in another order than the shared document’s'],
    ])
  })
})
