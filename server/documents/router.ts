/**
 * Documents API: the site bootstrap, resolved documents with ETag/304, translations, remote config;
 * and which page paths the site serves (screens and redirects), so the HTML answer's status tells
 * the truth: 200 for every spec route, 404 for anything else.
 */
import { Router, type Request, type Response } from 'express'
import { DOCUMENT_KINDS, type DocumentKind } from '../../kernel/documents/kinds'
import type { RouteEntry, SiteBootstrap } from '../../kernel/core/contracts'
import { servesPath, type RedirectRule, type RouteTable } from '../../kernel/core/routes'
import type { ServerDeps } from '../deps'
import { HTTP_ERRORS, sendError } from '../http/envelope'
import { siteContext } from '../http/site'
import { hashOf, type DocumentRecord } from '../../tools/schema-lint'
import type { DocumentsView, SiteRequest } from './service'

/** Whatever reads documents: the server's deps (the published set), or a preview's set. */
type ReadsDocuments = { documents: DocumentsView }
import { resolvePreview } from '../store/preview'
import { documentsOf } from './preview-documents'

function sendCached(req: Request, res: Response, etag: string, body: () => unknown): void {
  const quoted = `"${etag}"`
  res.setHeader('ETag', quoted)
  res.setHeader('Cache-Control', 'no-cache')
  res.setHeader('Vary', 'Host, Accept-Language, x-parlay-source')
  const match = req.headers['if-none-match']
  if (match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === quoted)) {
    res.status(304).end()
    return
  }
  res.json(body())
}

export function routeManifest(deps: ServerDeps, req: Request): RouteEntry[] {
  const request = siteContext(req, deps)
  const byId = new Map<string, DocumentRecord>()
  for (const record of deps.documents.list('screen')) {
    const resolved = deps.documents.resolve('screen', record.id, request)
    if (resolved) byId.set(record.id, resolved)
  }
  return [...byId.values()]
    .map((record) => {
      const doc = record.source as { route: string; section?: string; guard?: { login?: boolean } }
      return { screen: record.id, route: doc.route, section: doc.section ?? 'info', login: doc.guard?.login === true }
    })
    .sort((a, b) => a.route.localeCompare(b.route))
}

/** The redirects document's rules for the request's site (none when it has no such document). */
export function redirectsFor(deps: ServerDeps, req: Request): RedirectRule[] {
  const record = deps.documents.resolve('redirects', 'redirects', siteContext(req, deps))
  return ((record?.source as { redirects?: RedirectRule[] } | undefined)?.redirects ?? []) as RedirectRule[]
}

export function routeTableFor(deps: ServerDeps, req: Request): RouteTable {
  return { screens: routeManifest(deps, req).map((r) => r.route), redirects: redirectsFor(deps, req), remoteConfig: remoteConfigFor(deps, req) }
}

/** Does the site serve this page path (with or without one of its locale prefixes)? */
export function servesPage(deps: ServerDeps, req: Request): boolean {
  const { site } = siteContext(req, deps)
  const segments = req.path.split('/').filter(Boolean)
  const path = segments.length > 0 && site.locales.includes(segments[0]) ? '/' + segments.slice(1).join('/') : req.path
  return servesPath(path, routeTableFor(deps, req))
}

export function remoteConfigFor(deps: ServerDeps, req: Request): Record<string, unknown> {
  const record = deps.documents.resolve('remote-config', 'app', siteContext(req, deps))
  return ((record?.source as { config?: Record<string, unknown> })?.config ?? {}) as Record<string, unknown>
}

/** The remote config a browser gets: the served copy (no server-only field). */
export function servedRemoteConfig(deps: ServerDeps, req: Request): Record<string, unknown> {
  const record = deps.documents.resolve('remote-config', 'app', siteContext(req, deps))
  return ((record?.served as { config?: Record<string, unknown> })?.config ?? {}) as Record<string, unknown>
}

/** Every translations document of a locale, merged (each resolved for the site, so a
 * jurisdiction's copy of `en-auth` replaces the shared `en-auth`). */
export function translationsFor(deps: ReadsDocuments, request: SiteRequest, locale: string): { resources: Record<string, string>; hash: string } | undefined {
  const ids = new Set(
    deps.documents
      .list('translations')
      .filter((r) => ((r.source.locale as string | undefined) ?? r.id) === locale)
      .map((r) => r.id),
  )
  if (ids.size === 0) return undefined
  const records = [...ids].sort().flatMap((id) => deps.documents.resolve('translations', id, { ...request, locale }) ?? [])
  return {
    resources: Object.assign({}, ...records.map((r) => r.source.resources as Record<string, string>)),
    hash: hashOf(records.map((r) => r.hash)),
  }
}

/** A key without its plural suffix: the unit a locale has or lacks (it brings its own forms). */
export const pluralBase = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '')

export interface TranslationsBundle {
  kind: 'translations'
  id: string
  locale: string
  resources: Record<string, string>
  /** Fallback texts for the keys this locale lacks, by fallback locale (site default, then en). */
  fallbacks: Record<string, Record<string, string>>
}

/**
 * A locale's texts plus, per fallback locale (the site's default, then English), the texts of the
 * keys it lacks — all plural forms of a key come from one locale, so each keeps its plural rules.
 * Shipping only the missing keys in the one response is cheaper than the browser fetching whole
 * fallback bundles (README: decisions). Undefined when neither the locale nor a fallback has texts.
 */
export function translationsBundle(deps: ReadsDocuments, request: SiteRequest, locale: string, defaultLocale: string): { bundle: TranslationsBundle; hash: string } | undefined {
  const own = translationsFor(deps, request, locale)
  const covered = new Set(Object.keys(own?.resources ?? {}).map(pluralBase))
  const fallbacks: Record<string, Record<string, string>> = {}
  const hashes = [own?.hash ?? '']
  for (const fallback of [...new Set([defaultLocale, 'en'])].filter((l) => l !== locale)) {
    const texts = translationsFor(deps, request, fallback)
    if (!texts) continue
    hashes.push(texts.hash)
    const missing = Object.entries(texts.resources).filter(([key]) => !covered.has(pluralBase(key)))
    for (const [key] of missing) covered.add(pluralBase(key))
    if (missing.length > 0) fallbacks[fallback] = Object.fromEntries(missing)
  }
  if (!own && Object.keys(fallbacks).length === 0) return undefined
  return { bundle: { kind: 'translations', id: locale, locale, resources: own?.resources ?? {}, fallbacks }, hash: hashOf(hashes) }
}

/** What `GET /api/site` answers for this request: its ETag (unquoted) and the bootstrap (also
 * inlined in the page's boot data, server/http/boot.ts). */
export function siteBootstrapFor(deps: ServerDeps, req: Request): { etag: string; body: () => SiteBootstrap } {
  const context = siteContext(req, deps)
  const site = context.site
  const version = deps.documents.version(site.jurisdiction)
  return {
    etag: `${version}-${context.locale}-${context.platform}`,
    body: () => ({
      site: {
        id: site.id,
        jurisdiction: site.jurisdiction,
        name: site.name,
        defaultLocale: site.defaultLocale,
        locales: site.locales,
        currency: site.currency,
        ...(site.currencyDisplay ? { currencyDisplay: { ...site.currencyDisplay } } : {}),
        country: site.country,
        countryName: site.countryName,
        minimumAge: site.minimumAge,
        mainProduct: site.mainProduct,
        loyaltyCampaign: site.loyaltyCampaign === true,
        ...(site.betStake ? { betStake: { minimum: site.betStake.minimum, maximum: site.betStake.maximum } } : {}),
        ...(site.gameStake ? { gameStake: { minimum: site.gameStake.minimum, maximum: site.gameStake.maximum } } : {}),
        development: deps.config.development,
      },
      remoteConfig: servedRemoteConfig(deps, req),
      routes: routeManifest(deps, req),
      redirects: redirectsFor(deps, req),
      documentsVersion: version,
      version: deps.config.version,
    }),
  }
}

export function createDocumentsRouter(deps: ServerDeps): Router {
  const router = Router()

  router.get('/api/site', (req, res) => {
    const { etag, body } = siteBootstrapFor(deps, req)
    sendCached(req, res, etag, body)
  })

  router.get('/api/site/version', (req, res) => {
    const { site } = siteContext(req, deps)
    const version = deps.documents.version(site.jurisdiction)
    sendCached(req, res, version, () => ({ documentsVersion: version }))
  })

  router.get('/api/remote-config', (req, res) => {
    const { site } = siteContext(req, deps)
    sendCached(req, res, deps.documents.version(site.jurisdiction), () => ({ status: 'OK', payload: servedRemoteConfig(deps, req) }))
  })

  router.get('/api/documents/:kind/:id', async (req, res) => {
    const kind = req.params.kind as DocumentKind
    const id = req.params.id
    if (!DOCUMENT_KINDS.includes(kind)) return sendError(res, 400, 'UNKNOWN_DOCUMENT_KIND')
    if (!/^[a-z0-9][a-z0-9-]{0,79}$/.test(id)) return sendError(res, 400, 'INVALID_DOCUMENT_ID')
    if (typeof req.query.preview === 'string') {
      // An admin's draft preview: only for the session that made it, on its site, never cached.
      const preview = await resolvePreview(req.query.preview, kind, id, siteContext(req, deps), deps.now(), req.headers.cookie)
      if (preview.status === 'refused') return sendError(res, 403, 'PREVIEW_REFUSED')
      if (preview.status === 'draft') {
        res.setHeader('Cache-Control', 'no-store')
        return void res.json(preview.record.served)
      }
    }
    const record = deps.documents.resolve(kind, id, siteContext(req, deps))
    if (!record) return sendError(res, 404, HTTP_ERRORS.notFound)
    sendCached(req, res, record.hash, () => record.served)
  })

  router.get('/api/i18n/:locale', async (req, res) => {
    const context = siteContext(req, deps)
    const locale = req.params.locale
    if (!context.site.locales.includes(locale)) return sendError(res, 404, 'UNSUPPORTED_LOCALE', { locales: context.site.locales })
    // an admin's preview page reads the preview's texts (a draft of a texts document, a new copy)
    const read = await documentsOf(req, deps)
    if (!read.ok) return sendError(res, 403, 'PREVIEW_REFUSED')
    const texts = translationsBundle(read, context, locale, context.site.defaultLocale)
    if (!texts) return sendError(res, 404, HTTP_ERRORS.notFound)
    if (!read.preview) return sendCached(req, res, texts.hash, () => texts.bundle)
    res.setHeader('Cache-Control', 'no-store')
    res.json(texts.bundle)
  })

  return router
}
