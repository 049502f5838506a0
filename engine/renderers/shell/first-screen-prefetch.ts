/**
 * The first screen's documents and data, asked at boot in parallel with the translations instead
 * of after the first render (issue 10: the lobby's first paint waits on one round trip less). What
 * the page carries for its first screen (documents, and the screen data when the server rendered
 * the screen with it) is waited for before React's first render, so that render shows what the
 * server's markup shows (engine/ssr.tsx) and replaces it without a change.
 */
import { documentUrl, type BootEntry } from '../../../kernel/core/boot-data'
import { routeFor } from '../../../kernel/core/route-match'
import { fillDataUrl } from '../../../kernel/core/routes'
import type { SiteBootstrap } from '../../../kernel/core/contracts'
import type { DocumentClient } from '../../core/documents'

/** A screen data source the first screen asks at boot: its name in the screen and its URL. */
export interface FirstScreenSource {
  name: string
  url: string
}

/**
 * The data sources of a screen document that can be asked before the screen renders: those with
 * a URL that needs no route parameter (`{params.…}` is known only once the route is matched),
 * filled with the locale and the page's query.
 */
export function screenDataSources(screen: unknown, locale: string, query: Record<string, string>): FirstScreenSource[] {
  const data = (screen as { data?: Record<string, { url?: unknown } | null> } | null | undefined)?.data
  const sources: FirstScreenSource[] = []
  for (const [name, source] of Object.entries(data ?? {})) {
    if (typeof source?.url !== 'string' || source.url.includes('{params.')) continue
    sources.push({ name, url: fillDataUrl(source.url, { locale, query, params: {} }) })
  }
  return sources
}

export interface FirstScreenPrefetch {
  /** The answers started at boot, by `kind/id` (documents) or `data:url` (screen data). */
  prefetched: Map<string, Promise<unknown>>
  /** The loads of what the page carries for its first screen: awaited before the first render. */
  carriedFirst: Promise<unknown>[]
  /** The first screen's carried data by URL, set into the screen data store before the first render. */
  firstData: Map<string, { name: string; value: unknown }>
  /** A prefetched answer is used once; later loads go to the network (ETag-revalidated). */
  takePrefetched(key: string): Promise<unknown> | undefined
}

export interface FirstScreenInputs {
  boot: ReadonlyMap<string, BootEntry>
  documents: DocumentClient
  bootstrap: SiteBootstrap
  locale: string
  fetchData(url: string): Promise<unknown>
}

/** Starts the first screen's documents and data (the URLs server/http/boot.ts preloads from the HTML). */
export function prefetchFirstScreen({ boot, documents, bootstrap, locale, fetchData }: FirstScreenInputs): FirstScreenPrefetch {
  const prefetched = new Map<string, Promise<unknown>>()
  const carriedFirst: Promise<unknown>[] = []
  const firstData = new Map<string, { name: string; value: unknown }>()
  const entry = routeFor(bootstrap.routes, window.location.pathname, bootstrap.site.locales)
  const prefetch = (kind: string, id: string) => {
    const carried = boot.has(documentUrl(kind, id, locale))
    const promise = documents.load(kind, id)
    prefetched.set(`${kind}/${id}`, promise)
    if (carried) carriedFirst.push(promise)
    return promise
  }
  const query = Object.fromEntries(new URLSearchParams(window.location.search))
  const prefetchData = (screen: unknown) => {
    const carried: Promise<unknown>[] = []
    for (const { name, url } of screenDataSources(screen, locale, query)) {
      const inPage = boot.has(url)
      const pending = fetchData(url)
      prefetched.set(`data:${url}`, pending)
      if (inPage) carried.push(pending.then((value) => void firstData.set(url, { name, value })))
    }
    return Promise.all(carried)
  }
  if (entry) carriedFirst.push(prefetch('screen', entry.screen).then((result) => prefetchData(result.ok ? result.value.document : undefined)))
  void prefetch('menu', 'left-menu')
  void prefetch('footer', 'footer')
  void prefetch('header', 'header')
  const takePrefetched = (key: string) => {
    const promise = prefetched.get(key)
    prefetched.delete(key)
    return promise
  }
  return { prefetched, carriedFirst, firstData, takePrefetched }
}
