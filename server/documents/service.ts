/**
 * The documents the server serves: loaded from the documents folder, resolved per site
 * (jurisdiction, locale, platform), reloaded when a file changes (the versioned copies live in the document store: server/store).
 *
 * Resolution: among the documents of the asked kind and id, a jurisdiction's own version beats the
 * shared one; then a locale-specific variant beats a general one; then a platform-specific one. A
 * jurisdiction's version is usually an overlay, resolved to shared ⊕ overlay when the set loads
 * (kernel/documents/overlay-set.ts), so here every record is a whole document.
 */
import { watch, type FSWatcher } from 'node:fs'
import type { SiteBootstrap } from '../../kernel/core/contracts'
import type { DocumentKind } from '../../kernel/documents/kinds'
import type { JurisdictionDocument } from '../../kernel/documents/types'
import { formatProblem, hashOf, loadDocuments, type DocumentProblem, type DocumentRecord } from '../../tools/schema-lint'
import { checkServedSet } from './set-check'

export interface SiteRequest {
  jurisdiction: string
  locale: string
  platform: string
}

/** A site as the server knows it: what the browser's bootstrap says of it (one shape, kernel/core/contracts.ts) plus its hosts. */
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
  /**
   * Hands the watcher's file changes to whoever governs the served set (the versioned store). With
   * such a listener the watcher installs nothing from disk itself: the store seeds the files and
   * serves its published set, so a removed file stays served while its deletion is in review and a
   * document published in the studio is never replaced by the folder's, not even for a moment.
   */
  onFilesChanged(listener: () => void): () => void
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

/** The record a site request is served among `records` (the best resolution score), if any. */
export function resolveIn(records: readonly DocumentRecord[], kind: string, id: string, request: SiteRequest): DocumentRecord | undefined {
  let best: DocumentRecord | undefined
  let bestScore = -1
  for (const record of records) {
    if (record.kind !== kind || record.id !== id) continue
    const s = resolutionScore(record, request)
    if (s > bestScore) [best, bestScore] = [record, s]
  }
  return best
}

/** What reads documents the way the served set is read: the service itself, or another set of records. */
export type DocumentsView = Pick<DocumentService, 'list' | 'resolve'>

/** A set of records (a preview's, a review's) read as the service reads its own. */
export function recordsView(records: readonly DocumentRecord[]): DocumentsView {
  return {
    resolve: (kind, id, request) => resolveIn(records, kind, id, request),
    list: (kind) => (kind ? records.filter((r) => r.kind === kind) : [...records]),
  }
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
    currencyDisplay: doc.currencyDisplay,
    country: doc.country,
    countryName: doc.countryName,
    minimumAge: doc.minimumAge,
    mainProduct: doc.mainProduct ?? 'sport',
    loyaltyCampaign: (doc.loyalty as { campaign?: boolean } | undefined)?.campaign === true,
    betStake: (doc.betting as { stake?: { minimum: number; maximum: number } } | undefined)?.stake,
    gameStake: (doc.games as { stake?: { minimum: number; maximum: number } } | undefined)?.stake,
  }
}

/** The site whose hosts name this Host header (its port and case left out), if any. */
function siteOfHost(sites: Iterable<Site>, host: string): Site | undefined {
  const name = host.replace(/:\d+$/, '').toLowerCase()
  for (const site of sites) if (site.hosts.includes(name)) return site
  return undefined
}

/** Calls `onBurst` 80 ms after the last change of a burst in the folder (an editor's save is several events). */
function watchFolder(root: string, onBurst: () => void): { close(): void } {
  let timer: NodeJS.Timeout | undefined
  const watcher: FSWatcher = watch(root, { recursive: true }, () => {
    clearTimeout(timer)
    timer = setTimeout(onBurst, 80)
  })
  return {
    close() {
      clearTimeout(timer)
      watcher.close()
    },
  }
}

export function createDocumentService(options: { root: string }): DocumentService {
  const { root } = options
  let records: DocumentRecord[] = []
  let sitesById = new Map<string, Site>()
  let defaultSite: Site | undefined
  const versions = new Map<string, string>()
  const listeners = new Set<Listener>()
  let folder: { close(): void } | undefined
  const fileListeners = new Set<() => void>()

  const install = (next: DocumentRecord[]) => {
    // the set check the publish gate runs too (./set-check.ts): sites, and every flow's validators
    const problems = checkServedSet(next)
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
      return resolveIn(records, kind, id, request)
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
      return siteOfHost(sitesById.values(), host) ?? defaultSite!
    },
    version(jurisdiction) {
      // the shared documents and the jurisdiction's own, hashed once per set installed
      if (!versions.has(jurisdiction)) versions.set(jurisdiction, hashOf(records.filter((r) => r.jurisdiction === '' || r.jurisdiction === jurisdiction).map((r) => r.hash)))
      return versions.get(jurisdiction)!
    },
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    onFilesChanged(listener) {
      fileListeners.add(listener)
      return () => fileListeners.delete(listener)
    },
    watch(onError) {
      folder ??= watchFolder(root, () => {
        if (fileListeners.size > 0) for (const listener of fileListeners) listener()
        else {
          try {
            service.reload()
            for (const listener of listeners) listener({ version: hashOf(records.map((r) => r.hash)) })
          } catch (error) {
            onError(error)
          }
        }
      })
    },
    close() {
      folder?.close()
      folder = undefined
    },
  }
  return service
}
