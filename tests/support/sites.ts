/**
 * The declared sites, for tests that go through "every site": the jurisdiction list of the document
 * kinds (kernel/documents/kinds.ts) with each one's document read from schemas/jurisdictions. A
 * site added there is picked up by every such test without editing it.
 */
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { JURISDICTIONS } from '../../kernel/documents/kinds'

const DIR = resolve(import.meta.dirname, '..', '..', 'schemas', 'jurisdictions')

export interface SiteDocument {
  id: string
  name: string
  hosts: string[]
  default?: boolean
  defaultLocale: string
  locales: string[]
  currency: string
  country: string
  [key: string]: unknown
}

/** Every declared site id, in the declared order. */
export const SITES: readonly string[] = [...JURISDICTIONS]

/** A site's jurisdiction document as stored. */
export const siteDocument = (id: string): SiteDocument => JSON.parse(readFileSync(join(DIR, id, 'jurisdiction.json'), 'utf8'))

/** A site's first host (what a browser names it by). */
export const siteHost = (id: string) => siteDocument(id).hosts[0]

/** The demo punter of each site that logs in to an ordinary open account (docs/demo-data.md): the
 * default site's is opened@, every other site's is <id>@. */
export const openDemoPunter = (id: string) => (siteDocument(id).default ? 'opened@demo.parlay.test' : `${id}@demo.parlay.test`)
