/**
 * The site's products as its product switcher shows them (issue 31, spec §1 sections, §3 remote
 * config APP_PRODUCTS_CONFIG and the page settings' active products): `ACTIVE_PRODUCTS` lists which
 * products the site offers, in order; each one's route and new-product flag come from its
 * `APP_PRODUCTS_CONFIG` entry. A document, not code: an operator reorders or drops a product per
 * site. Framework-free: the shell, the server's first screen and the tests read the same rules.
 */

export interface ActiveProduct {
  /** The product (a section or sub-section: sport, live-sport, casino …); its label is `section.<name>`. */
  name: string
  route: string
  isNew: boolean
}

type ProductConfig = { ROUTE?: unknown; IS_NEW?: unknown }

const asRecord = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {})

/** The active products with a route, in the remote config's order (every configured product when
 * the config names none). */
export function activeProducts(remoteConfig: unknown): ActiveProduct[] {
  const config = asRecord(remoteConfig)
  const products = asRecord(config.APP_PRODUCTS_CONFIG)
  const names = Array.isArray(config.ACTIVE_PRODUCTS) ? config.ACTIVE_PRODUCTS.filter((n): n is string => typeof n === 'string') : Object.keys(products)
  return names.flatMap((name) => {
    const entry = asRecord(products[name]) as ProductConfig
    return typeof entry.ROUTE === 'string' && entry.ROUTE.startsWith('/') ? [{ name, route: entry.ROUTE, isNew: entry.IS_NEW === true }] : []
  })
}

const segments = (path: string) => path.split(/[?#]/)[0].split('/').filter(Boolean)

/**
 * The product a page belongs to: the one whose route is the longest leading part of the path
 * (/sport/live/event → live-sport's /sport/live), else the one named like the page's section
 * (/casino/game → casino), else none.
 */
export function currentProduct(products: readonly ActiveProduct[], path: string, section: string): string | undefined {
  const given = segments(path)
  let best: { name: string; length: number } | undefined
  for (const product of products) {
    const route = segments(product.route)
    const leads = route.length <= given.length && route.every((part, i) => part === given[i])
    if (leads && route.length > (best?.length ?? 0)) best = { name: product.name, length: route.length }
  }
  return best?.name ?? products.find((p) => p.name === section)?.name
}
