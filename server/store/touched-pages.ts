/**
 * Which pages, on which sites and in which locales, a change of some document files reaches: what
 * the publish gate renders (./page-check.ts) and what the server watches after the publish
 * (./publish-watch.ts).
 *
 * Reach is decided by resolution, as the server serves documents: for each site and locale, a
 * document kind/id is touched when the copy that site is served (before or after the change) is one
 * of the changed files — so a Spain copy reaches Spain only, a shared document every site that has
 * no copy of its own, a locale variant that locale only. A touched document touches:
 * - a screen: its route;
 * - a flow or a menu: every screen whose body shows it (a form node, a menu node);
 * - a promotion: the promotion pages (screens whose data comes from /api/promotions), its own page
 *   with its id in the route;
 * - a popup: no page shows one before a punter opens it: the main product's lobby with the popup
 *   rendered open over it (the gate asks for it open: server/documents/candidate.ts);
 * - anything else the shell reads (the site, texts, header, footer, left menu, remote config,
 *   redirects …): a few representative pages of each site (sign-up, the main product's lobby, the
 *   promotions page), since every page renders the same shell.
 */
import type { DocumentRecord } from '../../tools/schema-lint'
import { resolutionScore } from '../documents/service'

export interface TouchedPage {
  site: string
  /** The site's first host: a page is asked for by Host, as a browser asks. */
  host: string
  locale: string
  /** The page's path as a punter asks for it: the locale's prefix unless it is the site's default. */
  path: string
  /** The route it renders (`/join`). */
  route: string
  /** The flows its forms show (their validator modules are part of the page). */
  flows: string[]
  /** The changed files that reach it. */
  because: string[]
  /** A changed popup, rendered open over the page. */
  popup?: string
}

export interface TouchedDocument {
  site: string
  locale: string
  kind: string
  id: string
  file: string
}

type Records = readonly DocumentRecord[]

const SHELL_SAMPLE = (mainProduct: string) => ['join', `${mainProduct}-lobby`, 'promotions']
const PAGE_LIMIT = 80

function resolver(records: Records, jurisdiction: string, locale: string) {
  const request = { jurisdiction, locale, platform: 'web' }
  return (kind: string, id: string): DocumentRecord | undefined => {
    let best: DocumentRecord | undefined
    let score = -1
    for (const record of records) {
      if (record.kind !== kind || record.id !== id) continue
      const s = resolutionScore(record, request)
      if (s > score) [best, score] = [record, s]
    }
    return best
  }
}

/** kind/id → a menu or form node's id, every node of a body. */
function nodeRefs(body: unknown, found: { menus: Set<string>; flows: Set<string> } = { menus: new Set(), flows: new Set() }) {
  if (Array.isArray(body)) for (const item of body) nodeRefs(item, found)
  else if (body && typeof body === 'object') {
    const node = body as Record<string, unknown>
    if (node.type === 'menu' && typeof node.menu === 'string') found.menus.add(node.menu)
    if (node.type === 'form' && typeof node.flow === 'string') found.flows.add(node.flow)
    for (const value of Object.values(node)) if (value && typeof value === 'object') nodeRefs(value, found)
  }
  return found
}

const dataUrls = (screen: DocumentRecord) => Object.values((screen.source.data ?? {}) as Record<string, { url?: unknown }>).map((d) => String(d.url ?? ''))

/** The documents a change reaches, per site and locale (the copy served there is a changed file). */
export function touchedDocuments(before: Records, after: Records, files: ReadonlySet<string>): TouchedDocument[] {
  const changed = [...before, ...after].filter((r) => files.has(r.file))
  const keys = [...new Map(changed.map((r) => [`${r.kind}/${r.id}`, r])).values()]
  const out: TouchedDocument[] = []
  for (const site of after.filter((r) => r.kind === 'jurisdiction')) {
    for (const locale of (site.source.locales as string[]) ?? []) {
      const [old, next] = [resolver(before, site.id, locale), resolver(after, site.id, locale)]
      for (const { kind, id, source } of keys) {
        // a locale's texts reach pages in that locale (a fallback text shows only for a key the
        // locale lacks, which the lint refuses)
        if (kind === 'translations' && ((source.locale as string | undefined) ?? id.split('-')[0]) !== locale) continue
        const hit = [old(kind, id), next(kind, id)].find((r) => r && files.has(r.file))
        if (hit) out.push({ site: site.id, locale, kind, id, file: hit.file })
      }
    }
  }
  return out
}

/** Screens of a site/locale a touched document reaches, by its kind (see the file comment). */
function screensFor(doc: TouchedDocument, screens: DocumentRecord[], mainProduct: string): { screen: DocumentRecord; route: string }[] {
  const at = (screen: DocumentRecord) => ({ screen, route: String(screen.source.route) })
  switch (doc.kind) {
    case 'screen':
      return screens.filter((s) => s.id === doc.id).map(at)
    case 'flow':
      return screens.filter((s) => nodeRefs(s.source.body).flows.has(doc.id)).map(at)
    case 'menu': {
      const showing = screens.filter((s) => nodeRefs(s.source.body).menus.has(doc.id)).map(at)
      return doc.id === 'left-menu' || showing.length === 0 ? [...showing, ...screensFor({ ...doc, kind: 'shell' }, screens, mainProduct)] : showing
    }
    case 'promotion':
      return screens.filter((s) => dataUrls(s).some((u) => u.startsWith('/api/promotions'))).map((s) => ({ screen: s, route: String(s.source.route).replace(':id', doc.id) }))
    case 'popup':
      return screens.filter((s) => s.id === `${mainProduct}-lobby`).map(at)
    default:
      return SHELL_SAMPLE(mainProduct).flatMap((id) => screens.filter((s) => s.id === id).map(at))
  }
}

/** The pages a change reaches on every site and in every locale (at most PAGE_LIMIT, sign-up first). */
export function touchedPages(before: Records, after: Records, files: ReadonlySet<string>): TouchedPage[] {
  const pages = new Map<string, TouchedPage>()
  const documents = touchedDocuments(before, after, files)
  for (const doc of documents) {
    const site = after.find((r) => r.kind === 'jurisdiction' && r.id === doc.site)!
    const resolve = resolver(after, doc.site, doc.locale)
    const screens = [...new Set(after.filter((r) => r.kind === 'screen').map((r) => r.id))].flatMap((id) => resolve('screen', id) ?? [])
    for (const { screen, route } of screensFor(doc, screens, String(site.source.mainProduct ?? 'sport'))) {
      if (/[:*]/.test(route)) continue // a route parameter the gate cannot fill
      const path = doc.locale === site.source.defaultLocale ? route : `/${doc.locale}${route}`
      const popup = doc.kind === 'popup' ? { popup: doc.id } : {}
      const key = `${doc.site} ${path} ${popup.popup ?? ''}`
      const shown = [screen.source.body, popup.popup && resolve('popup', popup.popup)?.source.body]
      const page = pages.get(key) ?? { site: doc.site, host: String((site.source.hosts as string[])[0]), locale: doc.locale, path, route, flows: [...nodeRefs(shown).flows], because: [], ...popup }
      if (!page.because.includes(doc.file)) page.because.push(doc.file)
      pages.set(key, page)
    }
  }
  return [...pages.values()].sort((a, b) => Number(b.route === '/join') - Number(a.route === '/join')).slice(0, PAGE_LIMIT)
}
