/**
 * The documents the server serves: loaded from the documents folder, resolved per site
 * (jurisdiction, locale, platform), reloaded when a file changes (the versioned copies live in the document store: server/store).
 *
 * Resolution: among the documents of the asked kind and id, a jurisdiction's own copy beats the
 * shared one; then a locale-specific variant beats a general one; then a platform-specific one.
 * Whole-document override keeps every variant a readable file for compliance review.
 */
import { watch, type FSWatcher } from 'node:fs'
import type { SiteBootstrap } from '../../engine/core/contracts'
import type { DocumentKind } from '../../engine/documents/kinds'
import type { JurisdictionDocument } from '../../engine/documents/types'
import { formatProblem, hashOf, loadDocuments, type DocumentProblem, type DocumentRecord } from '../../shared/documents/loader'
import { gameSetProblems } from '../../shared/games/offer'

export interface SiteRequest {
  jurisdiction: string
  locale: string
  platform: string
}

/** A site as the server knows it: what the browser's bootstrap says of it (one shape, engine/core/contracts.ts) plus its hosts. */
export type Site = Omit<SiteBootstrap['site'], 'development'> & { hosts: string[]; isDefault: boolean }

export class DocumentLoadError extends Error {
  constructor(readonly problems: DocumentProblem[]) {
    super(`documents failed to load:\n${problems.map(formatProblem).join('\n')}`)
    this.name = 'DocumentLoadError'
  }
}

type Listener = (change: { version: string }) => void

export interface DocumentService {
  /** Loads (or reloads) every document; throws DocumentLoadError and keeps the old set on any problem. */
  reload(): void
  /** Replaces the served set (used by the versioned store); same checks as reload. */
  replace(records: DocumentRecord[]): void
  resolve(kind: DocumentKind, id: string, request: SiteRequest): DocumentRecord | undefined
  list(kind?: DocumentKind): DocumentRecord[]
  sites(): Site[]
  siteForHost(host: string): Site
  site(id: string): Site | undefined
  /** A hash over every document a jurisdiction can be served; changes with any of them. */
  version(jurisdiction: string): string
  onChange(listener: Listener): () => void
  watch(onError: (error: unknown) => void): void
  close(): void
  readonly root: string
}

/** How well a document fits a site request: -1 when it does not apply; higher is more specific. */
export function resolutionScore(record: Pick<DocumentRecord, 'jurisdiction' | 'locales' | 'platforms'>, request: SiteRequest): number {
  if (record.jurisdiction !== '' && record.jurisdiction !== request.jurisdiction) return -1
  if (record.locales.length > 0 && !record.locales.includes(request.locale)) return -1
  if (record.platforms.length > 0 && !record.platforms.includes(request.platform)) return -1
  return (record.jurisdiction ? 4 : 0) + (record.locales.length ? 2 : 0) + (record.platforms.length ? 1 : 0)
}

function toSite(record: DocumentRecord): Site {
  const doc = record.source as unknown as JurisdictionDocument
  return {
    id: doc.id,
    jurisdiction: doc.id,
    name: doc.name,
    hosts: doc.hosts,
    isDefault: doc.default === true,
    defaultLocale: doc.defaultLocale,
    locales: doc.locales,
    currency: doc.currency,
    country: doc.country,
    countryName: doc.countryName,
    minimumAge: doc.minimumAge,
    mainProduct: doc.mainProduct ?? 'sport',
    loyaltyCampaign: (doc.loyalty as { campaign?: boolean } | undefined)?.campaign === true,
    betStake: (doc.betting as { stake?: { minimum: number; maximum: number } } | undefined)?.stake,
  }
}

function checkSet(records: DocumentRecord[]): DocumentProblem[] {
  const problems: DocumentProblem[] = []
  const jurisdictions = records.filter((r) => r.kind === 'jurisdiction')
  if (jurisdictions.length === 0) problems.push({ file: 'jurisdictions', pointer: '', message: 'no jurisdiction document: at least one site is needed' })
  const defaults = jurisdictions.filter((r) => r.source.default === true)
  if (jurisdictions.length > 0 && defaults.length !== 1)
    problems.push({ file: 'jurisdictions', pointer: '/default', message: `exactly one jurisdiction must be the default site (found ${defaults.length})` })
  const hostOwner = new Map<string, string>()
  for (const record of jurisdictions) {
    const doc = record.source as unknown as JurisdictionDocument
    for (const [i, host] of doc.hosts.entries()) {
      const owner = hostOwner.get(host)
      if (owner) problems.push({ file: record.file, pointer: `/hosts/${i}`, message: `host ${host} is also claimed by ${owner}` })
      hostOwner.set(host, record.file)
    }
    if (!doc.locales.includes(doc.defaultLocale))
      problems.push({ file: record.file, pointer: '/defaultLocale', message: `default locale ${doc.defaultLocale} is not among the site's locales` })
  }
  // casino games and the jurisdictions' return ranges (a shared game outside a range is only withheld)
  problems.push(...gameSetProblems(records).filter((p) => p.severity === 'error'))
  return problems
}

export function createDocumentService(options: { root: string }): DocumentService {
  const { root } = options
  let records: DocumentRecord[] = []
  let sitesById = new Map<string, Site>()
  let defaultSite: Site | undefined
  const versions = new Map<string, string>()
  const listeners = new Set<Listener>()
  let watcher: FSWatcher | undefined
  let timer: NodeJS.Timeout | undefined

  const install = (next: DocumentRecord[]) => {
    const problems = checkSet(next)
    if (problems.length > 0) throw new DocumentLoadError(problems)
    records = next
    const sites = next.filter((r) => r.kind === 'jurisdiction').map(toSite)
    sitesById = new Map(sites.map((s) => [s.id, s]))
    defaultSite = sites.find((s) => s.isDefault)
    versions.clear()
  }

  const service: DocumentService = {
    root,
    reload() {
      const { records: next, problems } = loadDocuments(root)
      if (problems.length > 0) throw new DocumentLoadError(problems)
      install(next)
    },
    replace(next) {
      install(next)
      for (const listener of listeners) listener({ version: hashOf(records.map((r) => r.hash)) })
    },
    resolve(kind, id, request) {
      let best: DocumentRecord | undefined
      let bestScore = -1
      for (const record of records) {
        if (record.kind !== kind || record.id !== id) continue
        const s = resolutionScore(record, request)
        if (s > bestScore) {
          best = record
          bestScore = s
        }
      }
      return best
    },
    list(kind) {
      return kind ? records.filter((r) => r.kind === kind) : [...records]
    },
    sites() {
      return [...sitesById.values()]
    },
    site(id) {
      return sitesById.get(id)
    },
    siteForHost(host) {
      const name = host.replace(/:\d+$/, '').toLowerCase()
      for (const site of sitesById.values()) if (site.hosts.includes(name)) return site
      return defaultSite!
    },
    version(jurisdiction) {
      let version = versions.get(jurisdiction)
      if (!version) {
        version = hashOf(records.filter((r) => r.jurisdiction === '' || r.jurisdiction === jurisdiction).map((r) => r.hash))
        versions.set(jurisdiction, version)
      }
      return version
    },
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    watch(onError) {
      if (watcher) return
      watcher = watch(root, { recursive: true }, () => {
        clearTimeout(timer)
        timer = setTimeout(() => {
          try {
            service.reload()
            for (const listener of listeners) listener({ version: hashOf(records.map((r) => r.hash)) })
          } catch (error) {
            onError(error)
          }
        }, 80)
      })
    },
    close() {
      clearTimeout(timer)
      watcher?.close()
      watcher = undefined
    },
  }
  return service
}
