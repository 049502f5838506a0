/**
 * Which site a request is for: the target header when a client names one (native apps share one
 * API host), otherwise the Host (`spain.localhost` → Spain; plain localhost → the default site).
 * The source header names the platform (spec §7); the locale comes from `?locale=`, then
 * Accept-Language, then the site's default.
 *
 * A logged-in punter's request is then rebound to the punter's OWN site where the session is
 * checked (`bindPunterSite`, docs/adr/0001-punter-jurisdiction-is-the-accounts.md): every rule
 * read through `siteContext` afterwards is the account's jurisdiction's, whatever host or header
 * the request came with. Guest routes and the documents a page renders keep following the host.
 */
import type { NextFunction, Request, Response } from 'express'
import { PLATFORMS } from '../../kernel/documents/kinds'
import { HEADERS } from '../../kernel/core/contracts'
import type { ServerDeps } from '../deps'
import type { Site, SiteRequest } from '../documents/service'
import { HTTP_ERRORS, sendError } from './envelope'

export interface SiteContext extends SiteRequest {
  site: Site
  /** Set when a punter's request came through another site (host or header): that site's id. */
  requestedSite?: string
}

const cache = new WeakMap<Request, SiteContext>()

/** The locale the request asks for (`?locale=`, then Accept-Language) among the site's, if any. */
function askedLocale(req: Request, site: Site): string | undefined {
  const query = typeof req.query.locale === 'string' ? req.query.locale : undefined
  if (query && site.locales.includes(query)) return query
  const accepted = String(req.headers['accept-language'] ?? '')
    .split(',')
    .map((part) => part.split(';')[0].trim().slice(0, 2).toLowerCase())
  return accepted.find((code) => site.locales.includes(code))
}

const pickLocale = (req: Request, site: Site): string => askedLocale(req, site) ?? site.defaultLocale

export function siteContext(req: Request, deps: Pick<ServerDeps, 'documents'>): SiteContext {
  let context = cache.get(req)
  if (!context) {
    const target = req.header(HEADERS.target)
    const site = (target && deps.documents.site(target)) || deps.documents.siteForHost(req.hostname ?? req.headers.host ?? '')
    context = { site, jurisdiction: site.jurisdiction, locale: pickLocale(req, site), platform: req.header(HEADERS.source) ?? 'web' }
    cache.set(req, context)
  }
  return context
}

/**
 * Rebinds the request to the punter's own site (the jurisdiction of registration): the site, its
 * jurisdiction's documents and rules. The locale is the one the request asks for (query, then
 * Accept-Language) when the punter's site offers it, else the locale the host chose when the
 * punter's site offers that, else the punter's site's default. Answers the bound context, or
 * undefined when no site serves that jurisdiction (the caller refuses).
 */
export function bindPunterSite(req: Request, deps: Pick<ServerDeps, 'documents'>, jurisdiction: string): SiteContext | undefined {
  const requested = siteContext(req, deps)
  if (requested.jurisdiction === jurisdiction) return requested
  const own = deps.documents.sites().find((site) => site.jurisdiction === jurisdiction)
  if (!own) return undefined
  const locale = askedLocale(req, own) ?? (own.locales.includes(requested.locale) ? requested.locale : own.defaultLocale)
  const context: SiteContext = { site: own, jurisdiction: own.jurisdiction, locale, platform: requested.platform, requestedSite: requested.requestedSite ?? requested.site.id }
  cache.set(req, context)
  return context
}

const VERSION = /^\d{1,4}\.\d{1,4}\.\d{1,4}([-+][0-9A-Za-z.-]{1,40})?$/

/** Refuses malformed source/target/version headers with a clear 400 instead of guessing. */
export function checkClientHeaders(deps: Pick<ServerDeps, 'documents'>) {
  return (req: Request, res: Response, next: NextFunction) => {
    const source = req.header(HEADERS.source)
    if (source !== undefined && !(PLATFORMS as readonly string[]).includes(source))
      return sendError(res, 400, HTTP_ERRORS.badHeader, { header: HEADERS.source, allowed: PLATFORMS })
    const target = req.header(HEADERS.target)
    if (target !== undefined && !deps.documents.site(target))
      return sendError(res, 400, HTTP_ERRORS.badHeader, { header: HEADERS.target, allowed: deps.documents.sites().map((s) => s.id) })
    const version = req.header(HEADERS.version)
    if (version !== undefined && !VERSION.test(version)) return sendError(res, 400, HTTP_ERRORS.badHeader, { header: HEADERS.version })
    next()
  }
}
