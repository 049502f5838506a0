/**
 * Paths, locale prefixes, sections and themes (spec §1, §2).
 *
 * URLs may start with an optional 2–3 letter locale code (/ru/casino/lobby). A leading segment
 * counts as a locale only when it is one of the site's locales, so /toto or /faq are never
 * mistaken for a language. Stored history keeps paths without the prefix.
 */

export interface LocaleSite {
  defaultLocale: string
  locales: readonly string[]
}

export interface StorageLike {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

const LOCALE_SEGMENT = /^[a-z]{2,3}$/

/** Splits `/ru/casino/lobby` into `{ locale: 'ru', path: '/casino/lobby' }` when `ru` is one of
 * the site's locales; otherwise `{ locale: null, path: pathname }`. */
export function splitLocale(pathname: string, locales: readonly string[]): { locale: string | null; path: string } {
  const match = /^\/([^/?#]+)(.*)$/.exec(pathname)
  if (match && LOCALE_SEGMENT.test(match[1]) && locales.includes(match[1])) {
    const rest = match[2]
    return { locale: match[1], path: rest === '' || rest[0] !== '/' ? `/${rest}` : rest }
  }
  return { locale: null, path: pathname || '/' }
}

/** The path without its locale prefix (what stored history keeps). */
export function stripLocale(pathname: string, locales: readonly string[]): string {
  return splitLocale(pathname, locales).path
}

/**
 * Adds the locale prefix to a navigated path.
 *
 * Decision: the prefix is added whenever the current locale differs from the site's default
 * locale, or when the current URL already carries one (a punter who arrived on /en/... on an
 * English-default site keeps seeing /en/...). On the default locale with a bare URL, paths stay
 * bare, so the default site's URLs are the short ones. A path that already has a prefix is
 * re-prefixed with the current locale.
 */
export function withLocale(path: string, locale: string, site: LocaleSite, currentPathname?: string): string {
  const bare = stripLocale(path.startsWith('/') ? path : `/${path}`, site.locales)
  const urlHasPrefix = currentPathname !== undefined && splitLocale(currentPathname, site.locales).locale !== null
  if (locale === site.defaultLocale && !urlHasPrefix) return bare
  return bare === '/' ? `/${locale}` : `/${locale}${bare}`
}

/** Product sections by first path segment (spec §1/§2); aliases included. */
const SECTION_BY_SEGMENT: Record<string, string> = {
  sport: 'sport',
  live: 'sport',
  betting: 'sport',
  popular: 'sport',
  esports: 'esports',
  casino: 'casino',
  'live-casino': 'live-casino',
  livecasino: 'live-casino',
  'live-games': 'live-games',
  'virtual-sports': 'virtual-sports',
  toto: 'toto',
  scores: 'scores',
  mgames: 'mgames',
  crash: 'crash',
  'fast-games': 'fast-games',
  account: 'account',
  join: 'account',
  promotions: 'promotions',
}

/** Products a punter can "visit" (the default root remembers the last one). */
export const PRODUCT_ROOTS: Record<string, string> = {
  casino: '/casino/lobby',
  'live-casino': '/live-casino/lobby',
  'live-games': '/live-games/lobby',
  'virtual-sports': '/virtual-sports/lobby',
  mgames: '/mgames/lobby',
  toto: '/toto/correct-score',
  scores: '/scores',
  esports: '/esports/live/all',
  'fast-games': '/fast-games',
  sport: '/sport/live/popular',
  crash: '/crash/lobby',
}

const segments = (path: string) => path.split(/[?#]/)[0].split('/').filter(Boolean)

/** The section a (prefix-free) path belongs to: a product, 'account', 'promotions' or 'info'. */
export function sectionOf(path: string): string {
  const first = segments(path)[0]
  if (first === undefined) return 'sport'
  return SECTION_BY_SEGMENT[first] ?? 'info'
}

/**
 * The analytics section (spec §2 last paragraph): promotions, statistic, results, left menu,
 * loyalty, offers, account, else the product. Checked in that order over the path's segments, so
 * /casino/promotions is 'promotions' and /account/loyalty is 'loyalty'.
 */
export function analyticsSectionOf(path: string): string {
  const parts = segments(path)
  const has = (...names: string[]) => parts.some((p) => names.includes(p))
  if (has('promotions')) return 'promotions'
  if (has('statistic', 'statistics')) return 'statistic'
  if (has('results')) return 'results'
  if (has('left-menu', 'menu')) return 'left menu'
  if (has('loyalty')) return 'loyalty'
  if (has('offers')) return 'offers'
  if (parts[0] === 'account') return 'account'
  return sectionOf(path)
}

export type Theme = 'light' | 'dark' | 'lgames' | 'vsports' | 'esports'

const THEME_BY_SECTION: Record<string, Theme> = {
  casino: 'dark',
  'live-casino': 'dark',
  'fast-games': 'dark',
  mgames: 'dark',
  'live-games': 'lgames',
  'virtual-sports': 'vsports',
  esports: 'esports',
  sport: 'light',
  toto: 'light',
}

/** The theme of a section (spec §1); anything not listed is light. */
export function themeOf(section: string): Theme {
  return THEME_BY_SECTION[section] ?? 'light'
}

/** Storage key of the last visited product (spec §9 "last product"). */
export const LAST_PRODUCT_KEY = 'lastProduct'

/** Remembers the product of a path, if it is one (account, promotions, info pages are not). */
export function rememberProduct(path: string, storage: StorageLike | undefined): void {
  // The root only redirects to a product: passing through it is not a visit to sport.
  if (/^\/?([a-z]{2,3}\/?)?([?#].*)?$/.test(path)) return
  const section = sectionOf(path)
  if (!storage || !(section in PRODUCT_ROOTS)) return
  try {
    storage.setItem(LAST_PRODUCT_KEY, section)
  } catch {
    // storage full or disabled: the default root just falls back to the main product
  }
}

/** The route `/` leads to: the last visited product's lobby, else the site's main product, else sport. */
export function defaultRoot(storage: StorageLike | undefined, mainProduct?: string): string {
  let last: string | null = null
  try {
    last = storage?.getItem(LAST_PRODUCT_KEY) ?? null
  } catch {
    last = null
  }
  return (last && PRODUCT_ROOTS[last]) || (mainProduct && PRODUCT_ROOTS[mainProduct]) || PRODUCT_ROOTS.sport
}
