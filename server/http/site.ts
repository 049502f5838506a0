/**
 * Which site a request is for: the target header when a client names one (native apps share one
 * API host), otherwise the Host (`spain.localhost` → Spain; plain localhost → the default site).
 * The source header names the platform (spec §7); the locale comes from `?locale=`, then
 * Accept-Language, then the site's default.
 */
import type { NextFunction, Request, Response } from 'express'
import { PLATFORMS } from '../../engine/documents/kinds'
import { HEADERS } from '../../engine/core/contracts'
import type { ServerDeps } from '../deps'
import type { Site, SiteRequest } from '../documents/service'
import { HTTP_ERRORS, sendError } from './envelope'

export interface SiteContext extends SiteRequest {
  site: Site
}

const cache = new WeakMap<Request, SiteContext>()

function pickLocale(req: Request, site: Site): string {
  const query = typeof req.query.locale === 'string' ? req.query.locale : undefined
  if (query && site.locales.includes(query)) return query
  const accepted = String(req.headers['accept-language'] ?? '')
    .split(',')
    .map((part) => part.split(';')[0].trim().slice(0, 2).toLowerCase())
  return accepted.find((code) => site.locales.includes(code)) ?? site.defaultLocale
}

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
