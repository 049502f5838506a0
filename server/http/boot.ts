/**
 * The page HTML with its boot data (issue 10): one round trip to the first paint. The client's
 * index.html gets, for the asked route, the JSON answers the first render needs (site bootstrap,
 * translations of the page's locale, the route's screen and the shell's menu, header and footer
 * documents, and the documents its nodes load at once: a menu node's menu, a form's flow) in a non-executable `<script type="application/json" id="parlay-boot">`, module
 * preloads for the lazy chunks the screen renders at once (a form), preloads for the screen's
 * data, and the section's theme and the locale on `<html>`. Every entry is byte-for-byte the body
 * and ETag its API URL would answer, built by the same functions, so nothing can drift.
 *
 * The route's first screen is rendered here too (./first-screen.tsx), with the screen data it
 * shows added to the boot entries, so a phone paints the real page from the HTML alone; where it
 * cannot be rendered as the browser would render it, the page carries the boot shell. Decided by
 * measurement (README: Performance, eighth pass).
 */
import type { Request } from 'express'
import { createHash } from 'node:crypto'
import { request as httpRequest } from 'node:http'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  BOOT_ELEMENT_ID,
  SHELL_DOCUMENTS,
  documentUrl,
  guessLocale,
  serializeBootData,
  siteUrl,
  translationsUrl,
  type BootEntry,
} from '../../kernel/core/boot-data'
import { fillDataUrl } from '../../kernel/core/routes'
import { routeFor } from '../../kernel/core/route-match'
import { sectionOf, splitLocale, themeOf } from '../../kernel/core/locale-path'
import { consentSettings, readConsentCookie } from '../../kernel/core/consent-cookie'
import { hasPunterHint } from '../../kernel/auth/punter-cookie'
import type { DocumentKind } from '../../kernel/documents/kinds'
import type { FooterDocument } from '../../kernel/documents/types'
import type { ServerDeps } from '../deps'
import { siteBootstrapFor, translationsBundle } from '../documents/router'
import { createVisitorGroups } from '../experiments/visitor-groups'
import { visitorGroupsCookie } from '../../kernel/experiments/groups-cookie'
import { importFlowValidatorModule, type FlowLike, type ValidatorModuleExports } from '../validators'
import { renderFirstScreen } from '../../engine/ssr'
import { candidateHeaders, candidatePopup, reportCandidateProblem } from '../documents/candidate'
import { siteContext } from './site'

/** Lazy chunks a screen needs at its first render, by the node type that renders them. */
const CHUNK_FOR_NODE: Record<string, string> = { form: 'renderers/form/FormNode.tsx' }

/** The build's start-after-paint script tag (vite.config.ts `startAfterPaint`): src, entry, preloads. */
const START_AFTER_PAINT = /<script defer src="([^"]+)" data-entry="([^"]+)" data-preload="([^"]*)"><\/script>/

/** How long the page waits for a screen data answer from this server before it sends the boot shell. */
const DATA_TIMEOUT_MS = 1_000
/** Rendered first screens kept in memory (a few KB each: pages × locales × sites, and data versions). */
const FIRST_SCREENS_KEPT = 200

interface ManifestChunk {
  file: string
  isEntry?: boolean
  css?: string[]
  imports?: string[]
}
type Manifest = Record<string, ManifestChunk>

export interface RenderedPage {
  html: string
  etag: string
  /** How long the server spent on the first screen (data and React), for a Server-Timing header. */
  timing?: string
  /** A Set-Cookie value: a first visit's experiment id and groups (kernel/experiments/groups-cookie.ts). */
  cookie?: string
  /** A data source marked `notFound` answered 404 (an event link naming no event): the page is a 404. */
  notFound?: boolean
}

/** The request seen with another query (siteContext caches per request object). */
function withQuery(req: Request, query: Record<string, string>): Request {
  return Object.create(req, { query: { value: query } }) as Request
}

const quoted = (tag: string) => `"${tag}"`

type BodyNode = { type: string; menu?: unknown; flow?: unknown }

/** A screen data source as the page asks it: its name, filled URL and whether a 404 is the page's. */
type ScreenSource = { name: string; url: string; notFound: boolean }

/** A `notFound` source answered 404: no first screen, and the page's status is 404. */
class PageNotFound extends Error {}
const NOT_FOUND = 'not-found' as const

/** A GET of this server's own API on loopback, for the page's Host (the site), as a guest: no
 * cookie or credential is passed on. Node's fetch cannot set Host, hence node:http. */
function askSelf(port: number, path: string, host: string | undefined): Promise<{ status: number; text: string }> {
  return new Promise((done, fail) => {
    // inside the publish gate's request, its candidate set answers the data too (documents/candidate.ts)
    const headers = { accept: 'application/json', ...(host ? { host } : {}), ...candidateHeaders() }
    const ask = httpRequest({ host: '127.0.0.1', port, path, headers, timeout: DATA_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => done({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', fail)
    })
    ask.on('timeout', () => ask.destroy(new Error(`${path}: no answer in ${DATA_TIMEOUT_MS} ms`)))
    ask.on('error', fail)
    ask.end()
  })
}

/** The consent choice the request's cookie holds (the first screen shows the banner without one). */
function consentGiven(cookies: string, boot: { entries: BootEntry[]; locale: string }): string | null {
  const footer = boot.entries.find((entry) => entry.url === documentUrl('footer', 'footer', boot.locale))?.body as FooterDocument | undefined
  return readConsentCookie(cookies, consentSettings(footer?.cookieConsent).cookieName)
}

/** Every node of a screen body (nested children included). */
function nodesOf(value: unknown, found: BodyNode[] = []): BodyNode[] {
  if (Array.isArray(value)) for (const item of value) nodesOf(item, found)
  else if (value && typeof value === 'object') {
    if (typeof (value as { type?: unknown }).type === 'string') found.push(value as BodyNode)
    for (const child of Object.values(value)) if (child && typeof child === 'object') nodesOf(child, found)
  }
  return found
}

/** Documents the screen's nodes load at their first render: a menu node's menu, a form's flow. */
function nodeDocuments(nodes: BodyNode[]): [kind: string, id: string][] {
  return nodes.flatMap((node): [string, string][] => {
    if (node.type === 'menu' && typeof node.menu === 'string') return [['menu', node.menu]]
    if (node.type === 'form' && typeof node.flow === 'string') return [['flow', node.flow]]
    return []
  })
}

function readManifest(distDir: string): Manifest {
  const file = join(distDir, '.vite', 'manifest.json')
  try {
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Manifest) : {}
  } catch {
    return {}
  }
}

/** The files (JS with its static imports, CSS) of the manifest chunk whose source ends with `source`. */
function chunkFiles(manifest: Manifest, source: string): { js: string[]; css: string[] } {
  const key = Object.keys(manifest).find((k) => k.endsWith(source))
  const js = new Set<string>()
  const css = new Set<string>()
  const visit = (k: string) => {
    const chunk = manifest[k]
    if (!chunk || js.has(chunk.file)) return
    js.add(chunk.file)
    for (const file of chunk.css ?? []) css.add(file)
    for (const imported of chunk.imports ?? []) if (!manifest[imported]?.isEntry) visit(imported)
  }
  if (key) visit(key)
  return { js: [...js], css: [...css] }
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')

/**
 * What the page shows before its script has run: the header bar with the site's brand, the same
 * size and colours as the real header (web/styles/shell.css, `.boot-shell`), marked busy. A phone on
 * a slow network sees the site at once instead of a white page while the script downloads and the
 * engine boots (issue 10: first contentful paint). React replaces it with the whole shell in one
 * commit (web/main.tsx renders only once the engine has booted), so nothing shifts or flashes.
 */
export function bootShell(brand: string, loading: string): string {
  return (
    `<div class="boot-shell" aria-busy="true"${loading ? ` aria-label="${escapeAttribute(loading)}"` : ''}>` +
    `<div class="boot-shell__bar"><span class="boot-shell__menu" aria-hidden="true"><span class="burger"></span></span>` +
    `<span class="boot-shell__brand">${escapeAttribute(brand)}</span></div></div>`
  )
}

export function createPageRenderer(deps: ServerDeps) {
  const distDir = deps.config.distDir
  const visitorGroups = createVisitorGroups(deps.config.documentsDir)
  let template: string | undefined
  let manifest: Manifest | undefined
  const load = () => {
    const indexFile = join(distDir, 'index.html')
    if (template === undefined && existsSync(indexFile)) {
      template = readFileSync(indexFile, 'utf8')
      manifest = readManifest(distDir)
    }
    return template
  }

  /** Does a document read experiment groups? Kept by URL and ETag (a stringify per document and change). */
  const readingGroups = new Map<string, boolean>()
  const readsExperiments = (entry: BootEntry) => {
    const key = `${entry.url} ${entry.etag}`
    let reads = readingGroups.get(key)
    if (reads === undefined) {
      if (readingGroups.size >= FIRST_SCREENS_KEPT) readingGroups.delete(readingGroups.keys().next().value as string)
      reads = /\bexperiments\./.test(JSON.stringify(entry.body))
      readingGroups.set(key, reads)
    }
    return reads
  }

  /** The boot entries for this page and what the screen needs beside them. */
  function bootFor(req: Request) {
    const guessed = guessLocale(req.path) ?? ''
    const site = siteBootstrapFor(deps, withQuery(req, { locale: guessed }))
    const bootstrap = site.body()
    const { locale: named, path } = splitLocale(req.path, bootstrap.site.locales)
    const locale = named ?? bootstrap.site.defaultLocale
    const entries: BootEntry[] = [{ url: siteUrl(guessed), etag: quoted(site.etag), body: bootstrap }]
    const context = siteContext(withQuery(req, {}), deps)
    const texts = translationsBundle(deps, context, locale, bootstrap.site.defaultLocale)
    if (texts) entries.push({ url: translationsUrl(locale), etag: quoted(texts.hash), body: texts.bundle })
    const documentRequest = siteContext(withQuery(req, { locale }), deps)
    const addDocument = (kind: string, id: string) => {
      const record = deps.documents.resolve(kind as DocumentKind, id, documentRequest)
      if (record) entries.push({ url: documentUrl(kind, id, locale), etag: quoted(record.hash), body: record.served })
      return record
    }
    const flows: FlowLike[] = []
    const route = routeFor(bootstrap.routes, req.path, bootstrap.site.locales)
    const screen = route ? addDocument('screen', route.screen) : undefined
    // the publish gate sees a changed popup open over a page (a punter's tap is what opens one)
    const popupId = candidatePopup()
    const popup = popupId ? addDocument('popup', popupId) : undefined
    const nodes = nodesOf([(screen?.served as { body?: unknown } | undefined)?.body, (popup?.served as { body?: unknown } | undefined)?.body])
    const wanted = new Map([...SHELL_DOCUMENTS, ...nodeDocuments(nodes)].map(([kind, id]) => [`${kind}/${id}`, [kind, id] as const]))
    for (const [kind, id] of wanted.values()) {
      const record = addDocument(kind, id)
      // a form is rendered as the real form, with its flow's validator module (issue 10)
      if (kind === 'flow' && record) flows.push(record.source as unknown as FlowLike)
    }
    const query = Object.fromEntries(Object.entries(req.query).filter((e): e is [string, string] => typeof e[1] === 'string'))
    const sources = Object.entries(((screen?.served as { data?: Record<string, { url?: unknown; notFound?: unknown }> } | undefined)?.data ?? {}) as Record<string, { url?: unknown; notFound?: unknown }>)
    const data = sources
      .map(([name, source]) => (typeof source.url === 'string' && !/\{(params)\./.test(source.url) ? { name, url: fillDataUrl(source.url, { locale, query, params: {} }), notFound: source.notFound === true } : null))
      .filter((source): source is ScreenSource => source !== null && source.url.startsWith('/'))
    // Rendered on the server: a screen route whose data sources are all known here (none waits on
    // a route parameter) and that a guest sees as it is. Not `/` and unknown paths (the browser
    // picks where they go, from its stored last product or the redirects), nor a login-only screen
    // (the browser may hold a session the server cannot see): those keep the boot shell. A screen
    // that reads experiment groups (/join's motivation banner) is rendered with the visitor's
    // groups, decided here as the browser decides them and carried in the boot data, so the
    // browser's first render uses exactly them (./visitor-groups.ts in server/experiments); one
    // that reads flags is rendered with none, as the browser's first render has none (flags arrive
    // with the experiment client, after the first screen, on both paths).
    const served = screen?.served as { guard?: { login?: boolean }; body?: unknown } | undefined
    const complete = Boolean(route && screen && !route.login && !served?.guard?.login) && data.length === sources.length
    // the groups matter to the rendered markup only where a document the page renders reads them
    const readsGroups = entries.some((entry) => entry.url.startsWith('/api/documents/') && readsExperiments(entry))
    const chunks = [...new Set(nodes.map((node) => node.type))].flatMap((type) => (CHUNK_FOR_NODE[type] ? [CHUNK_FOR_NODE[type]] : []))
    const text = (key: string) => texts?.bundle.resources[key] ?? Object.values(texts?.bundle.fallbacks ?? {}).find((map) => key in map)?.[key] ?? ''
    return { entries, bootstrap, texts: texts?.bundle, locale, theme: themeOf(sectionOf(path)), data, complete, readsGroups, chunks, flows, popup: popup && popupId, brand: text('shell.brand'), loading: text('shell.loading') }
  }

  /** Rendered first screens by page, documents and data; the oldest goes first past the limit. */
  const firstScreens = new Map<string, string>()
  const remember = (key: string, markup: string) => {
    if (firstScreens.size >= FIRST_SCREENS_KEPT) firstScreens.delete(firstScreens.keys().next().value as string)
    firstScreens.set(key, markup)
  }

  /**
   * The screen's data as the API answers it, asked of this same server (any `/api/` GET the screen
   * names, exactly as the browser would ask it, as a guest); undefined when one fails or is slow,
   * and the page then keeps the boot shell.
   */
  async function screenData(req: Request, sources: ScreenSource[]) {
    const port = req.socket.localPort
    if (port === undefined) return undefined
    try {
      return await Promise.all(
        sources.map(async ({ name, url, notFound }) => {
          const answer = await askSelf(port, url, req.headers.host)
          // the page is the 404 page (spec §8); the browser shows it from the same answer
          if (notFound && answer.status === 404) throw new PageNotFound()
          const body = JSON.parse(answer.text) as { status?: unknown; payload?: unknown }
          if (answer.status >= 500) reportCandidateProblem(`its data ${url} answered ${answer.status}`)
          if (answer.status !== 200 || body?.status !== 'OK') throw new Error(`${url}: ${answer.status}`)
          return { name, url, body, value: body.payload ?? null }
        }),
      )
    } catch (error) {
      return error instanceof PageNotFound ? NOT_FOUND : undefined
    }
  }

  /** The validator modules of the screen's forms by flow id; undefined when one fails to compile
   * (the page then keeps the boot shell, and the browser's form shows its own error). */
  async function formValidators(flows: FlowLike[]): Promise<Record<string, ValidatorModuleExports> | undefined> {
    try {
      return Object.fromEntries(await Promise.all(flows.map(async (flow) => [flow.id, await importFlowValidatorModule(flow)] as const)))
    } catch (error) {
      if (!reportCandidateProblem(`its form validators do not compile: ${(error as Error).message}`)) deps.log.warn('page.form-validators-failed', { error: (error as Error).message })
      return undefined
    }
  }

  /** The route's first screen rendered with its data (undefined: the page keeps the boot shell),
   * and how long the data and the render took. */
  async function firstScreen(req: Request, boot: ReturnType<typeof bootFor>, experiments: Record<string, unknown>) {
    const started = performance.now()
    const [data, validators] = await Promise.all([screenData(req, boot.data), formValidators(boot.flows)])
    const fetched = performance.now()
    if (data === NOT_FOUND) return NOT_FOUND
    if (!data || !validators) return undefined
    const search = new URLSearchParams(Object.entries(req.query).filter((e): e is [string, string] => typeof e[1] === 'string')).toString()
    const url = `${req.path}${search ? `?${search}` : ''}`
    // the same page from the same documents and data renders the same markup: React runs once per
    // change, not per request (10–60 ms a render on this machine under load)
    const consent = consentGiven(req.headers.cookie ?? '', boot)
    const groups = boot.readsGroups ? experiments : null
    const key = createHash('sha1').update(JSON.stringify([url, consent, groups, boot.popup, boot.entries.map((entry) => [entry.url, entry.etag]), data.map((source) => source.body)])).digest('base64url')
    let markup = firstScreens.get(key)
    if (markup === undefined) {
      markup = renderFirstScreen({
        url,
        pathname: req.path,
        locale: boot.locale,
        bootstrap: boot.bootstrap,
        translations: boot.texts,
        entries: boot.entries,
        data,
        validators,
        cookies: req.headers.cookie ?? '',
        experiments,
        popup: boot.popup,
        // the publish gate's render of a candidate is told (documents/candidate.ts); the live site's is logged
        onError: (error) =>
          reportCandidateProblem(`its first screen does not render: ${(error as Error).message}`) ||
          deps.log.warn('page.first-screen-failed', { path: req.path, error: (error as Error).message }),
      })
      if (markup !== undefined) remember(key, markup)
    }
    const timing = `data;dur=${(fetched - started).toFixed(1)}, ssr;dur=${(performance.now() - fetched).toFixed(1)}`
    return markup === undefined ? undefined : { markup, data, timing }
  }

  return {
    /** The page for this request, or undefined while the client is not built. */
    async render(req: Request): Promise<RenderedPage | undefined> {
      const html = load()
      if (!html) return undefined
      const boot = bootFor(req)
      const head: string[] = []
      // with the build's start-after-paint script (vite.config.ts), the route's chunks are preloaded
      // with the entry, after the first paint, instead of competing with the first screen
      const deferred = START_AFTER_PAINT.test(html)
      // a browser that holds a punter session gets the boot shell: the server would render the
      // guest's header (engine/auth/punter-hint.ts)
      // the visitor's experiment groups: in the first screen's stores and in the boot data, so the
      // browser's first render has the same (a first visit also gets its id in a cookie)
      const groups = visitorGroups.decide({ token: boot.bootstrap.remoteConfig.SIGMA_TOKEN, cookies: req.headers.cookie, userAgent: req.headers['user-agent'], site: boot.bootstrap.site })
      // nor a studio preview (`?preview=`): its documents are a draft the browser fetches with the
      // admin's preview cookie, while this renderer knows only the published ones
      const rendered = boot.complete && !hasPunterHint(req.headers.cookie ?? '') && req.query.preview === undefined ? await firstScreen(req, boot, groups.experiments) : undefined
      const first = rendered === NOT_FOUND ? undefined : rendered
      let markup = first?.markup
      const preloads: string[] = []
      for (const source of boot.chunks) {
        const files = chunkFiles(manifest ?? {}, source)
        for (const file of files.css) head.push(`<link rel="stylesheet" crossorigin href="/${escapeAttribute(file)}">`)
        // the server rendered the real form: its script loads on the punter's first use of it
        // (engine/renderers/nodes/FormNode.tsx), not with the page; its stylesheet is needed now
        if (markup) continue
        for (const file of files.js) {
          if (deferred) preloads.push(`/${file}`)
          else head.push(`<link rel="modulepreload" crossorigin href="/${escapeAttribute(file)}">`)
        }
      }
      // React puts the preloads of the first rows' images (fetchpriority high) before the markup:
      // they belong in the head, where the browser finds them before the body
      const hoisted = markup && /^(?:<link [^>]*>)+/.exec(markup)?.[0]
      if (markup && hoisted) {
        head.push(hoisted)
        markup = markup.slice(hoisted.length)
      }
      // the data the markup shows travels with it, so the browser's first render shows the same
      if (markup && first) for (const source of first.data) boot.entries.push({ url: source.url, etag: null, body: source.body })
      else for (const source of boot.data) head.push(`<link rel="preload" as="fetch" crossorigin href="${escapeAttribute(source.url)}">`)
      const script = `<script type="application/json" id="${BOOT_ELEMENT_ID}">${serializeBootData({ entries: boot.entries, experiments: groups.experiments })}</script>`
      const page = html
        .replace(START_AFTER_PAINT, (tag: string, src: string, entry: string, built: string) => {
          const modules = [...new Set([...(built ? built.split(',') : []), ...preloads])]
          // a page with the boot shell starts its entry at once, as before: waiting for the first
          // paint only pays when that paint is the real screen (measured: /join's LCP 2.59 → 2.98 s)
          if (!markup) return `<script type="module" crossorigin src="${entry}"></script>${modules.map((href) => `<link rel="modulepreload" crossorigin href="${escapeAttribute(href)}">`).join('')}`
          return `<script defer src="${src}" data-entry="${entry}" data-preload="${escapeAttribute(modules.join(','))}"></script>`
        })
        .replace(/<html lang="[^"]*" data-theme="[^"]*">/, `<html lang="${escapeAttribute(boot.locale)}" data-theme="${escapeAttribute(boot.theme)}">`)
        .replace('</head>', `${head.join('')}</head>`)
        .replace('<div id="root"></div>', () => `<div id="root">${markup ?? bootShell(boot.brand, boot.loading)}</div>${script}`)
      return {
        html: page,
        etag: `"p-${createHash('sha1').update(page).digest('base64url').slice(0, 27)}"`,
        timing: first?.timing,
        cookie: groups.cookie === undefined ? undefined : visitorGroupsCookie(groups.cookie, req.secure),
        ...(rendered === NOT_FOUND ? { notFound: true } : {}),
      }
    },
  }
}
