/**
 * What compliance reads about a change (issue 29 item 2): where each file goes live — the sites
 * and locales that serve it once published, decided by the document itself (a file in
 * jurisdictions/spain/ reaches Spain; a shared one every site without its own copy), never by the
 * admin's host — the page that shows it, and each finding in the words of every locale it reaches.
 */
import type { DocumentRecord } from '../../tools/schema-lint'
import { pagePathOf } from '../../kernel/documents/page-path'
import type { DiffFinding } from '../../tools/schema-lint'
import { inPunterWords } from '../../tools/schema-lint'
import { translationsFor } from '../documents/router'
import { recordsView, resolveIn, type Site } from '../documents/service'

export interface SiteReach {
  site: string
  name: string
  locales: string[]
}

export interface FileReach {
  file: string
  /** The page that shows the document (the previews open it). */
  path: string
  /** The sites and locales that serve this file once published (a deletion: that served it). */
  sites: SiteReach[]
  /** A shared document's sites that a change does not reach: they serve their own copy. */
  ownCopies: { site: string; name: string; file: string }[]
}

/** Both sides of a change: the published set, and the set with the change in place. */
export interface ChangeSets {
  before: readonly DocumentRecord[]
  after: readonly DocumentRecord[]
  sites: readonly Site[]
}

export interface SaidFinding {
  locale: string
  message: string
}

/** Sites as a reviewer reads them: `first` (the admin's own) when given, the default site, then by name. */
export function orderSites(sites: readonly Site[], first?: string): Site[] {
  const rank = (s: Site) => (s.id === first ? 0 : s.isDefault ? 1 : 2)
  return [...sites].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name))
}

/** Where `file` goes live, given the change's two sets. */
export function reachOf(file: string, sets: ChangeSets): FileReach {
  const records = sets.after.some((r) => r.file === file) ? sets.after : sets.before
  const record = records.find((r) => r.file === file)
  if (!record) return { file, path: '/', sites: [], ownCopies: [] }
  // a texts document serves one locale; any other document every locale of a site it resolves for
  const textsLocale = record.kind === 'translations' ? String(record.source.locale ?? record.id) : undefined
  const platform = record.platforms[0] ?? 'web'
  const reach: FileReach = { file, path: pathOf(record, sets), sites: [], ownCopies: [] }
  for (const site of sets.sites) {
    const candidates = site.locales.filter((locale) => !textsLocale || locale === textsLocale)
    const served = (locale: string) => resolveIn(records, record.kind, record.id, { jurisdiction: site.jurisdiction, locale, platform })
    // a site whose overlay sits on this shared file is reached when its resolved document changes
    const overlaid = (locale: string) => {
      const [was, now] = [sets.before, sets.after].map((set) => resolveIn(set, record.kind, record.id, { jurisdiction: site.jurisdiction, locale, platform }))
      return record.jurisdiction === '' && !!now && now.file !== file && was?.file === now.file && was.hash !== now.hash
    }
    const locales = candidates.filter((locale) => served(locale)?.file === file || overlaid(locale))
    if (locales.length > 0) reach.sites.push({ site: site.id, name: site.name, locales })
    const other = candidates.length > 0 && locales.length === 0 && record.jurisdiction === '' ? served(candidates[0]) : undefined
    if (other) reach.ownCopies.push({ site: site.id, name: site.name, file: other.file })
  }
  return reach
}

/** The page that shows a document: a texts change shows where its changed keys are used. */
function pathOf(record: DocumentRecord, sets: ChangeSets): string {
  const texts = new Map<DocumentRecord, string>()
  const textOf = (r: DocumentRecord) => texts.get(r) ?? (texts.set(r, JSON.stringify(r.source)), texts.get(r)!)
  const routeUsing = (needle: string): string | undefined => {
    const screen = sets.after.find((r) => r.kind === 'screen' && textOf(r).includes(needle))
    if (screen) return pagePathOf(screen)
    const flow = sets.after.find((r) => r.kind === 'flow' && textOf(r).includes(needle))
    return flow && pagePathOf(flow, (n) => sets.after.find((r) => r.kind === 'screen' && textOf(r).includes(n))?.source.route as string | undefined)
  }
  return pagePathOf(record, routeUsing, record.kind === 'translations' ? changedKeys(record, sets.before) : [])
}

/** The text keys a texts document adds, removes or changes against what its sites served before
 * (its published version; for a new jurisdiction copy, the shared document it replaces there). */
function changedKeys(record: DocumentRecord, before: readonly DocumentRecord[]): string[] {
  const locale = String(record.source.locale ?? record.id)
  const replaced = before.find((r) => r.file === record.file) ?? resolveIn(before, record.kind, record.id, { jurisdiction: record.jurisdiction, locale, platform: 'web' })
  const now = (record.source.resources ?? {}) as Record<string, string>
  const was = (replaced?.source.resources ?? {}) as Record<string, string>
  return [...new Set([...Object.keys(now), ...Object.keys(was)])].filter((key) => now[key] !== was[key])
}

/** Each finding with its message in the words of every locale its document reaches (`said`). */
export function withPunterWords<F extends DiffFinding>(findings: F[], reaches: readonly FileReach[], sets: ChangeSets): (F & { said: SaidFinding[] })[] {
  const view = { documents: recordsView(sets.after) }
  const cache = new Map<string, Record<string, string>>()
  const textsOf = (site: string, locale: string) => {
    const key = `${site}/${locale}`
    if (!cache.has(key)) {
      const jurisdiction = sets.sites.find((s) => s.id === site)?.jurisdiction ?? site
      cache.set(key, translationsFor(view, { jurisdiction, locale, platform: 'web' }, locale)?.resources ?? {})
    }
    return cache.get(key)!
  }
  const sourceOf = (records: readonly DocumentRecord[], file: string) => records.find((r) => r.file === file)?.source
  return findings.map((finding) => {
    const file = finding.document.file
    const sources = [sourceOf(sets.after, file), sourceOf(sets.before, file)]
    const said: SaidFinding[] = []
    for (const { site, locales } of reaches.find((r) => r.file === file)?.sites ?? []) {
      for (const locale of locales) {
        const message = said.some((s) => s.locale === locale) ? undefined : inPunterWords(finding, sources, textsOf(site, locale))
        if (message) said.push({ locale, message })
      }
    }
    return { ...finding, said }
  })
}
