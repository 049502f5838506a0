/**
 * The page HTML with its boot data (issue 10): one round trip to the first paint. The client's
 * index.html gets, for the asked route, the JSON answers the first render needs (site bootstrap,
 * translations of the page's locale, the route's screen and the shell's menu, header and footer
 * documents, and the documents its nodes load at once: a menu node's menu, a form's flow) in a non-executable `<script type="application/json" id="parlay-boot">`, module
 * preloads for the lazy chunks the screen renders at once (a form), preloads for the screen's
 * data, and the section's theme and the locale on `<html>`. Every entry is byte-for-byte the body
 * and ETag its API URL would answer, built by the same functions, so nothing can drift.
 *
 * The route's first screen is rendered here too (./first-screen-render.ts), with the screen data it
 * shows added to the boot entries, so a phone paints the real page from the HTML alone; where it
 * cannot be rendered as the browser would render it, the page carries the boot shell. Decided by
 * measurement (README: Performance, eighth pass).
 *
 * The steps: what the page carries (./boot-plan.ts), its first screen (./first-screen-render.ts),
 * and the HTML around them (./page-html.ts).
 */
import type { Request } from 'express'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { BOOT_ELEMENT_ID, serializeBootData } from '../../kernel/core/boot-data'
import { hasPunterHint } from '../../kernel/auth/punter-cookie'
import { visitorGroupsCookie } from '../../kernel/experiments/groups-cookie'
import type { ServerDeps } from '../deps'
import { createVisitorGroups } from '../experiments/visitor-groups'
import { createExperimentReads, planBoot, type BootPlan } from './boot-plan'
import { createFirstScreenRenderer, NOT_FOUND, type FirstScreen, type RenderFirstScreen } from './first-screen-render'
import { chunkLinks, escapeAttribute, fillTemplate, hoistLeadingLinks, readManifest, START_AFTER_PAINT, type Manifest } from './page-html'

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

/**
 * The first screen when the page may show it: not to a browser that holds a punter session (the
 * server would render the guest's header, engine/auth/punter-hint.ts), nor a studio preview
 * (`?preview=`: its documents are a draft the browser fetches with the admin's preview cookie,
 * while this renderer knows only the published ones).
 */
function firstScreenFor(req: Request, boot: BootPlan, experiments: Record<string, unknown>, firstScreen: RenderFirstScreen) {
  return boot.complete && !hasPunterHint(req.headers.cookie ?? '') && req.query.preview === undefined ? firstScreen(req, boot, experiments) : undefined
}

/** The page's HTML around its first screen (or the boot shell) and boot data. */
function pageHtml(html: string, manifest: Manifest, boot: BootPlan, first: FirstScreen | undefined, experiments: Record<string, unknown>): string {
  // with the build's start-after-paint script (vite.config.ts), the route's chunks are preloaded
  // with the entry, after the first paint, instead of competing with the first screen
  const { head, preloads } = chunkLinks(manifest, boot.chunks, Boolean(first?.markup), START_AFTER_PAINT.test(html))
  let markup = first?.markup
  if (markup) {
    const hoisted = hoistLeadingLinks(markup)
    if (hoisted.links) head.push(hoisted.links)
    markup = hoisted.markup
  }
  // the data the markup shows travels with it, so the browser's first render shows the same
  if (markup && first) for (const source of first.data) boot.entries.push({ url: source.url, etag: null, body: source.body })
  else for (const source of boot.data) head.push(`<link rel="preload" as="fetch" crossorigin href="${escapeAttribute(source.url)}">`)
  const script = `<script type="application/json" id="${BOOT_ELEMENT_ID}">${serializeBootData({ entries: boot.entries, experiments })}</script>`
  return fillTemplate(html, { locale: boot.locale, theme: boot.theme, head, preloads, markup, shell: bootShell(boot.brand, boot.loading), script })
}

export function createPageRenderer(deps: ServerDeps) {
  const distDir = deps.config.distDir
  const visitorGroups = createVisitorGroups(deps.config.documentsDir)
  const readsExperiments = createExperimentReads()
  const firstScreen = createFirstScreenRenderer(deps)
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

  return {
    /** The page for this request, or undefined while the client is not built. */
    async render(req: Request): Promise<RenderedPage | undefined> {
      const html = load()
      if (!html) return undefined
      const boot = planBoot(deps, req, readsExperiments)
      // the visitor's experiment groups: in the first screen's stores and in the boot data, so the
      // browser's first render has the same (a first visit also gets its id in a cookie)
      const groups = visitorGroups.decide({ token: boot.bootstrap.remoteConfig.SIGMA_TOKEN, cookies: req.headers.cookie, userAgent: req.headers['user-agent'], site: boot.bootstrap.site })
      const rendered = await firstScreenFor(req, boot, groups.experiments, firstScreen)
      const first = rendered === NOT_FOUND ? undefined : rendered
      const page = pageHtml(html, manifest ?? {}, boot, first, groups.experiments)
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
