/**
 * The one-time conversion of the jurisdictions' whole copies into overlays (tools/overlays/convert.ts,
 * issue 29): every site serves exactly the documents it served before, for every locale and
 * platform, through the server's own loader and resolution. "Before" is main's documents as git
 * has them at the commit the conversion was made on (so later document changes never move this
 * test); "after" is the conversion of exactly those files.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DOCUMENT_KINDS, PLATFORMS } from '../../../engine/documents/kinds'
import { createDocumentService, type DocumentService } from '../../../server/documents/service'
import { textsFromGit } from '../../../tools/schema-lint/diff/sources'
import { convertCopies, type ConversionOutcome } from '../../../tools/overlays/convert'

/** main at the time of the conversion: the documents before it. */
const BEFORE_CONVERSION = '06a1da1'
const ROOT = join(import.meta.dirname, '..', '..', '..')

let folder: string
let before: DocumentService
let after: DocumentService
let outcomes: ConversionOutcome[]

function serviceOver(texts: Map<string, string>, name: string): DocumentService {
  const root = join(folder, name)
  for (const [file, text] of texts) {
    mkdirSync(dirname(join(root, file)), { recursive: true })
    writeFileSync(join(root, file), text)
  }
  const service = createDocumentService({ root })
  service.reload()
  return service
}

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'parlay-overlays-'))
  const old = textsFromGit(BEFORE_CONVERSION, { cwd: ROOT })
  const converted = convertCopies(old)
  outcomes = converted.outcomes
  before = serviceOver(old, 'before')
  after = serviceOver(converted.texts, 'after')
}, 60000)
afterAll(() => rmSync(folder, { recursive: true, force: true }))

describe('converting copies to overlays changes nothing any site is served', () => {
  it('every site, locale and platform resolves every document to the same served JSON as before', () => {
    const ids = [...new Set(before.list().map((r) => `${r.kind}\u0000${r.id}`))]
    expect(after.sites()).toEqual(before.sites())
    let compared = 0
    for (const site of before.sites())
      for (const locale of site.locales)
        for (const platform of PLATFORMS)
          for (const key of ids) {
            const [kind, id] = key.split('\u0000') as [(typeof DOCUMENT_KINDS)[number], string]
            const request = { jurisdiction: site.jurisdiction, locale, platform }
            const [was, now] = [before.resolve(kind, id, request), after.resolve(kind, id, request)]
            expect(JSON.stringify(now?.served), `${site.id} ${locale} ${platform} ${kind} ${id}`).toBe(JSON.stringify(was?.served))
            expect(now?.file).toBe(was?.file)
            compared++
          }
    expect(compared).toBeGreaterThan(10000)
  })

  it('no document is added or lost, and every site has the same documents version', () => {
    expect(after.list().map((r) => `${r.file} ${r.hash}`)).toEqual(before.list().map((r) => `${r.file} ${r.hash}`))
    for (const site of before.sites()) expect(after.version(site.jurisdiction)).toBe(before.version(site.jurisdiction))
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
