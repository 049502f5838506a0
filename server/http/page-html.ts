/**
 * The page's HTML from the client's built index.html (issue 10): the head's links (the lazy chunks
 * the screen renders at once, the screen data's preloads, the first rows' image preloads React put
 * before the markup), the locale and theme on `<html>`, the first screen or the boot shell in
 * `#root` with the boot data after it, and how the entry script starts (vite.config.ts
 * `startAfterPaint`).
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** The build's start-after-paint script tag (vite.config.ts `startAfterPaint`): src, entry, preloads. */
export const START_AFTER_PAINT = /<script defer src="([^"]+)" data-entry="([^"]+)" data-preload="([^"]*)"><\/script>/

interface ManifestChunk {
  file: string
  isEntry?: boolean
  css?: string[]
  imports?: string[]
}
export type Manifest = Record<string, ManifestChunk>

export const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')

export function readManifest(distDir: string): Manifest {
  const file = join(distDir, '.vite', 'manifest.json')
  try {
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Manifest) : {}
  } catch {
    return {}
  }
}

/** The files (JS with its static imports, CSS) of the manifest chunk whose source ends with `source`. */
export function chunkFiles(manifest: Manifest, source: string): { js: string[]; css: string[] } {
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

/**
 * The head's links for the screen's lazy chunks: their stylesheets always; their scripts only when
 * the page has no rendered markup (the server-rendered form's script loads on the punter's first
 * use of it, engine/renderers/nodes/FormNode.tsx), as module preloads, or with the build's
 * start-after-paint script (`deferred`) as the entry's preloads after the first paint, instead of
 * competing with the first screen.
 */
export function chunkLinks(manifest: Manifest, chunks: string[], rendered: boolean, deferred: boolean): { head: string[]; preloads: string[] } {
  const head: string[] = []
  const preloads: string[] = []
  for (const source of chunks) {
    const files = chunkFiles(manifest, source)
    for (const file of files.css) head.push(`<link rel="stylesheet" crossorigin href="/${escapeAttribute(file)}">`)
    if (rendered) continue
    for (const file of files.js) {
      if (deferred) preloads.push(`/${file}`)
      else head.push(`<link rel="modulepreload" crossorigin href="/${escapeAttribute(file)}">`)
    }
  }
  return { head, preloads }
}

/**
 * React puts the preloads of the first rows' images (fetchpriority high) before the markup: they
 * belong in the head, where the browser finds them before the body. Answers the links (if any) and
 * the markup without them.
 */
export function hoistLeadingLinks(markup: string): { links?: string; markup: string } {
  const links = /^(?:<link [^>]*>)+/.exec(markup)?.[0]
  return links ? { links, markup: markup.slice(links.length) } : { markup }
}

export interface PageParts {
  locale: string
  theme: string
  head: string[]
  /** Module preloads for the start-after-paint entry. */
  preloads: string[]
  /** The rendered first screen, or undefined for the boot shell. */
  markup: string | undefined
  shell: string
  /** The boot data's script tag. */
  script: string
}

/** The built index.html with the page's parts in place. */
export function fillTemplate(html: string, { locale, theme, head, preloads, markup, shell, script }: PageParts): string {
  return html
    .replace(START_AFTER_PAINT, (_tag: string, src: string, entry: string, built: string) => {
      const modules = [...new Set([...(built ? built.split(',') : []), ...preloads])]
      // a page with the boot shell starts its entry at once, as before: waiting for the first
      // paint only pays when that paint is the real screen (measured: /join's LCP 2.59 → 2.98 s)
      if (!markup) return `<script type="module" crossorigin src="${entry}"></script>${modules.map((href) => `<link rel="modulepreload" crossorigin href="${escapeAttribute(href)}">`).join('')}`
      return `<script defer src="${src}" data-entry="${entry}" data-preload="${escapeAttribute(modules.join(','))}"></script>`
    })
    .replace(/<html lang="[^"]*" data-theme="[^"]*">/, `<html lang="${escapeAttribute(locale)}" data-theme="${escapeAttribute(theme)}">`)
    .replace('</head>', `${head.join('')}</head>`)
    .replace('<div id="root"></div>', () => `<div id="root">${markup ?? shell}</div>${script}`)
}
