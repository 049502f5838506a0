/**
 * What a page's HTML carries for its route (issue 10): the boot entries (site bootstrap, the
 * locale's translations, the route's screen, an open candidate popup, the shell's documents and
 * the documents the screen's nodes load at once), the screen's data sources this server can ask,
 * whether the first screen can be rendered here, and the lazy chunks it renders at once. Every
 * entry is byte-for-byte the body and ETag its API URL would answer.
 */
import type { Request } from 'express'
import { SHELL_DOCUMENTS, documentUrl, guessLocale, siteUrl, translationsUrl, type BootEntry } from '../../kernel/core/boot-data'
import { fillDataUrl } from '../../kernel/core/routes'
import { routeFor } from '../../kernel/core/route-match'
import { sectionOf, splitLocale, themeOf } from '../../kernel/core/locale-path'
import type { DocumentKind } from '../../kernel/documents/kinds'
import type { ServerDeps } from '../deps'
import { siteBootstrapFor, translationsBundle } from '../documents/router'
import type { FlowLike } from '../validators'
import { candidatePopup } from '../documents/candidate'
import { siteContext } from './site'

/** Lazy chunks a screen needs at its first render, by the node type that renders them. */
const CHUNK_FOR_NODE: Record<string, string> = { form: 'renderers/form/FormNode.tsx' }
/** Documents whose reading of experiment groups is remembered (by URL and ETag). */
const READS_KEPT = 200

type BodyNode = { type: string; menu?: unknown; flow?: unknown }
type DataSource = { url?: unknown; notFound?: unknown }
type Translations = NonNullable<ReturnType<typeof translationsBundle>>['bundle']

/** A screen data source as the page asks it: its name, filled URL and whether a 404 is the page's. */
export type ScreenSource = { name: string; url: string; notFound: boolean }

/** The request seen with another query (siteContext caches per request object). */
export function withQuery(req: Request, query: Record<string, string>): Request {
  return Object.create(req, { query: { value: query } }) as Request
}

const quoted = (tag: string) => `"${tag}"`

/** The request's query parameters that are plain strings. */
export const stringQuery = (req: Request): Record<string, string> =>
  Object.fromEntries(Object.entries(req.query).filter((e): e is [string, string] => typeof e[1] === 'string'))

/** Every node of a screen body (nested children included). */
export function nodesOf(value: unknown, found: BodyNode[] = []): BodyNode[] {
  if (Array.isArray(value)) for (const item of value) nodesOf(item, found)
  else if (value && typeof value === 'object') {
    if (typeof (value as { type?: unknown }).type === 'string') found.push(value as BodyNode)
    for (const child of Object.values(value)) if (child && typeof child === 'object') nodesOf(child, found)
  }
  return found
}

/** Documents the screen's nodes load at their first render: a menu node's menu, a form's flow. */
export function nodeDocuments(nodes: BodyNode[]): [kind: string, id: string][] {
  return nodes.flatMap((node): [string, string][] => {
    if (node.type === 'menu' && typeof node.menu === 'string') return [['menu', node.menu]]
    if (node.type === 'form' && typeof node.flow === 'string') return [['flow', node.flow]]
    return []
  })
}

/** The lazy chunks of the node types a screen renders at once. */
export const chunksFor = (nodes: BodyNode[]): string[] =>
  [...new Set(nodes.map((node) => node.type))].flatMap((type) => (CHUNK_FOR_NODE[type] ? [CHUNK_FOR_NODE[type]] : []))

/**
 * The screen's data sources this server can ask as the browser would: a URL of this server's own
 * (starting with `/`) filled with the locale and the query; one that waits on a route parameter
 * (`{params.…}`) is not.
 */
export function askableSources(data: Record<string, DataSource>, locale: string, query: Record<string, string>): ScreenSource[] {
  return Object.entries(data)
    .map(([name, source]) => (typeof source.url === 'string' && !/\{(params)\./.test(source.url) ? { name, url: fillDataUrl(source.url, { locale, query, params: {} }), notFound: source.notFound === true } : null))
    .filter((source): source is ScreenSource => source !== null && source.url.startsWith('/'))
}

/**
 * Rendered on the server: a screen route whose data sources are all known here (none waits on a
 * route parameter) and that a guest sees as it is. Not `/` and unknown paths (the browser picks
 * where they go, from its stored last product or the redirects), nor a login-only screen (the
 * browser may hold a session the server cannot see): those keep the boot shell.
 */
export function rendersOnServer(route: { login?: boolean } | undefined, screen: { guard?: { login?: boolean } } | undefined, askable: number, sources: number): boolean {
  return Boolean(route && screen && !route.login && !screen.guard?.login) && askable === sources
}

/** A shell text of the page's translations (its fallbacks too), or '' without one. */
export function shellText(texts: Translations | undefined, key: string): string {
  return texts?.resources[key] ?? Object.values(texts?.fallbacks ?? {}).find((map) => key in map)?.[key] ?? ''
}

/**
 * Does a document read experiment groups? Kept by URL and ETag (a stringify per document and
 * change); the oldest goes first past READS_KEPT.
 */
export function createExperimentReads(): (entry: BootEntry) => boolean {
  const readingGroups = new Map<string, boolean>()
  return (entry) => {
    const key = `${entry.url} ${entry.etag}`
    let reads = readingGroups.get(key)
    if (reads === undefined) {
      if (readingGroups.size >= READS_KEPT) readingGroups.delete(readingGroups.keys().next().value as string)
      reads = /\bexperiments\./.test(JSON.stringify(entry.body))
      readingGroups.set(key, reads)
    }
    return reads
  }
}

/** The site's entries: its bootstrap (for the guessed locale) and the page locale's translations. */
function siteEntries(deps: ServerDeps, req: Request) {
  const guessed = guessLocale(req.path) ?? ''
  const site = siteBootstrapFor(deps, withQuery(req, { locale: guessed }))
  const bootstrap = site.body()
  const { locale: named, path } = splitLocale(req.path, bootstrap.site.locales)
  const locale = named ?? bootstrap.site.defaultLocale
  const entries: BootEntry[] = [{ url: siteUrl(guessed), etag: quoted(site.etag), body: bootstrap }]
  const texts = translationsBundle(deps, siteContext(withQuery(req, {}), deps), locale, bootstrap.site.defaultLocale)
  if (texts) entries.push({ url: translationsUrl(locale), etag: quoted(texts.hash), body: texts.bundle })
  return { entries, bootstrap, locale, path, texts: texts?.bundle }
}

/** The route's screen, an open candidate popup, and the documents the shell and their nodes load. */
function documentEntries(deps: ServerDeps, req: Request, site: ReturnType<typeof siteEntries>) {
  const { entries, bootstrap, locale } = site
  const documentRequest = siteContext(withQuery(req, { locale }), deps)
  const addDocument = (kind: string, id: string) => {
    const record = deps.documents.resolve(kind as DocumentKind, id, documentRequest)
    if (record) entries.push({ url: documentUrl(kind, id, locale), etag: quoted(record.hash), body: record.served })
    return record
  }
  const route = routeFor(bootstrap.routes, req.path, bootstrap.site.locales)
  const screen = route ? addDocument('screen', route.screen) : undefined
  // the publish gate sees a changed popup open over a page (a punter's tap is what opens one)
  const popupId = candidatePopup()
  const popup = popupId ? addDocument('popup', popupId) : undefined
  const nodes = nodesOf([(screen?.served as { body?: unknown } | undefined)?.body, (popup?.served as { body?: unknown } | undefined)?.body])
  const wanted = new Map([...SHELL_DOCUMENTS, ...nodeDocuments(nodes)].map(([kind, id]) => [`${kind}/${id}`, [kind, id] as const]))
  const flows: FlowLike[] = []
  for (const [kind, id] of wanted.values()) {
    const record = addDocument(kind, id)
    // a form is rendered as the real form, with its flow's validator module (issue 10)
    if (kind === 'flow' && record) flows.push(record.source as unknown as FlowLike)
  }
  return { route, screen: screen?.served as { guard?: { login?: boolean }; data?: Record<string, DataSource> } | undefined, nodes, flows, popup: popup && popupId }
}

export type BootPlan = ReturnType<typeof planBoot>

/**
 * The boot entries for this page and what the screen needs beside them. A screen that reads
 * experiment groups (/join's motivation banner) is rendered with the visitor's groups, decided
 * here as the browser decides them and carried in the boot data, so the browser's first render
 * uses exactly them (server/experiments/visitor-groups.ts); one that reads flags is rendered with
 * none, as the browser's first render has none (flags arrive with the experiment client, after the
 * first screen, on both paths).
 */
export function planBoot(deps: ServerDeps, req: Request, readsExperiments: (entry: BootEntry) => boolean) {
  const site = siteEntries(deps, req)
  const { entries, bootstrap, locale, path, texts } = site
  const { route, screen, nodes, flows, popup } = documentEntries(deps, req, site)
  const sources = screen?.data ?? {}
  const data = askableSources(sources, locale, stringQuery(req))
  const complete = rendersOnServer(route, screen, data.length, Object.keys(sources).length)
  // the groups matter to the rendered markup only where a document the page renders reads them
  const readsGroups = entries.some((entry) => entry.url.startsWith('/api/documents/') && readsExperiments(entry))
  const theme = themeOf(sectionOf(path))
  return { entries, bootstrap, texts, locale, theme, data, complete, readsGroups, chunks: chunksFor(nodes), flows, popup, brand: shellText(texts, 'shell.brand'), loading: shellText(texts, 'shell.loading') }
}
