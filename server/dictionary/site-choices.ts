/**
 * The dictionary calls whose answer is a site's own choice list (spec §3 "Dictionary", §7
 * "Dictionary and content"): locales, titles, genders, nationalities, tax regions, document types,
 * secret questions, and every product (`/products/all`). The lists are the jurisdiction
 * document's `dictionary` block (codes only) and the remote config's active products; each
 * punter-visible name is a translation (`dictionary.<list>.<code>`, `section.<product>`) in the
 * request's locale, else the site's default, else English. No jurisdiction is named here.
 */
import type { Request, Response, Router } from 'express'
import { punterSiteIfLoggedIn } from '../auth/session-check'
import { activeProducts } from '../../kernel/core/products'
import type { ServerDeps } from '../deps'
import { remoteConfigFor, translationsFor } from '../documents/router'
import { siteContext, type SiteContext } from '../http/site'
import { allCountries } from './countries'
import { jurisdictionOf } from './jurisdiction-of'

export interface Choice {
  code: string
  name: string
}

/** The site's lists as its jurisdiction document gives them (absent list: none offered). */
export type ChoiceList = 'titles' | 'genders' | 'taxRegions' | 'documentTypes' | 'secretQuestions'

/** The translation key prefix of each list: `dictionary.<prefix>.<code>`. */
export const CHOICE_KEY: Readonly<Record<ChoiceList, string>> = {
  titles: 'title',
  genders: 'gender',
  taxRegions: 'taxRegion',
  documentTypes: 'documentType',
  secretQuestions: 'secretQuestion',
}

type Words = Pick<ServerDeps, 'documents'>

/** A text in the request's locale, else the site's default, else English, else the key itself. */
function textIn(deps: Words, where: SiteContext, key: string): string {
  for (const locale of [...new Set([where.locale, where.site.defaultLocale, 'en'])]) {
    const text = translationsFor(deps, where, locale)?.resources[key]
    if (typeof text === 'string' && text !== '') return text
  }
  return key
}

/** One of the site's lists, each code named in the request's language. */
export function siteChoices(deps: Words, req: Request, list: ChoiceList): Choice[] {
  const block = (jurisdictionOf(deps, req) as unknown as { dictionary?: Partial<Record<ChoiceList, string[]>> }).dictionary ?? {}
  const where = siteContext(req, deps)
  return (block[list] ?? []).map((code) => ({ code, name: textIn(deps, where, `dictionary.${CHOICE_KEY[list]}.${code}`) }))
}

/** The site's locales (spec: full, code): `full` is the language's own name for itself. */
export function siteLocales(deps: Words, req: Request): { code: string; full: string; isDefault: boolean }[] {
  const { site } = siteContext(req, deps)
  return site.locales.map((code) => ({ code, full: languageName(code), isDefault: code === site.defaultLocale }))
}

function languageName(code: string): string {
  const name = new Intl.DisplayNames([code, 'en'], { type: 'language' }).of(code) ?? code
  return name.charAt(0).toLocaleUpperCase(code) + name.slice(1)
}

/** Every platform country as a nationality, the site's own country first, named in the request language. */
export function nationalities(deps: Words, req: Request): Choice[] {
  const where = siteContext(req, deps)
  const own = where.site.country
  const countries = allCountries(where.locale).map((c) => ({ code: c.code, name: c.name }))
  return [...countries.filter((c) => c.code === own), ...countries.filter((c) => c.code !== own)]
}

/** The site's active products (remote config), each with its label `section.<name>` in the request language. */
export function allProducts(deps: ServerDeps, req: Request): { name: string; label: string; route: string; isNew: boolean }[] {
  const where = siteContext(req, deps)
  return activeProducts(remoteConfigFor(deps, req)).map((p) => ({ name: p.name, label: textIn(deps, where, `section.${p.name}`), route: p.route, isNew: p.isNew }))
}

/** The site's own lists, by path. */
const CHOICE_PATHS: Readonly<Record<string, ChoiceList>> = {
  '/dictionary/titles': 'titles',
  '/dictionary/genders': 'genders',
  '/dictionary/tax-regions': 'taxRegions',
  '/dictionary/document-types': 'documentTypes',
  '/dictionary/secret-questions': 'secretQuestions',
}

type Cached = <T>(req: Request, res: Response, method: string, params: unknown, compute: () => T) => void

/** Mounts the lists on the dictionary's router, answered through its 15-minute cache (keyed by the bound site). */
export function siteChoiceRoutes(router: Router, deps: ServerDeps, cached: Cached): void {
  // behind a session the request is bound to the punter's own site first, whatever the host
  const ownSite = punterSiteIfLoggedIn(deps)
  for (const [path, list] of Object.entries(CHOICE_PATHS)) router.get(path, ownSite, (req, res) => cached(req, res, list, null, () => siteChoices(deps, req, list)))
  router.get('/dictionary/locales', ownSite, (req, res) => cached(req, res, 'locales', null, () => siteLocales(deps, req)))
  router.get('/dictionary/nationalities', ownSite, (req, res) => cached(req, res, 'nationalities', null, () => nationalities(deps, req)))
  router.get('/products/all', ownSite, (req, res) => cached(req, res, 'allProducts', null, () => allProducts(deps, req)))
}
