/**
 * The site's working mirror (spec §3 socket event `mirror`, stored key "mirror name"): when a
 * regulator or a network blocks a site's domain, the operator sets the domain that works instead
 * as `MIRROR_NAME` in the site's remote config (a document, so a publish from the studio or a
 * file change is enough). The moment a published set changes a site's mirror, that site's open
 * punter sockets get `mirror` {mirrorName}; the browser keeps the name and tells the punter where
 * the site now answers. Clearing the key announces nothing (the old domain works again).
 */
import type { DocumentService, Site } from '../documents/service'

export const MIRROR_CONFIG_KEY = 'MIRROR_NAME'

/** The mirror the site's remote config names (web platform, default locale), if any. */
export function mirrorOf(documents: DocumentService, site: Site): string | undefined {
  const record = documents.resolve('remote-config', 'app', { jurisdiction: site.jurisdiction, locale: site.defaultLocale, platform: 'web' })
  const value = (record?.source as { config?: Record<string, unknown> } | undefined)?.config?.[MIRROR_CONFIG_KEY]
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** Calls `announce` for each site whose mirror changed to a new name; returns stop. */
export function watchMirrors(documents: DocumentService, announce: (jurisdiction: string, mirrorName: string) => void): () => void {
  const known = new Map(documents.sites().map((site) => [site.jurisdiction, mirrorOf(documents, site)]))
  return documents.onChange(() => {
    for (const site of documents.sites()) {
      const mirror = mirrorOf(documents, site)
      if (mirror === known.get(site.jurisdiction)) continue
      known.set(site.jurisdiction, mirror)
      if (mirror) announce(site.jurisdiction, mirror)
    }
  })
}
