/**
 * What the studio shows beside any document (issue 29, item 4): for each site, which file serves
 * that document there — its overlay, a whole copy, the shared document, or none — the resolved
 * result, and what the site's own version changes against the shared document in plain words (the
 * semantic differ). For an overlay it also gives the patch as stored and its shared document, which
 * the studio resolves a draft against and writes the patch from when the operator saves.
 */
import { isBaseFile, overlayBaseOf, resolveOverlaySet } from '../../kernel/documents/overlay-set'
import { diffDocument, variantKey, type DocumentSnapshot } from '../../tools/schema-lint'
import { summaryOf } from '../../tools/schema-lint'
import { snapshotOf } from '../../tools/schema-lint'
import type { Site } from '../documents/service'
import type { DocumentStore } from '../store/store'

export type ServedHow = 'overlay' | 'copy' | 'shared' | 'none'

export interface SiteResult {
  site: string
  name: string
  jurisdiction: string
  /** The file that serves the document on this site, and how. */
  file: string | null
  how: ServedHow
  /** The shared document (or base) the site's own version is measured against. */
  base: string | null
  resolved: Record<string, unknown> | null
  /** The overlay as stored (the patch), for `how: 'overlay'`. */
  overlay: Record<string, unknown> | null
  changes: { message: string; location: string; impact: string; severity: string }[]
  summary: ReturnType<typeof summaryOf> | null
}

export interface SiteResults {
  file: string
  kind: string
  id: string
  /** The shared document of this identity that sites without their own version are served, if any. */
  shared: string | null
  /** When `file` is an overlay: the shared document it builds on, with its published text. */
  base: { file: string; content: string } | null
  sites: SiteResult[]
}

/** The published texts, with the file's latest version in place when it was never published (a new overlay draft). */
async function textsFor(store: DocumentStore, file: string): Promise<Map<string, string> | undefined> {
  const texts = new Map([...(await store.published())].map(([f, v]) => [f, v.content]))
  if (!texts.has(file)) {
    const latest = (await store.versions({ file, limit: 1 }))[0]
    if (!latest || latest.deleted) return undefined
    texts.set(file, latest.content)
  }
  return texts
}

export async function siteResults(store: DocumentStore, sites: Site[], file: string): Promise<SiteResults | undefined> {
  const texts = await textsFor(store, file)
  if (!texts) return undefined
  const resolved = resolveOverlaySet(texts)
  const snapshot = (f: string) => snapshotOf(f, resolved.texts.get(f) ?? texts.get(f) ?? '')
  const opened = snapshot(file)
  if (!opened) return undefined
  const same = (s: DocumentSnapshot | null): s is DocumentSnapshot => !!s && s.kind === opened.kind && s.id === opened.id && variantKey(s) === variantKey(opened)
  const served = [...resolved.texts.keys()].map(snapshot).filter(same)
  const shared = served.find((s) => s.jurisdiction === '')
  const bases = [...texts.keys()].filter(isBaseFile).map(snapshot).filter(same)
  const overlayBase = overlayBaseOf(texts.get(file) ?? '')
  return {
    file,
    kind: opened.kind,
    id: opened.id,
    shared: shared?.file ?? null,
    base: overlayBase && texts.has(overlayBase) ? { file: overlayBase, content: texts.get(overlayBase)! } : null,
    sites: sites.map((site) => {
      const own = served.find((s) => s.jurisdiction === site.jurisdiction)
      const serving = own ?? shared
      const baseFile = own ? (resolved.overlays.get(own.file) ?? shared?.file ?? bases[0]?.file ?? null) : null
      const base = baseFile ? snapshot(baseFile) : null
      // the shared document as if it were this site's: the diff is then only what the site's version changes
      const changes = own && base ? diffDocument({ ...base, source: { ...base.source, $schema: own.source.$schema }, jurisdiction: own.jurisdiction, file: own.file }, own) : []
      return {
        site: site.id,
        name: site.name,
        jurisdiction: site.jurisdiction,
        file: serving?.file ?? null,
        how: own ? (resolved.overlays.has(own.file) ? 'overlay' : 'copy') : shared ? 'shared' : 'none',
        base: baseFile,
        resolved: serving?.source ?? null,
        overlay: own && resolved.overlays.has(own.file) ? (JSON.parse(texts.get(own.file)!) as Record<string, unknown>) : null,
        changes: changes.map((f) => ({ message: f.message, location: f.location, impact: f.impact, severity: f.severity })),
        summary: own && base ? summaryOf(changes) : null,
      }
    }),
  }
}

/** A file's text as its site is served it (an overlay resolved): what search and "where used" read. */
export function resolvedTexts(texts: Map<string, string>): Map<string, string> {
  const resolved = resolveOverlaySet(texts)
  return new Map([...texts].map(([file, text]) => [file, resolved.texts.get(file) ?? text]))
}
