/**
 * The page HTML with its boot data (issue 10): one round trip to the first paint. The client's
 * index.html gets, for the asked route, the JSON answers the first render needs (site bootstrap,
 * translations of the page's locale, the route's screen and the shell's menu, header and footer
 * documents, and the documents its nodes load at once: a menu node's menu, a form's flow) in a non-executable `<script type="application/json" id="parlay-boot">`, module
 * preloads for the lazy chunks the screen renders at once (a form), preloads for the screen's
 * data, and the section's theme and the locale on `<html>`. Every entry is byte-for-byte the body
 * and ETag its API URL would answer, built by the same functions, so nothing can drift.
 *
 * Chosen over React 19 server rendering by measurement (README: Performance): inlined data gives
 * the same single round trip without hydrating a second copy of the markup or running React on
 * the server per request.
 */
import type { Request } from 'express'
import { createHash } from 'node:crypto'
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
} from '../../engine/core/boot-data'
import { fillDataUrl } from '../../engine/core/routes'
import { routeFor } from '../../engine/core/route-match'
import { sectionOf, splitLocale, themeOf } from '../../engine/core/locale-path'
import type { DocumentKind } from '../../engine/documents/kinds'
import type { ServerDeps } from '../deps'
import { siteBootstrapFor, translationsBundle } from '../documents/router'
import { siteContext } from './site'

/** Lazy chunks a screen needs at its first render, by the node type that renders them. */
const CHUNK_FOR_NODE: Record<string, string> = { form: 'renderers/form/FormNode.tsx' }

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
}

/** The request seen with another query (siteContext caches per request object). */
function withQuery(req: Request, query: Record<string, string>): Request {
  return Object.create(req, { query: { value: query } }) as Request
}

const quoted = (tag: string) => `"${tag}"`

type BodyNode = { type: string; menu?: unknown; flow?: unknown }

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
    const route = routeFor(bootstrap.routes, req.path, bootstrap.site.locales)
    const screen = route ? addDocument('screen', route.screen) : undefined
    const nodes = nodesOf((screen?.served as { body?: unknown } | undefined)?.body)
    const wanted = new Map([...SHELL_DOCUMENTS, ...nodeDocuments(nodes)].map(([kind, id]) => [`${kind}/${id}`, [kind, id] as const]))
    for (const [kind, id] of wanted.values()) addDocument(kind, id)
    const query = Object.fromEntries(Object.entries(req.query).filter((e): e is [string, string] => typeof e[1] === 'string'))
    const data = Object.values(((screen?.served as { data?: Record<string, { url?: unknown }> } | undefined)?.data ?? {}) as Record<string, { url?: unknown }>)
      .map((source) => (typeof source.url === 'string' && !/\{(params)\./.test(source.url) ? fillDataUrl(source.url, { locale, query, params: {} }) : null))
      .filter((url): url is string => url !== null && url.startsWith('/'))
    const chunks = [...new Set(nodes.map((node) => node.type))].flatMap((type) => (CHUNK_FOR_NODE[type] ? [CHUNK_FOR_NODE[type]] : []))
    const text = (key: string) => texts?.bundle.resources[key] ?? Object.values(texts?.bundle.fallbacks ?? {}).find((map) => key in map)?.[key] ?? ''
    return { entries, locale, theme: themeOf(sectionOf(path)), data, chunks, brand: text('shell.brand'), loading: text('shell.loading') }
  }

  return {
    /** The page for this request, or undefined while the client is not built. */
    render(req: Request): RenderedPage | undefined {
      const html = load()
      if (!html) return undefined
      const boot = bootFor(req)
      const head: string[] = []
      for (const source of boot.chunks) {
        const files = chunkFiles(manifest ?? {}, source)
        for (const file of files.css) head.push(`<link rel="stylesheet" crossorigin href="/${escapeAttribute(file)}">`)
        for (const file of files.js) head.push(`<link rel="modulepreload" crossorigin href="/${escapeAttribute(file)}">`)
      }
      for (const url of boot.data) head.push(`<link rel="preload" as="fetch" crossorigin href="${escapeAttribute(url)}">`)
      const script = `<script type="application/json" id="${BOOT_ELEMENT_ID}">${serializeBootData({ entries: boot.entries })}</script>`
      const page = html
        .replace(/<html lang="[^"]*" data-theme="[^"]*">/, `<html lang="${escapeAttribute(boot.locale)}" data-theme="${escapeAttribute(boot.theme)}">`)
        .replace('</head>', `${head.join('')}</head>`)
        .replace('<div id="root"></div>', `<div id="root">${bootShell(boot.brand, boot.loading)}</div>${script}`)
      return { html: page, etag: `"p-${createHash('sha1').update(page).digest('base64url').slice(0, 27)}"` }
    },
  }
}
